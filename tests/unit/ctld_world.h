/* ctld_world.h — the controller's modules compiled into one test
 * program (so its statics are reachable), with the pieces that need a
 * running loop or daemons around them stubbed out: test_sched and
 * test_backfill run the scheduler over real node, partition and job
 * tables this way.  A new controller module goes in the list below; a new
 * hook into a module left out gets a stub here, once. */
#ifndef SLUICE_TESTS_CTLD_WORLD_H
#define SLUICE_TESTS_CTLD_WORLD_H

#include "../../src/ctld/select.c"
#include "../../src/ctld/gres_sel.c"
#include "../../src/ctld/gres_bind.c"
#include "../../src/ctld/commit.c"
#include "../../src/ctld/state_save.c"
#include "../../src/ctld/job_seg.c"
#include "../../src/ctld/job_files.c"
#include "../../src/ctld/journal.c"
#include "../../src/ctld/recover.c"
#include "../../src/ctld/node_mgr.c"
#include "../../src/ctld/node_state.c"
#include "../../src/ctld/node_dyn.c"
#include "../../src/ctld/node_reboot.c"
#include "../../src/ctld/power_conf.c"
#include "../../src/ctld/power_save.c"
#include "../../src/ctld/billing.c"
#include "../../src/ctld/part_mgr.c"
#include "../../src/ctld/part_limits.c"
#include "../../src/ctld/job_mgr.c"
#include "../../src/ctld/job_queue.c"
#include "../../src/ctld/job_alloc.c"
#include "../../src/ctld/job_tick.c"
#include "../../src/ctld/job_info_rpc.c"
#include "../../src/ctld/job_inactive.c"
#include "../../src/ctld/job_submit.c"
#include "../../src/ctld/job_validate.c"
#include "../../src/ctld/job_req.c"
#include "../../src/ctld/job_state.c"
#include "../../src/ctld/job_rec.c"
#include "../../src/ctld/job_depend.c"
#include "../../src/ctld/job_res.c"
#include "../../src/ctld/job_array.c"
#include "../../src/ctld/stats.c"
#include "../../src/ctld/user_groups.c"
#include "../../src/ctld/job_view_fill.c"
#include "../../src/ctld/priority.c"
#include "../../src/ctld/site_factor.c"
#include "../../src/ctld/bf_map.c"
#include "../../src/ctld/bf_lic.c"
#include "../../src/ctld/lic_mgr.c"
#include "../../src/ctld/backfill.c"
#include "../../src/ctld/sched_plugin.c"
#include "../../src/ctld/select_plugin.c"
#include "../../src/ctld/topo.c"
#include "../../src/ctld/topo_mgr.c"
#include "../../src/ctld/sched_params.c"
#include "../../src/ctld/job_ops.c"
#include "../../src/ctld/job_mail.c"
#include "../../src/ctld/preempt.c"
#include "../../src/ctld/gang_slice.c"
#include "../../src/ctld/gang.c"
#include "../../src/ctld/job_ckpt.c"
#include "../../src/ctld/job_ckpt_criu.c"
#include "../../src/ctld/sched.c"
#include "../../src/ctld/het_job.c"
#include "../../src/ctld/job_notify.c"
#include "../../src/ctld/step_mgr.c"
#include "../../src/ctld/step_create.c"
#include "../../src/ctld/step_rec.c"
#include "../../src/ctld/step_gres.c"
#include "../../src/ctld/resv_ports.c"
#include "../../src/ctld/assoc_mgr.c"
#include "../../src/ctld/assoc_limits.c"
#include "../../src/ctld/assoc_mgr_res.c"
#include "../../src/ctld/assoc_mgr_wckey.c"
#include "../../src/ctld/resv_mgr.c"
#include "../../src/ctld/resv_rpc.c"
#include "../../src/ctld/trigger.c"
#include "../../src/ctld/trigger_rpc.c"
#include "../../src/ctld/crontab.c"

#include "ctld_stubs.h"

/* Site plugins and scripts: none configured. */
int job_submit_plugin_submit(job_desc_t *d, uint32_t uid, uint16_t v,
			     char **m)
{
	(void) d; (void) uid; (void) v; (void) m;
	return 0;
}
void jobcomp_job_end(const job_info_t *j) { (void) j; }
bool job_prolog_start(job_record_t *j, void (*l)(job_record_t *))
{
	(void) j; (void) l;
	return false;
}
void job_epilog_start(const job_record_t *j) { (void) j; }
/* PrologFlags=Alloc (job_nprolog.c): not configured. */
bool job_nprolog_start(job_record_t *j, void (*c)(job_record_t *))
{
	(void) j; (void) c;
	return false;
}
bool job_nprolog_running(const job_record_t *j)
{
	(void) j;
	return false;
}
void job_nprolog_recover(void) { }
void job_prolog_recover(void (*l)(job_record_t *)) { (void) l; }
void job_prolog_node_failed(job_record_t *j, const char *node)
{
	(void) node;
	job_mgr_end(j, JOB_FAILED, FAIL_LAUNCH, 0);
}
bool job_prolog_requeue_held(job_record_t *j)
{
	(void) j;
	return false;
}

