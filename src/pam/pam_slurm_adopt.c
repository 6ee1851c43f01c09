/* pam_slurm_adopt.c — PAM account module: let a user onto a node only
 * while they have a job there, and put the session's process into that
 * job's extern step (PrologFlags=Contain), as Slurm's pam_slurm_adopt.
 *
 *     account  required  pam_slurm_adopt.so [options]
 *
 * The calling process (sshd's session process) is adopted into the
 * user's job on this node: the only one, or with several the newest
 * (the extern step started last: Slurm's action_unknown=newest).  With
 * no job the login is refused with Slurm's message.  The request goes to
 * the job's extern slurmstepd over <SlurmdSpoolDir>/<node>_<job>.4294967292
 * (REQUEST_ADD_EXTERN_PID, authenticated with the cluster's AuthType).
 *
 * Options (Slurm's names): action_no_jobs=deny|ignore (deny),
 * action_adopt_failure=allow|deny (allow), action_generic_failure=
 * ignore|allow|deny (ignore), nodename=NAME (which NodeName this host
 * is, for hosts running several slurmd), join_container=true|false
 * (true: with JobContainerType=job_container/tmpfs the process also
 * enters the job's mount namespace, so the login sees the job's /tmp),
 * log_level=... (accepted).
 * slurm.conf: $SLURM_CONF or the compiled-in default.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

#define PAM_SM_ACCOUNT
#include <security/pam_ext.h>
#include <security/pam_modules.h>

#include "common/auth.h"
#include "common/conf.h"
#include "common/fixed_plugins.h"
#include "common/job_container_conf.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

#define ADOPT_RPC_TIMEOUT_MS 5000
#define EXTERN_SUFFIX ".4294967292"   /* SLURM_EXTERN_CONT */

typedef enum { ACT_DENY, ACT_ALLOW, ACT_IGNORE } action_t;

typedef struct {
	action_t    no_jobs;
	action_t    adopt_failure;
	action_t    generic_failure;
	const char *node_name;
	bool        join_container;
} opts_t;

typedef struct {
	uint32_t job_id;
	time_t   mtime;
	char    *path;
} cand_t;

static action_t _action(const char *v, action_t dflt)
{
	if (!strcmp(v, "deny"))
		return ACT_DENY;
	if (!strcmp(v, "allow"))
		return ACT_ALLOW;
	if (!strcmp(v, "ignore"))
		return ACT_IGNORE;
	return dflt;
}

static void _opts(pam_handle_t *pamh, int argc, const char **argv,
		  opts_t *o)
{
	*o = (opts_t) { ACT_DENY, ACT_ALLOW, ACT_IGNORE, NULL, true };
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');

		if (!eq) {
			if (strcmp(a, "disable_x11") && strcmp(a, "join_container"))
				pam_syslog(pamh, LOG_ERR, "unknown option %s", a);
			continue;
		}
		if (!strncmp(a, "action_no_jobs=", 15))
			o->no_jobs = _action(eq + 1, ACT_DENY);
		else if (!strncmp(a, "action_adopt_failure=", 21))
			o->adopt_failure = _action(eq + 1, ACT_ALLOW);
		else if (!strncmp(a, "action_generic_failure=", 23))
			o->generic_failure = _action(eq + 1, ACT_IGNORE);
		else if (!strncmp(a, "nodename=", 9))
			o->node_name = eq + 1;
		else if (!strncmp(a, "join_container=", 15))
			o->join_container = strcasecmp(eq + 1, "false") &&
					    strcasecmp(eq + 1, "no") &&
					    strcmp(eq + 1, "0");
		else if (strncmp(a, "log_level=", 10) &&
			 strncmp(a, "action_unknown=", 15) &&
			 strncmp(a, "disable_x11=", 12) &&
			 strncmp(a, "service=", 8))
			pam_syslog(pamh, LOG_ERR, "unknown option %s", a);
	}
}

static int _pam_rc(action_t a)
{
	return a == ACT_ALLOW ? PAM_SUCCESS :
	       a == ACT_IGNORE ? PAM_IGNORE : PAM_PERM_DENIED;
}

/* This host's NodeName: the option, else the node named like the host or
 * whose NodeHostname is the host. */
