/* step_pmix.c — the step's PMIx server (step_pmix.h). */
#define _GNU_SOURCE
#include "slurmd/stepd/step_pmix.h"

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#ifndef HAVE_PMIX

step_pmix_t *step_pmix_create(step_t *st)
{
	error("StepId=%u.%u: --mpi=pmix: slurmstepd was built without PMIx",
	      st->m->job_id, st->m->step_id);
	return NULL;
}

char **step_pmix_task_env(step_pmix_t *x, const step_task_t *t)
{
	(void) x; (void) t;
	return NULL;
}

void step_pmix_fence_out(step_pmix_t *x, const char *data, size_t len)
{
	(void) x; (void) data; (void) len;
}

void step_pmix_destroy(step_pmix_t *x)
{
	(void) x;
}

#else

#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <ftw.h>
#include <pmix.h>
#include <pmix_server.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/hostlist.h"
#include "common/io_frame.h"
#include "slurmd/stepd/lazy_lib.h"
#include "slurmd/stepd/step_acct.h"

/* libpmix is opened by the first --mpi=pmix step (lazy_lib.h); the
 * calls below go through these pointers. */
#define PX_FUNCS(X) X(PMIx_Data_array_destruct) X(PMIx_Error_string)      \
	X(PMIx_Info_load) X(PMIx_Value_destruct) X(PMIx_generate_ppn)      \
	X(PMIx_generate_regex) X(PMIx_server_deregister_nspace)            \
	X(PMIx_server_finalize) X(PMIx_server_init)                        \
	X(PMIx_server_register_client) X(PMIx_server_register_nspace)      \
	X(PMIx_server_setup_fork)
#define PX_PTR(f) static __typeof__(&f) px_##f;
#define PX_SYM(f) { #f, (void **) &px_##f },
PX_FUNCS(PX_PTR)
static const lazy_sym_t px_syms[] = { PX_FUNCS(PX_SYM) { NULL, NULL } };
static lazy_lib_t px_lib = { "mpi/pmix", SLUICE_PMIX_LIBRARY, px_syms, 0 };
#define PMIx_Data_array_destruct px_PMIx_Data_array_destruct
#define PMIx_Error_string px_PMIx_Error_string
#define PMIx_Info_load px_PMIx_Info_load
#define PMIx_Value_destruct px_PMIx_Value_destruct
#define PMIx_generate_ppn px_PMIx_generate_ppn
#define PMIx_generate_regex px_PMIx_generate_regex
#define PMIx_server_deregister_nspace px_PMIx_server_deregister_nspace
#define PMIx_server_finalize px_PMIx_server_finalize
#define PMIx_server_init px_PMIx_server_init
#define PMIx_server_register_client px_PMIx_server_register_client
#define PMIx_server_register_nspace px_PMIx_server_register_nspace
#define PMIx_server_setup_fork px_PMIx_server_setup_fork

typedef struct {
	pmix_modex_cbfunc_t cb;
	void               *cbdata;
	char               *data;
	size_t              len;
} px_fence_t;

struct step_pmix {
	step_t          *st;
	char             nspace[PMIX_MAX_NSLEN + 1];
	char            *tmpdir;
	uint32_t         nnodes;
	uint32_t        *task_node;   /* node index of every rank */
	char           **node_names;
	pthread_mutex_t  lock;
	int              wake[2];     /* PMIx thread -> loop */
	struct event    *wake_ev;
	px_fence_t      *posted;      /* from the PMIx thread, not yet sent */
	px_fence_t      *inflight;    /* sent to srun */
	bool             abort;
};

static step_pmix_t *the_server;   /* PMIx callbacks carry no context */

/* ---- the layout from PMI_process_mapping ---- */

/* "(vector,(start,count,ppn),...)": ranks go, per triple, ppn at a time
 * to nodes start..start+count-1; the vector repeats until all are
 * placed. */