/* Privileges (rpc.c): root is the cluster's own, everyone else a user. */
rpc_priv_t rpc_privilege(uid_t uid)
{
	return uid == 0 ? RPC_PRIV_SLURM : RPC_PRIV_USER;
}

/* PrivateData (rpc.c's table): unset in this world, everyone sees all. */
rpc_viewer_t rpc_viewer(const slurm_msg_t *m)
{
	return (rpc_viewer_t){ .uid = m->auth_uid };
}
bool rpc_hides_job(const rpc_viewer_t *v, const job_record_t *j)
{
	return v->hide && j->info.user_id != v->uid;
}

/* Fair-share usage (GrpTRESMins, GrpWall): what a test puts here, for
 * every association id / QOS id. */
#ifndef CTLD_WORLD_REAL_FAIRSHARE   /* fuzz_fairshare_state has the real one */
double world_fs_cpu_secs, world_fs_wall_secs;
void fairshare_usage(uint32_t id, bool qos, time_t now, double *cpu_secs,
		     double *wall_secs)
{
	(void) id; (void) qos; (void) now;
	*cpu_secs = world_fs_cpu_secs;
	*wall_secs = world_fs_wall_secs;
}

/* A test that changes the usage above within a second bumps this. */
uint64_t world_fs_version;
uint64_t fairshare_usage_version(void)
{
	return world_fs_version;
}
#endif

/* Accounting: off. */
void acct_job_changed(job_record_t *j) { (void) j; }
bool acct_outbox_sync_wanted(void) { return false; }
void acct_outbox_sync(void) { }
void acct_job_script(const job_record_t *j, const char *script,
		     char *const *env) { (void) j; (void) script; (void) env; }
void acct_job_batch_started(job_record_t *j) { (void) j; }
uint32_t acct_queue_depth(void) { return 0; }
void acct_send_stats(acct_send_stats_t *out) { memset(out, 0, sizeof(*out)); }
bool acct_enabled(void) { return false; }
void acct_outbox_append(uint16_t kind, const void *rec)
{
	(void) kind; (void) rec;
}
void acct_outbox_want_sync(void) { }
void acct_record(uint16_t kind, const void *rec)
{
	(void) kind; (void) rec;
}
bool acct_storage_dbd_assocs(void) { return false; }
void acct_node_reason(node_record_t *n, const char *old_reason,
		      time_t old_time)
{
	(void) n; (void) old_reason; (void) old_time;
}

/* ---- a world to test in ---- */

/* Bring the controller's tables up in a new directory made from dir (a
 * mkdtemp template, rewritten): slurm.conf is conf_text after the
 * cluster's name (t), its controller and StateSaveLocation=dir/state;
 * sched also starts the scheduler plugin (backfill's parameters).  Every
 * node registers with 2 CPUs (2 sockets of 1 core), or its CPUs= when
 * that is more, and 1000 MB.  0, or
 * -1 with the error on stderr. */
static inline int world_up(char *dir, const char *conf_text, bool sched)
{
	char path[256], err[512];
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f, "ClusterName=t\nSlurmctldHost=localhost\n"
		"StateSaveLocation=%s/state\n%s", dir, conf_text);
	fclose(f);
	if (!(conf = conf_load(path, err, sizeof(err))) ||
	    state_save_init(conf->state_save_location, "t", err, sizeof(err)))
		goto fail;
	node_mgr_init(conf);
	if (part_mgr_init(conf, err, sizeof(err)) < 0 ||
	    lic_mgr_init(conf, err, sizeof(err)) < 0)
		goto fail;
	job_mgr_init();
	if (sched)
		sched_init(NULL);
	for (size_t i = 0; i < node_mgr_count(); i++) {
		node_registration_msg_t r = { .cpus = 2, .sockets = 2,
					      .cores = 1, .threads = 1,
					      .real_memory = 1000 };
		slurm_msg_t m = { .data = &r };

		const node_record_t *n = node_mgr_at(i);

		if (n->cfg_cpus > 2) {     /* larger nodes as configured */
			r.cpus = n->cfg_cpus;
			r.sockets = n->cfg_sockets ? n->cfg_sockets :
				n->cfg_cpus;
			r.cores = n->cfg_cores ? n->cfg_cores : 1;
			r.threads = n->cfg_threads ? n->cfg_threads : 1;
		}
		r.node_name = n->info.name;
		node_mgr_rpc_register(NULL, &m);
	}
	return 0;
fail:
	fprintf(stderr, "%s\n", err);
	return -1;
}

/* Tear down what world_up built, and its directory. */
static inline int world_down(const char *dir)
{
	char cmd[300];

	resv_mgr_fini();
	job_mgr_fini();
	lic_mgr_fini();
	part_mgr_fini();
	node_mgr_fini();
	conf_destroy(conf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