static const char *_node(const slurm_conf_t *c, const char *opt)
{
	char host[256] = "", *dot;

	if (opt)
		return conf_find_node(c, opt) ? opt : NULL;
	if (gethostname(host, sizeof(host) - 1) < 0)
		return NULL;
	if ((dot = strchr(host, '.')))
		*dot = '\0';
	if (conf_find_node(c, host))
		return conf_find_node(c, host)->name;
	for (size_t i = 0; i < c->node_cnt; i++)
		if (c->nodes[i].hostname &&
		    !strcmp(c->nodes[i].hostname, host))
			return c->nodes[i].name;
	return NULL;
}

static int _newest_first(const void *a, const void *b)
{
	const cand_t *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return x->job_id < y->job_id ? 1 : x->job_id > y->job_id ? -1 : 0;
}

/* Extern step sockets of node in spool, newest first. */
static cand_t *_candidates(const char *spool, const char *node, size_t *n)
{
	char *prefix = xstrdup_printf("%s_", node);
	size_t plen = strlen(prefix), slen = strlen(EXTERN_SUFFIX);
	cand_t *v = NULL;
	DIR *d = opendir(spool);
	struct dirent *de;

	*n = 0;
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		char *end, *path;
		unsigned long id;

		if (len <= plen + slen || strncmp(de->d_name, prefix, plen) ||
		    strcmp(de->d_name + len - slen, EXTERN_SUFFIX))
			continue;
		id = strtoul(de->d_name + plen, &end, 10);
		if (end != de->d_name + len - slen || !id)
			continue;
		path = xstrdup_printf("%s/%s", spool, de->d_name);
		if (stat(path, &st) < 0 || !S_ISSOCK(st.st_mode)) {
			xfree(path);
			continue;
		}
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = (cand_t) { (uint32_t) id, st.st_mtime, path };
	}
	if (d)
		closedir(d);
	xfree(prefix);
	if (*n)
		qsort(v, *n, sizeof(*v), _newest_first);
	return v;
}

/* REQUEST_ADD_EXTERN_PID: 0 adopted, ESLURM_ACCESS_DENIED not the
 * user's job, else another error. */
static int _adopt(const char *path, uint32_t job_id, uid_t uid)
{
	extern_pid_msg_t m = { .job_id = job_id, .pid = (uint32_t) getpid(),
			       .uid = (uint32_t) uid };
	slurm_msg_t resp = { 0 };
	int rc = net_rpc_unix(path, REQUEST_ADD_EXTERN_PID, &m, &resp,
			      ADOPT_RPC_TIMEOUT_MS);

	if (rc)
		return rc;
	rc = resp.type == RESPONSE_SLURM_RC && resp.data ?
	     ((return_code_msg_t *) resp.data)->rc : SLURM_UNEXPECTED_MSG_ERROR;
	msg_free(&resp);
	return rc;
}

/* job_container/tmpfs: enter the job's mount namespace (as its tasks
 * do), so the login sees the job's /tmp.  0 (also with the plugin off
 * here), or -1 (logged). */