static int _layout(step_pmix_t *x, const char *map, uint32_t ntasks,
		   uint32_t nnodes)
{
	uint32_t trip[64][3], nt = 0, rank = 0;
	const char *p = map ? strstr(map, "vector") : NULL;

	while (p && (p = strchr(p, '(')) && nt < 64) {
		unsigned a, b, c;

		if (sscanf(p, "(%u,%u,%u)", &a, &b, &c) != 3)
			return -1;
		trip[nt][0] = a;
		trip[nt][1] = b;
		trip[nt][2] = c;
		nt++;
		p++;
	}
	if (!nt)
		return -1;
	x->task_node = xcalloc(ntasks + 1, sizeof(uint32_t));
	while (rank < ntasks) {
		uint32_t before = rank;

		for (uint32_t i = 0; i < nt && rank < ntasks; i++)
			for (uint32_t n = 0; n < trip[i][1]; n++)
				for (uint32_t k = 0; k < trip[i][2] &&
				     rank < ntasks; k++) {
					if (trip[i][0] + n >= nnodes)
						return -1;
					x->task_node[rank++] = trip[i][0] + n;
				}
		if (rank == before)
			return -1;
	}
	return 0;
}

/* ---- PMIx thread -> loop ---- */

static void _poke(step_pmix_t *x)
{
	char c = 1;

	if (write(x->wake[1], &c, 1) < 0 && errno != EAGAIN)
		error("PMIx: wake pipe: %m");
}

static void _on_wake(evutil_socket_t fd, short what, void *arg)
{
	step_pmix_t *x = arg;
	px_fence_t *f;
	bool abort_now;
	char buf[64];

	while (read(fd, buf, sizeof(buf)) > 0)
		;
	pthread_mutex_lock(&x->lock);
	f = x->posted;
	x->posted = NULL;
	if (f)
		x->inflight = f;
	abort_now = x->abort;
	x->abort = false;
	pthread_mutex_unlock(&x->lock);
	if (f) {
		step_send(x->st, IO_PMI_FENCE, x->st->m->node_id, f->data,
			  f->len);
		xfree(f->data);
	}
	if (abort_now)
		step_tasks_signal(x->st, SIGKILL);
}

/* ---- server callbacks (PMIx thread) ---- */

