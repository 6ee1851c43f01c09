/* cli_clusters.h — -M/--clusters: the clusters one slurmdbd knows, each
 * with the controller address it registered (cluster_table), so that a
 * command on one cluster can ask another's controller.
 *
 * This cluster (ClusterName) is always known, without asking slurmdbd;
 * any other name, and "all", need AccountingStorageType=
 * accounting_storage/slurmdbd.  An unknown name, or one whose controller
 * has never registered, gets Slurm's two error lines and the command
 * stops (exit 1).
 */
#ifndef SLUICE_CLI_CLUSTERS_H
#define SLUICE_CLI_CLUSTERS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	char     *name;
	char     *host;       /* NULL: this cluster (slurm.conf's hosts) */
	uint16_t  port;
} cli_cluster_t;

/* The clusters list names ("a,b", "all"), in the order given ("all": by
 * name).  NULL with the error printed. */
cli_cluster_t *cli_clusters_resolve(const char *list, size_t *cnt);
void           cli_clusters_free(cli_cluster_t *c, size_t cnt);
/* Send cli_ctld_rpc's requests to c's controller (NULL, or this
 * cluster: back to slurm.conf's SlurmctldHost list). */
void           cli_clusters_use(const cli_cluster_t *c);
/* -M of a command that talks to one controller (scontrol, sprio, sdiag,
 * sshare, strigger; srun, salloc and sbatch with desc): the cluster list
 * names, which from now on gets cli_ctld_rpc's requests.  Several names
 * (or "all" with several clusters): with desc, the one where the job
 * would start first (a will-run on each, as Slurm's sbatch); without,
 * refused ("Only one cluster can be used at a time with <cmd>").  list
 * NULL: this cluster.  0 with *name set if name is not NULL (caller
 * frees), or -1 with the error printed. */
int            cli_clusters_pick(const char *list, const void *desc,
				 char **name);
/* The cluster cli_clusters_pick chose (ClusterName before or without
 * one): what a Cluster column prints. */
const char    *cli_clusters_current(void);

#endif