static int _join(pam_handle_t *pamh, const slurm_conf_t *c,
		 const char *node, uint32_t job_id)
{
	char err[512] = "", *conf, *base, *ns;
	jc_conf_t jc;
	int fd, rc = 0;

	if (!fixed_job_container_tmpfs(c))
		return 0;
	conf = conf_sibling_path(c, "job_container.conf");
	rc = jc_conf_load(conf, node, &jc, err, sizeof(err));
	xfree(conf);
	if (rc < 0) {
		pam_syslog(pamh, LOG_ERR, "job_container/tmpfs: %s", err);
		return -1;
	}
	if (!jc_conf_active(&jc)) {
		jc_conf_free(&jc);
		return 0;
	}
	base = jc_conf_base_path(&jc, node);
	ns = xstrdup_printf("%s/%u/%s", base, job_id, JC_NS_FILE);
	if ((fd = open(ns, O_RDONLY | O_CLOEXEC)) < 0 ||
	    setns(fd, CLONE_NEWNS) < 0) {
		pam_syslog(pamh, LOG_ERR, "joining job %u's namespace %s: %m",
			   job_id, ns);
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	xfree(ns);
	xfree(base);
	jc_conf_free(&jc);
	return rc;
}

/* A stale socket (the stepd is gone), not a refusal. */
static bool _transport(int rc)
{
	return (rc > SLURM_UNEXPECTED_MSG_ERROR &&
		rc < ESLURM_INVALID_PARTITION_NAME) ||
	       (rc >= SLURM_PROTOCOL_SOCKET_IMPL_ZERO_RECV_LENGTH &&
		rc <= SLURM_PROTOCOL_SOCKET_ZERO_BYTES_SENT);
}

static int _run(pam_handle_t *pamh, const opts_t *o, uid_t uid,
		const char *user)
{
	const char *conf_path = getenv("SLURM_CONF");
	char err[1024] = "", *spool = NULL;
	slurm_conf_t *c;
	const char *node;
	cand_t *cands = NULL;
	size_t n = 0, i;
	bool had_job = false, joined = true;
	int rc = PAM_SUCCESS;

	if (!conf_path || !*conf_path)
		conf_path = SLUICE_SYSCONFDIR "/slurm.conf";
	if (!(c = conf_load(conf_path, err, sizeof(err)))) {
		pam_syslog(pamh, LOG_ERR, "%s: %s", conf_path, err);
		return _pam_rc(o->generic_failure);
	}
	if (!(node = _node(c, o->node_name))) {
		pam_syslog(pamh, LOG_ERR, "this host is no node of %s",
			   conf_path);
		rc = _pam_rc(o->generic_failure);
		goto out;
	}
	if (auth_init(c->auth_type, c->auth_info, c->plugin_dir) != 0) {
		pam_syslog(pamh, LOG_ERR, "cannot initialize %s",
			   c->auth_type ? c->auth_type : "auth");
		rc = _pam_rc(o->generic_failure);
		goto out;
	}
	spool = conf_expand_node_path(c->slurmd_spool_dir ?
				      c->slurmd_spool_dir :
				      "/var/spool/slurmd", node);
	cands = _candidates(spool, node, &n);
	for (i = 0; i < n; i++) {
		int r = _adopt(cands[i].path, cands[i].job_id, uid);

		if (!r) {
			pam_syslog(pamh, LOG_INFO,
				   "Process %d adopted into job %u",
				   (int) getpid(), cands[i].job_id);
			if (o->join_container &&
			    _join(pamh, c, node, cands[i].job_id) < 0)
				joined = false;
			break;
		}
		if (r != ESLURM_ACCESS_DENIED && r != ESLURM_INVALID_JOB_ID &&
		    r != ESLURM_ALREADY_DONE && !_transport(r)) {
			had_job = true;
			pam_syslog(pamh, LOG_ERR, "adopting into job %u: %s",
				   cands[i].job_id, slurm_strerror(r));
		}
	}
	if (i < n)
		rc = joined ? PAM_SUCCESS : _pam_rc(o->adopt_failure);
	else if (had_job)
		rc = _pam_rc(o->adopt_failure);
	else {
		if (o->no_jobs == ACT_DENY)
			pam_prompt(pamh, PAM_ERROR_MSG, NULL, "%s",
				   "Access denied by pam_slurm_adopt: you have no active jobs on this node");
		pam_syslog(pamh, LOG_INFO, "user %s has no job on node %s",
			   user, node);
		rc = _pam_rc(o->no_jobs);
	}
	for (i = 0; i < n; i++)
		xfree(cands[i].path);
	xfree(cands);
	auth_fini();
out:
	xfree(spool);
	conf_destroy(c);
	return rc;
}

PAM_EXTERN int pam_sm_acct_mgmt(pam_handle_t *pamh, int flags, int argc,
				const char **argv)
{
	const char *user = NULL;
	struct passwd *pw;
	opts_t o;

	(void) flags;
	_opts(pamh, argc, argv, &o);
	if (pam_get_item(pamh, PAM_USER, (const void **) &user) != PAM_SUCCESS ||
	    !user || !*user) {
		pam_syslog(pamh, LOG_ERR, "no user");
		return PAM_USER_UNKNOWN;
	}
	if (!(pw = getpwnam(user))) {
		pam_syslog(pamh, LOG_ERR, "user %s unknown", user);
		return PAM_USER_UNKNOWN;
	}
	if (pw->pw_uid == 0)
		return PAM_IGNORE;          /* root: not this module's business */
	/* pw is getpwnam's static buffer: conf_load may look users up */
	return _run(pamh, &o, pw->pw_uid, user);
}
