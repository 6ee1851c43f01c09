/* ha.c — backup controllers: our SlurmctldHost entry, the lease, standby
 * mode and the hand-over requests (see ha.h).
 */
#define _GNU_SOURCE                 /* F_OFD_SETLK */
#include "ctld/ha.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event2/event.h>

#include "common/comm_params.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/controller.h"
#include "slurm/slurm_errno.h"

#define LEASE_FILE "ctld_lease"

static struct {
	const slurm_conf_t *conf;
	int       index;
	bool      standby_start;
	bool      reexeced;
	char      lease_path[PATH_MAX];
	int       lease_fd;
	uint32_t  epoch;
	time_t    control_time;
	bool      relinquish;
} ha = { .lease_fd = -1 };

#define LEASE_FD_ENV "SLUICE_CTLD_LEASE_FD"

static uint32_t _read_epoch(int fd);
static void _adopt_lease(void);

/* ---- who we are ---- */

static bool _name_is(const char *entry, const char *name)
{
	return entry && name && !strcasecmp(entry, name);
}

static int _find_self(const slurm_conf_t *c, char *err, size_t errlen)
{
	const char *want = getenv("SLUICE_CTLD_HOST");
	char full[256] = "", shortn[256], *dot;

	if (want && *want) {
		for (size_t i = 0; i < c->ctld_host_cnt; i++)
			if (_name_is(c->ctld_hosts[i], want))
				return (int) i;
		snprintf(err, errlen, "SLUICE_CTLD_HOST=%s is not a "
			 "SlurmctldHost in %s", want, c->path ? c->path : "slurm.conf");
		return -1;
	}
	if (c->ctld_host_cnt <= 1)
		return 0;
	if (gethostname(full, sizeof(full)) < 0)
		full[0] = '\0';
	full[sizeof(full) - 1] = '\0';
	snprintf(shortn, sizeof(shortn), "%s", full);
	if ((dot = strchr(shortn, '.')))
		*dot = '\0';
	for (size_t i = 0; i < c->ctld_host_cnt; i++)
		if (_name_is(c->ctld_hosts[i], shortn) ||
		    _name_is(c->ctld_hosts[i], full))
			return (int) i;
	snprintf(err, errlen, "This host (%s/%s) not a valid controller",
		 shortn, full);
	return -1;
}

int ha_init(const slurm_conf_t *c, char *err, size_t errlen)
{
	const char *sb = getenv("SLUICE_CTLD_STANDBY");

	ha.conf = c;
	if (!c->ctld_host_cnt) {
		snprintf(err, errlen, "No SlurmctldHost in %s",
			 c->path ? c->path : "slurm.conf");
		return -1;
	}
	ha.index = _find_self(c, err, errlen);
	if (ha.index < 0)
		return -1;
	ha.reexeced = sb && !strcmp(sb, "1");
	unsetenv("SLUICE_CTLD_STANDBY");
	ha.standby_start = ha.index > 0 || ha.reexeced;
	snprintf(ha.lease_path, sizeof(ha.lease_path), "%s/%s",
		 c->state_save_location ? c->state_save_location : ".",
		 LEASE_FILE);
	_adopt_lease();
	return 0;
}

/* Restarted from disk (ha_restart_keep_lease): the lease fd, and its
 * lock, came with us; we are the controller, as before. */
static void _adopt_lease(void)
{
	const char *v = getenv(LEASE_FD_ENV);
	char *end = NULL;
	long fd = v ? strtol(v, &end, 10) : -1;

	unsetenv(LEASE_FD_ENV);
	if (!v || !end || *end || fd < 0 || fcntl((int) fd, F_GETFD) < 0)
		return;
	fcntl((int) fd, F_SETFD, FD_CLOEXEC);
	ha.lease_fd = (int) fd;
	ha.epoch = _read_epoch(ha.lease_fd);
	ha.reexeced = true;             /* already detached */
	ha.standby_start = false;
	info("Controller lease %s kept across the restart (epoch %u)",
	     ha.lease_path, ha.epoch);
}

