/* reg.c — what slurmd tells the controller on its own: registration and
 * epilog completion (see slurmd.h). */
#include <string.h>
#include <sys/statvfs.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/common/job_container.h"
#include "slurmd/common/spool.h"
#include "slurmd/slurmd.h"

uint32_t slurmd_tmp_disk_mb(const slurm_conf_t *conf)
{
	struct statvfs st;
	const char *fs = conf->tmp_fs ? conf->tmp_fs : "/tmp";

	if (statvfs(fs, &st) < 0)
		return 0;
	return (uint32_t) ((uint64_t) st.f_blocks * st.f_frsize /
			   (1024 * 1024));
}

/* Just before each try (ctld_send.h): the jobs running now, not when
 * the registration was queued: one that waited behind other messages
 * would otherwise report a job launched meanwhile as missing, and the
 * controller requeue it. */
static void _reg_refresh(void *data, void *arg)
{
	node_registration_msg_t *r = data;
	const slurmd_t *sd = arg;

	xfree(r->job_ids);
	r->job_cnt = spool_live_jobs(sd->spool_dir, r->node_name,
				     &r->job_ids);
}

void slurmd_register_init(slurmd_t *sd)
{
	ctld_sender_set_refresh(sd->sender, MESSAGE_NODE_REGISTRATION,
				_reg_refresh, sd);
}

void slurmd_register(slurmd_t *sd, bool startup)
{
	node_registration_msg_t *r = xmalloc(sizeof(*r));

	r->node_name = xstrdup(sd->node->name);
	r->version = xstrdup(SLUICE_VERSION_STRING);
	r->arch = xstrdup(sd->hw.arch);
	r->os = xstrdup(sd->hw.os);
	r->hostname = xstrdup(sd->hw.hostname);
	r->cpus = sd->hw.cpus;
	r->boards = sd->hw.boards;
	r->sockets = sd->hw.sockets;
	r->cores = sd->hw.cores;
	r->threads = sd->hw.threads;
	r->real_memory = sd->hw.real_memory;
	r->free_mem = hwinfo_free_mem_mb();
	r->tmp_disk = slurmd_tmp_disk_mb(sd->conf);
	r->cpu_load = hwinfo_cpu_load();
	r->boot_time = sd->hw.boot_time;
	r->slurmd_start_time = sd->start_time;
	r->job_cnt = spool_live_jobs(sd->spool_dir, sd->node->name,
				     &r->job_ids);
	r->startup = startup;
	r->dyn_conf = xstrdup(sd->dyn_line);
	r->gres_cores = xstrdup(sd->gres_cores);
#ifdef SLUICE_PROTO_NEXT
	r->proto_next = xstrdup("25.11");
#endif
	debug("registering node %s with %u running job(s)%s", r->node_name,
	      r->job_cnt, startup ? " (startup)" : "");
	ctld_sender_queue(sd->sender, MESSAGE_NODE_REGISTRATION, r, -1);
}

void slurmd_epilog_complete(slurmd_t *sd, uint32_t job_id, int rc)
{
	epilog_complete_msg_t *e = xmalloc(sizeof(*e));

	/* job_container/tmpfs: the job's /tmp goes before the node is
	 * given back (a few mount calls: short enough for the loop) */
	job_container_delete(sd->conf, sd->node->name, job_id);
	e->job_id = job_id;
	e->rc = rc;
	e->node_name = xstrdup(sd->node->name);
	debug("JobId=%u: epilog complete on %s", job_id, e->node_name);
	ctld_sender_queue(sd->sender, MESSAGE_EPILOG_COMPLETE, e, -1);
}