static pmix_status_t _connected(const pmix_proc_t *proc, void *obj,
				pmix_op_cbfunc_t cb, void *cbdata)
{
	return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t _finalized(const pmix_proc_t *proc, void *obj,
				pmix_op_cbfunc_t cb, void *cbdata)
{
	return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t _abort(const pmix_proc_t *proc, void *obj, int status,
			    const char msg[], pmix_proc_t procs[],
			    size_t nprocs, pmix_op_cbfunc_t cb, void *cbdata)
{
	step_pmix_t *x = the_server;

	error("PMIx: rank %u called abort (status %d)%s%s", proc->rank,
	      status, msg ? ": " : "", msg ? msg : "");
	pthread_mutex_lock(&x->lock);
	x->abort = true;
	pthread_mutex_unlock(&x->lock);
	_poke(x);
	return PMIX_OPERATION_SUCCEEDED;
}

static pmix_status_t _fence(const pmix_proc_t procs[], size_t nprocs,
			    const pmix_info_t info[], size_t ninfo,
			    char *data, size_t ndata,
			    pmix_modex_cbfunc_t cb, void *cbdata)
{
	step_pmix_t *x = the_server;
	px_fence_t *f = xmalloc(sizeof(*f));

	f->cb = cb;
	f->cbdata = cbdata;
	f->len = ndata;
	f->data = xmalloc(ndata + 1);
	if (ndata)
		memcpy(f->data, data, ndata);
	pthread_mutex_lock(&x->lock);
	if (x->posted || x->inflight) {
		pthread_mutex_unlock(&x->lock);
		error("PMIx: a second fence while one is open");
		xfree(f->data);
		xfree(f);
		return PMIX_ERR_NOT_SUPPORTED;
	}
	x->posted = f;
	pthread_mutex_unlock(&x->lock);
	_poke(x);
	return PMIX_SUCCESS;
}

static pmix_status_t _dmodex(const pmix_proc_t *proc,
			     const pmix_info_t info[], size_t ninfo,
			     pmix_modex_cbfunc_t cb, void *cbdata)
{
	return PMIX_ERR_NOT_SUPPORTED;
}

static pmix_server_module_t px_module = {
	.client_connected = _connected,
	.client_finalized = _finalized,
	.abort = _abort,
	.fence_nb = _fence,
	.direct_modex = _dmodex,
};

/* ---- registration ---- */

typedef struct {
	pthread_mutex_t lock;
	pthread_cond_t  cond;
	bool            done;
	pmix_status_t   status;
} px_wait_t;

static void _op_done(pmix_status_t status, void *cbdata)
{
	px_wait_t *w = cbdata;

	pthread_mutex_lock(&w->lock);
	w->status = status;
	w->done = true;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

static pmix_status_t _wait(px_wait_t *w)
{
	pthread_mutex_lock(&w->lock);
	while (!w->done)
		pthread_cond_wait(&w->cond, &w->lock);
	w->done = false;
	pthread_mutex_unlock(&w->lock);
	return w->status;
}

static void _info_str(pmix_info_t *i, const char *key, const char *v)
{
	PMIX_INFO_LOAD(i, key, v, PMIX_STRING);
}

static void _info_u32(pmix_info_t *i, const char *key, uint32_t v)
{
	PMIX_INFO_LOAD(i, key, &v, PMIX_UINT32);
}

static void _info_u16(pmix_info_t *i, const char *key, uint16_t v)
{
	PMIX_INFO_LOAD(i, key, &v, PMIX_UINT16);
}

static void _info_rank(pmix_info_t *i, const char *key, pmix_rank_t v)
{
	PMIX_INFO_LOAD(i, key, &v, PMIX_PROC_RANK);
}

/* Per-rank data: rank, local/node rank, node, host. */
static void _proc_data(step_pmix_t *x, pmix_info_t *out, uint32_t rank)
{
	uint32_t node = x->task_node[rank], lrank = 0;
	pmix_data_array_t *arr;
	pmix_info_t *i;
	size_t n = 0;

	for (uint32_t r = 0; r < rank; r++)
		if (x->task_node[r] == node)
			lrank++;
	PMIX_DATA_ARRAY_CREATE(arr, 8, PMIX_INFO);
	i = arr->array;
	_info_rank(&i[n++], PMIX_RANK, rank);
	_info_u32(&i[n++], PMIX_APPNUM, 0);
	_info_rank(&i[n++], PMIX_GLOBAL_RANK, rank);
	_info_rank(&i[n++], PMIX_APP_RANK, rank);
	_info_u16(&i[n++], PMIX_LOCAL_RANK, (uint16_t) lrank);
	_info_u16(&i[n++], PMIX_NODE_RANK, (uint16_t) lrank);
	_info_u32(&i[n++], PMIX_NODEID, node);
	_info_str(&i[n++], PMIX_HOSTNAME, x->node_names[node]);
	arr->size = n;
	PMIX_INFO_LOAD(out, PMIX_PROC_DATA, arr, PMIX_DATA_ARRAY);
	PMIX_DATA_ARRAY_FREE(arr);
}

static int _register(step_pmix_t *x)
{
	const launch_tasks_request_msg_t *m = x->st->m;
	uint32_t ntasks = m->num_tasks, me = m->node_id, lcnt = 0, ldr = 0;
	char *nodes = NULL, *ppn = NULL, *peers = NULL, *nregex = NULL,
	     *pregex = NULL, *jobid;
	px_wait_t w = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
	pmix_info_t *info;
	size_t n = 0, cap = 24 + ntasks;
	pmix_status_t rc;

	for (uint32_t k = 0; k < x->nnodes; k++) {
		xstrfmtcat(&nodes, "%s%s", k ? "," : "", x->node_names[k]);
		xstrcat(&ppn, k ? ";" : "");
		for (uint32_t r = 0, first = 1; r < ntasks; r++)
			if (x->task_node[r] == k) {
				xstrfmtcat(&ppn, "%s%u", first ? "" : ",", r);
				first = 0;
			}
	}
	for (uint32_t r = 0; r < ntasks; r++)
		if (x->task_node[r] == me) {
			if (!lcnt++)
				ldr = r;
			xstrfmtcat(&peers, "%s%u", lcnt > 1 ? "," : "", r);
		}
	if (PMIx_generate_regex(nodes, &nregex) != PMIX_SUCCESS ||
	    PMIx_generate_ppn(ppn, &pregex) != PMIX_SUCCESS) {
		error("PMIx: cannot describe the layout");
		xfree(nodes);
		xfree(ppn);
		xfree(peers);
		return -1;
	}
	jobid = xstrdup_printf("%u.%u", m->job_id, m->step_id);
	PMIX_INFO_CREATE(info, cap);
	_info_u32(&info[n++], PMIX_UNIV_SIZE, ntasks);
	_info_u32(&info[n++], PMIX_JOB_SIZE, ntasks);
	_info_u32(&info[n++], PMIX_MAX_PROCS, ntasks);
	_info_str(&info[n++], PMIX_JOBID, jobid);
	_info_u32(&info[n++], PMIX_APPNUM, 0);
	_info_str(&info[n++], PMIX_NODE_MAP, nregex);
	_info_str(&info[n++], PMIX_PROC_MAP, pregex);
	_info_u32(&info[n++], PMIX_NUM_NODES, x->nnodes);
	_info_u32(&info[n++], PMIX_LOCAL_SIZE, lcnt);
	_info_u32(&info[n++], PMIX_NODE_SIZE, lcnt);
	_info_str(&info[n++], PMIX_LOCAL_PEERS, peers ? peers : "");
	_info_rank(&info[n++], PMIX_LOCALLDR, ldr);
	_info_str(&info[n++], PMIX_HOSTNAME, x->st->node_name);
	_info_u32(&info[n++], PMIX_NODEID, me);
	_info_str(&info[n++], PMIX_TMPDIR, x->tmpdir);
	_info_str(&info[n++], PMIX_NSDIR, x->tmpdir);
	for (uint32_t r = 0; r < ntasks && n < cap; r++)
		_proc_data(x, &info[n++], r);
	rc = PMIx_server_register_nspace(x->nspace, (int) lcnt, info, n,
					 _op_done, &w);
	if (rc == PMIX_SUCCESS)
		rc = _wait(&w);
	else if (rc == PMIX_OPERATION_SUCCEEDED)
		rc = PMIX_SUCCESS;
	PMIX_INFO_FREE(info, cap);
	free(nregex);
	free(pregex);
	xfree(nodes);
	xfree(ppn);
	xfree(peers);
	xfree(jobid);
	if (rc != PMIX_SUCCESS) {
		error("PMIx: register_nspace: %s", PMIx_Error_string(rc));
		return -1;
	}
	for (uint32_t k = 0; k < x->st->ntasks; k++) {
		pmix_proc_t proc;

		PMIX_PROC_LOAD(&proc, x->nspace, x->st->tasks[k].gtid);
		rc = PMIx_server_register_client(&proc, m->uid, m->gid, NULL,
						 _op_done, &w);
		if (rc == PMIX_SUCCESS)
			rc = _wait(&w);
		else if (rc == PMIX_OPERATION_SUCCEEDED)
			rc = PMIX_SUCCESS;
		if (rc != PMIX_SUCCESS) {
			error("PMIx: register_client: %s",
			      PMIx_Error_string(rc));
			return -1;
		}
	}
	return 0;
}

static int _names(step_pmix_t *x)
{
	char err[256];
	hostlist_t *hl = hostlist_parse(x->st->m->node_list, err, sizeof(err));

	if (!hl)
		return -1;
	x->nnodes = (uint32_t) hostlist_count(hl);
	x->node_names = xcalloc(x->nnodes + 1, sizeof(char *));
	for (uint32_t k = 0; k < x->nnodes; k++)
		x->node_names[k] = xstrdup(hostlist_nth(hl, k));
	hostlist_destroy(hl);
	return x->st->m->node_id < x->nnodes ? 0 : -1;
}

static int _server_init(step_pmix_t *x)
{
	const launch_tasks_request_msg_t *m = x->st->m;
	const char *base = x->st->conf->tmp_fs ? x->st->conf->tmp_fs : "/tmp";
	uint32_t uid = m->uid, gid = m->gid;
	pmix_info_t *info;
	pmix_status_t rc;
	bool off = false;

	x->tmpdir = xstrdup_printf("%s/sluice-pmix.%s.%u.%u", base,
				   x->st->node_name, m->job_id, m->step_id);
	if (mkdir(x->tmpdir, 0700) < 0 && errno != EEXIST) {
		error("PMIx: mkdir %s: %m", x->tmpdir);
		return -1;
	}
	if (getuid() == 0 && chown(x->tmpdir, uid, gid) < 0) {
		error("PMIx: chown %s: %m", x->tmpdir);
		return -1;
	}
	/* the plain hash store: no shared-memory segments to clean up */
	setenv("PMIX_MCA_gds", "hash", 1);
	PMIX_INFO_CREATE(info, 5);
	_info_str(&info[0], PMIX_SERVER_TMPDIR, x->tmpdir);
	_info_u32(&info[1], PMIX_USERID, uid);
	_info_u32(&info[2], PMIX_GRPID, gid);
	PMIX_INFO_LOAD(&info[3], PMIX_SERVER_TOOL_SUPPORT, &off, PMIX_BOOL);
	PMIX_INFO_LOAD(&info[4], PMIX_SERVER_SYSTEM_SUPPORT, &off, PMIX_BOOL);
	rc = PMIx_server_init(&px_module, info, 5);
	PMIX_INFO_FREE(info, 5);
	if (rc != PMIX_SUCCESS) {
		error("PMIx: server_init: %s", PMIx_Error_string(rc));
		return -1;
	}
	return 0;
}

step_pmix_t *step_pmix_create(step_t *st)
{
	step_pmix_t *x;

	if (lazy_lib_load(&px_lib) < 0)
		return NULL;
	x = xmalloc(sizeof(*x));

	x->st = st;
	x->wake[0] = x->wake[1] = -1;
	pthread_mutex_init(&x->lock, NULL);
	snprintf(x->nspace, sizeof(x->nspace), "slurm.pmix.%u.%u",
		 st->m->job_id, st->m->step_id);
	the_server = x;
	if (_names(x) < 0 ||
	    _layout(x, st->m->pmi_mapping, st->m->num_tasks, x->nnodes) < 0) {
		error("StepId=%u.%u: PMIx: bad task layout",
		      st->m->job_id, st->m->step_id);
		step_pmix_destroy(x);
		return NULL;
	}
	if (pipe2(x->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		step_pmix_destroy(x);
		return NULL;
	}
	x->wake_ev = event_new(st->base, x->wake[0], EV_READ | EV_PERSIST,
			       _on_wake, x);
	event_add(x->wake_ev, NULL);
	if (_server_init(x) < 0) {
		rmdir(x->tmpdir);
		xfree(x->tmpdir);   /* no server to finalize */
		step_pmix_destroy(x);
		return NULL;
	}
	if (_register(x) < 0) {
		step_pmix_destroy(x);
		return NULL;
	}
	debug("StepId=%u.%u: PMIx server for %s in %s", st->m->job_id,
	      st->m->step_id, x->nspace, x->tmpdir);
	return x;
}

char **step_pmix_task_env(step_pmix_t *x, const step_task_t *t)
{
	pmix_proc_t proc;
	char **env = calloc(1, sizeof(char *)), **out;

	PMIX_PROC_LOAD(&proc, x->nspace, t->gtid);
	if (!env || PMIx_server_setup_fork(&proc, &env) != PMIX_SUCCESS) {
		error("PMIx: setup_fork for rank %u failed", t->gtid);
		if (env)
			for (char **e = env; *e; e++)
				free(*e);
		free(env);
		return NULL;
	}
	out = xstrarray_dup(env);
	for (char **e = env; *e; e++)
		free(*e);
	free(env);
	out = xstrarray_append(out, "PMIX_MCA_gds=hash");
	return out;
}

static void _release(void *cbdata)
{
	xfree(cbdata);
}

void step_pmix_fence_out(step_pmix_t *x, const char *data, size_t len)
{
	px_fence_t *f;
	char *copy;

	pthread_mutex_lock(&x->lock);
	f = x->inflight;
	x->inflight = NULL;
	pthread_mutex_unlock(&x->lock);
	if (!f)
		return;
	copy = xmalloc(len + 1);
	if (len)
		memcpy(copy, data, len);
	f->cb(PMIX_SUCCESS, copy, len, f->cbdata, _release, copy);
	xfree(f);
}

static int _rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	(void) sb; (void) flag; (void) ftw;
	remove(path);
	return 0;
}

/* What the PMIx server left in its directory, and the directory. */
static void _rmtree(const char *dir)
{
	if (dir && strstr(dir, "/sluice-pmix."))
		nftw(dir, _rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void step_pmix_destroy(step_pmix_t *x)
{
	if (!x)
		return;
	if (x->tmpdir) {
		PMIx_server_deregister_nspace(x->nspace, NULL, NULL);
		PMIx_server_finalize();
		_rmtree(x->tmpdir);
	}
	if (x->wake_ev)
		event_free(x->wake_ev);
	if (x->wake[0] >= 0)
		close(x->wake[0]);
	if (x->wake[1] >= 0)
		close(x->wake[1]);
	if (x->posted)
		xfree(x->posted->data);
	xfree(x->posted);
	xfree(x->inflight);
	xfree(x->task_node);
	xstrarray_free(x->node_names);
	xfree(x->tmpdir);
	if (the_server == x)
		the_server = NULL;
	xfree(x);
}

#endif