int ha_restart_keep_lease(void)
{
	char v[16];

	if (ha.lease_fd < 0 || fcntl(ha.lease_fd, F_SETFD, 0) < 0)
		return -1;
	snprintf(v, sizeof(v), "%d", ha.lease_fd);
	return setenv(LEASE_FD_ENV, v, 1);
}

int ha_index(void)
{
	return ha.index;
}

const char *ha_name(void)
{
	return ha.conf ? ha.conf->ctld_hosts[ha.index] : "";
}

const char *ha_listen_addr(void)
{
	comm_params_t p;
	char err[256];

	if (!ha.conf)
		return NULL;
	if (ha.conf->ctld_host_cnt <= 1 &&
	    (comm_params_parse(ha.conf->comm_params, &p, err,
			       sizeof(err)) < 0 || !p.no_ctld_in_addr_any))
		return NULL;      /* one controller: any address, as Slurm */
	return ha.conf->ctld_addrs[ha.index];
}

bool ha_start_standby(void)
{
	return ha.standby_start;
}

bool ha_reexeced(void)
{
	return ha.reexeced;
}

/* ---- the lease ---- */

static uint32_t _read_epoch(int fd)
{
	char buf[256];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	const char *p;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "epoch=");
	return p ? (uint32_t) strtoul(p + 6, NULL, 10) : 0;
}

int ha_lease_try(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char line[512];
	int fd, len, rc;

	if (ha.lease_fd >= 0)
		return 1;
	if (ha.conf->state_save_location &&
	    mkdir(ha.conf->state_save_location, 0755) < 0 && errno != EEXIST)
		debug("mkdir %s: %s", ha.conf->state_save_location,
		      strerror(errno));
	fd = open(ha.lease_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) {
		error("Unable to open the controller lease %s: %s",
		      ha.lease_path, strerror(errno));
		return -1;
	}
	/* an open-file-description lock: not dropped when some other fd of
	 * this file is closed, and it conflicts within one process too */
	rc = fcntl(fd, F_OFD_SETLK, &fl);
	if (rc < 0 && errno == EINVAL)
		rc = fcntl(fd, F_SETLK, &fl);        /* kernel before 3.15 */
	if (rc < 0) {
		int e = errno;

		close(fd);
		if (e == EACCES || e == EAGAIN)
			return 0;
		error("Unable to lock the controller lease %s: %s",
		      ha.lease_path, strerror(e));
		return -1;
	}
	ha.epoch = _read_epoch(fd) + 1;
	len = snprintf(line, sizeof(line), "epoch=%u index=%d host=%s "
		       "pid=%ld since=%ld\n", ha.epoch, ha.index, ha_name(),
		       (long) getpid(), (long) time(NULL));
	if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t) len, 0) != len ||
	    fdatasync(fd) < 0) {
		error("Unable to write the controller lease %s: %s",
		      ha.lease_path, strerror(errno));
		close(fd);
		return -1;
	}
	ha.lease_fd = fd;
	info("Controller lease %s taken: epoch %u (SlurmctldHost[%d] %s)",
	     ha.lease_path, ha.epoch, ha.index, ha_name());
	return 1;
}

bool ha_lease_check(void)
{
	uint32_t e;

	if (ha.lease_fd < 0)
		return false;
	e = _read_epoch(ha.lease_fd);
	return !e || e == ha.epoch;       /* unreadable: not proof of loss */
}

void ha_lease_release(void)
{
	if (ha.lease_fd < 0)
		return;
	close(ha.lease_fd);              /* drops the fcntl lock */
	ha.lease_fd = -1;
	info("Controller lease %s released (epoch %u)", ha.lease_path,
	     ha.epoch);
}

uint32_t ha_lease_epoch(void)
{
	return ha.lease_fd >= 0 ? ha.epoch : 0;
}

/* ---- standby ---- */

