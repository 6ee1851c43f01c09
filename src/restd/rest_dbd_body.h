/* rest_dbd_body.h — the bodies of POST /slurmdb/v0.0.4N/accounts, users,
 * qos, clusters and associations as records to add or change, in sacctmgr's "key=value" settings.
 *
 * Pure (sluice_restd_parse; fuzz_rest_dbd_body).  A record is the GET
 * document's: members Sluice stores are read; a member left empty (an
 * unset {set, infinite, number}, [], "", or an object of such) is as if
 * absent, so a GET answer can be sent back; any other member is refused
 * by name, and a refused body yields no record at all.
 */
#ifndef SLUICE_REST_DBD_BODY_H
#define SLUICE_REST_DBD_BODY_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
	char    *name;   /* NULL for an association: the four below */
	char   **set;    /* "description=...", "maxwall=60", ... */
	int64_t  id;     /* qos, association: the id it names (0: none) */
	char    *account, *cluster, *user, *partition;   /* association */
	char    *parent;  /* association: parent_account ("" if none) */
	char    *ignored; /* members given that an add does not take */
	char   **coords;  /* account: its direct coordinators (users); user:
			   * the accounts it coordinates directly */
} rest_dbd_rec_t;

/* {"accounts": [...]} / {"users": [...]} / {"qos": [...]}: 0 with *recs
 * (*n of them), or -1 with *err (xmalloc'd: which record and member). */
int  rest_dbd_accounts_parse(json_object *body, rest_dbd_rec_t **recs,
			     size_t *n, char **err);
int  rest_dbd_users_parse(json_object *body, rest_dbd_rec_t **recs,
			  size_t *n, char **err);
int  rest_dbd_qos_parse(json_object *body, rest_dbd_rec_t **recs,
			size_t *n, char **err);
/* {"clusters": [...]}: the name; controller, nodes, rpc_version,
 * select_plugin, tres and associations (what the cluster's slurmctld
 * registers) are named in ignored when given. */
int  rest_dbd_clusters_parse(json_object *body, rest_dbd_rec_t **recs,
			     size_t *n, char **err);
/* {"associations": [...]}: account required; cluster, user, partition
 * and parent_account "" when absent. */
int  rest_dbd_assocs_parse(json_object *body, rest_dbd_rec_t **recs,
			   size_t *n, char **err);
void rest_dbd_recs_free(rest_dbd_rec_t *recs, size_t n);

/* POST accounts_association / users_association: an add_cond body
 * ({association_condition: {accounts|users, clusters, [accounts,
 * partitions,] association}, account|user: {...}}) as one sacctmgr add:
 * the names and their settings ("cluster=a,b", "description=...",
 * "fairshare=10", ...).  0, or -1 with *err (xmalloc'd) and nothing in
 * *a.  wckeys, and members Sluice does not store, are refused by name. */
typedef struct {
	char **names;
	char **set;
} rest_dbd_add_t;
int  rest_dbd_accounts_add_parse(json_object *body, rest_dbd_add_t *a,
				 char **err);
int  rest_dbd_users_add_parse(json_object *body, rest_dbd_add_t *a,
			      char **err);
void rest_dbd_add_free(rest_dbd_add_t *a);

#endif