static struct {
	struct event_base *base;
	net_server_t      *srv;
	struct event      *tick;
	struct event      *sig[3];
	pthread_t          pinger;
	bool               pinger_on;
	pthread_mutex_t    lock;
	pthread_cond_t     cond;
	bool               stop;          /* pinger: leave */
	time_t             last_active;   /* another controller said "in control" */
	int                active_inx;
	bool               takeover;      /* REQUEST_TAKEOVER received */
	int                result;        /* 0 in control, 1 shut down */
	time_t             last_warn;
} sb;

static int _timeout_s(void)
{
	return ha.conf->message_timeout ? ha.conf->message_timeout : 10;
}

static int _ctld_timeout_s(void)
{
	return ha.conf->slurmctld_timeout ? ha.conf->slurmctld_timeout : 120;
}

/* Ask every other controller whether it is in control. */
static void *_pinger(void *arg)
{
	int ms = _ctld_timeout_s() / 2;

	if (ms > _timeout_s())
		ms = _timeout_s();
	ms = (ms < 1 ? 1 : ms) * 1000;
	pthread_mutex_lock(&sb.lock);
	while (!sb.stop) {
		pthread_mutex_unlock(&sb.lock);
		for (size_t i = 0; i < ha.conf->ctld_host_cnt; i++) {
			slurm_msg_t resp;
			const control_status_msg_t *st;

			if ((int) i == ha.index)
				continue;
			if (net_rpc(ha.conf->ctld_addrs[i],
				    ha.conf->slurmctld_port,
				    REQUEST_CONTROL_STATUS, NULL, &resp, ms))
				continue;
			st = resp.data;
			if (resp.type == RESPONSE_CONTROL_STATUS && st &&
			    st->control_time) {
				pthread_mutex_lock(&sb.lock);
				sb.last_active = time(NULL);
				sb.active_inx = (int) i;
				pthread_mutex_unlock(&sb.lock);
			}
			msg_free(&resp);
		}
		pthread_mutex_lock(&sb.lock);
		if (!sb.stop) {
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			pthread_cond_timedwait(&sb.cond, &sb.lock, &ts);
		}
	}
	pthread_mutex_unlock(&sb.lock);
	return NULL;
}

/* REQUEST_CONTROL to every other controller (the one in control saves its
 * state, lets go of the lease and becomes a standby). */
static void _ask_for_control(void)
{
	for (size_t i = 0; i < ha.conf->ctld_host_cnt; i++) {
		int rc = 0, err;

		if ((int) i == ha.index)
			continue;
		err = net_rpc_rc(ha.conf->ctld_addrs[i],
				 ha.conf->slurmctld_port, REQUEST_CONTROL,
				 NULL, &rc, _timeout_s() * 1000);
		if (err)
			info("REQUEST_CONTROL to %s: %s", ha.conf->ctld_hosts[i],
			     slurm_strerror(err));
		else
			info("REQUEST_CONTROL to %s: %s", ha.conf->ctld_hosts[i],
			     rc ? slurm_strerror(rc) : "relinquishing");
	}
}

/* After REQUEST_CONTROL: wait for the old controller to finish and drop
 * the lease. */
static int _wait_lease(int seconds)
{
	for (int i = 0; i < seconds * 10; i++) {
		int r = ha_lease_try();

		if (r)
			return r;
		usleep(100000);
	}
	return 0;
}

static void _standby_tick(evutil_socket_t fd, short what, void *arg)
{
	time_t now = time(NULL), last;
	bool takeover;
	int r, active;

	pthread_mutex_lock(&sb.lock);
	last = sb.last_active;
	active = sb.active_inx;
	takeover = sb.takeover;
	sb.takeover = false;
	pthread_mutex_unlock(&sb.lock);

	if (takeover) {
		info("Takeover requested: asking the controller in control "
		     "to relinquish");
		_ask_for_control();
		r = _wait_lease(2 * _timeout_s() + 5);
	} else if (now - last >= _ctld_timeout_s()) {
		r = ha_lease_try();
		if (r == 0 && now - sb.last_warn >= _ctld_timeout_s()) {
			sb.last_warn = now;
			error("No controller in control has answered for %ld s, "
			      "but another process holds the lease %s: not "
			      "taking over", (long) (now - last), ha.lease_path);
		}
	} else {
		return;
	}
	if (r == 1) {
		if (takeover)
			info("Taking over control (scontrol takeover)");
		else if (active >= 0)
			info("%s (SlurmctldHost[%d]) has not answered for %ld s "
			     "(SlurmctldTimeout=%d): taking over",
			     ha.conf->ctld_hosts[active], active,
			     (long) (now - last), _ctld_timeout_s());
		else
			info("No controller in control for %ld s "
			     "(SlurmctldTimeout=%d): taking over",
			     (long) (now - last), _ctld_timeout_s());
		sb.result = 0;
		event_base_loopbreak(sb.base);
	} else if (takeover) {
		error("Takeover failed: the lease %s is still held",
		      ha.lease_path);
	}
}

static void _standby_signal(evutil_socket_t sig, short what, void *arg)
{
	if (sig == SIGHUP) {
		info("Reconfigure signal (SIGHUP) ignored in standby mode");
		return;
	}
	info("Terminate signal (SIGINT or SIGTERM) received");
	sb.result = 1;
	event_base_loopbreak(sb.base);
}

static void _standby_rpc(net_conn_t *c, slurm_msg_t *m, void *arg)
{
	control_status_msg_t st = { .backup_inx = (uint16_t) ha.index };
	/* root or SlurmUser (no accounting roles in standby) */
	bool op = m->auth_uid == 0 || m->auth_uid == ha.conf->slurm_user_id;

	switch (m->type) {
	case REQUEST_PING:
		net_reply_rc(c, SLURM_SUCCESS);
		return;
	case REQUEST_CONTROL_STATUS:
		net_reply(c, RESPONSE_CONTROL_STATUS, &st);
		return;
	case REQUEST_TAKEOVER:
		if (!op)
			break;
		info("Performing RPC: REQUEST_TAKEOVER from uid=%u",
		     (unsigned) m->auth_uid);
		net_reply_rc(c, SLURM_SUCCESS);
		pthread_mutex_lock(&sb.lock);
		sb.takeover = true;
		pthread_mutex_unlock(&sb.lock);
		/* after the reply has left: the hand-over blocks the loop */
		event_base_once(sb.base, -1, EV_TIMEOUT, _standby_tick, NULL,
				&(struct timeval){ 0, 200000 });
		return;
	case REQUEST_CONTROL:
		if (!op)
			break;
		debug("Ignoring RPC: REQUEST_CONTROL (not in control)");
		net_reply_rc(c, ESLURM_DISABLED);
		return;
	case REQUEST_SHUTDOWN:
		if (!op)
			break;
		info("Shutdown request from uid=%u", (unsigned) m->auth_uid);
		net_reply_rc(c, SLURM_SUCCESS);
		sb.result = 1;
		event_base_loopexit(sb.base, &(struct timeval){ 0, 200000 });
		return;
	default:
		debug("%s from uid=%u peer=%s while in standby mode",
		      msg_type_name(m->type), (unsigned) m->auth_uid, m->peer);
		net_reply_rc(c, ESLURM_IN_STANDBY_MODE);
		return;
	}
	error("Security violation, %s RPC from uid=%u peer=%s",
	      msg_type_name(m->type), (unsigned) m->auth_uid, m->peer);
	net_reply_rc(c, ESLURM_USER_ID_MISSING);
}

static void _standby_fini(void)
{
	if (sb.pinger_on) {
		pthread_mutex_lock(&sb.lock);
		sb.stop = true;
		pthread_cond_broadcast(&sb.cond);
		pthread_mutex_unlock(&sb.lock);
		pthread_join(sb.pinger, NULL);
		sb.pinger_on = false;
	}
	if (sb.srv)
		net_server_destroy(sb.srv);
	if (sb.tick)
		event_free(sb.tick);
	for (size_t i = 0; i < 3; i++)
		if (sb.sig[i])
			event_free(sb.sig[i]);
	if (sb.base)
		event_base_free(sb.base);
	pthread_mutex_destroy(&sb.lock);
	pthread_cond_destroy(&sb.cond);
	memset(&sb, 0, sizeof(sb));
}

int ha_standby_run(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct timeval one = { 1, 0 };
	int fd;

	memset(&sb, 0, sizeof(sb));
	pthread_mutex_init(&sb.lock, NULL);
	pthread_cond_init(&sb.cond, NULL);
	sb.last_active = time(NULL);   /* give the others SlurmctldTimeout */
	sb.active_inx = -1;
	sb.result = 1;
	sb.base = event_base_new();
	if (!sb.base)
		fatal("event_base_new failed");
	fd = net_listen_tcp(ha_listen_addr(), ha.conf->slurmctld_port);
	if (fd < 0)
		fatal("Unable to bind listen port (%s:%u): %s",
		      ha_listen_addr() ? ha_listen_addr() : "*",
		      ha.conf->slurmctld_port, strerror(errno));
	sb.srv = net_server_create(sb.base, fd, _standby_rpc, NULL,
				   _timeout_s() * 1000);
	if (!sb.srv)
		fatal("Unable to serve on port %u", ha.conf->slurmctld_port);
	sb.tick = event_new(sb.base, -1, EV_PERSIST, _standby_tick, NULL);
	event_add(sb.tick, &one);
	for (size_t i = 0; i < 3; i++) {
		sb.sig[i] = evsignal_new(sb.base, sigs[i], _standby_signal, NULL);
		event_add(sb.sig[i], NULL);
	}
	if (pthread_create(&sb.pinger, NULL, _pinger, NULL) != 0)
		fatal("Unable to start the controller pinger");
	sb.pinger_on = true;
	info("Running as SlurmctldHost[%d] %s in standby mode "
	     "(SlurmctldTimeout=%d)", ha.index, ha_name(), _ctld_timeout_s());
	event_base_dispatch(sb.base);
	fd = sb.result;
	_standby_fini();
	return fd;
}

/* ---- in control ---- */

void ha_set_control_time(time_t t)
{
	ha.control_time = t;
}

void ha_rpc_control_status(net_conn_t *c, slurm_msg_t *m)
{
	control_status_msg_t st = {
		.backup_inx = (uint16_t) ha.index,
		.control_time = ha.relinquish ? 0 : ha.control_time,
		.lease_epoch = ha_lease_epoch(),
	};

	net_reply(c, RESPONSE_CONTROL_STATUS, &st);
}

void ha_rpc_control(net_conn_t *c, slurm_msg_t *m)
{
	info("Performing RPC: REQUEST_CONTROL from uid=%u peer=%s",
	     (unsigned) m->auth_uid, m->peer);
	if (ha.conf->ctld_host_cnt <= 1) {
		net_reply_rc(c, ESLURM_DISABLED);
		return;
	}
	net_reply_rc(c, SLURM_SUCCESS);
	if (ha.relinquish)
		return;
	ha.relinquish = true;
	ctld_shutdown();
}

void ha_rpc_takeover(net_conn_t *c, slurm_msg_t *m)
{
	info("Performing RPC: REQUEST_TAKEOVER: already in controller mode "
	     "- skipping");
	net_reply_rc(c, SLURM_SUCCESS);
}

bool ha_relinquishing(void)
{
	return ha.relinquish;
}

void ha_reexec_standby(char **argv)
{
	info("Relinquished control; restarting as a standby controller");
	setenv("SLUICE_CTLD_STANDBY", "1", 1);
	execv("/proc/self/exe", argv);
	fatal("Unable to restart as a standby controller: %s",
	      strerror(errno));
}
