/* ctld_send.c — ordered, retried delivery of node messages to the
 * controller (see ctld_send.h). */
#include "slurmd/common/ctld_send.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

#define BACKOFF_FIRST_MS 250
#define BACKOFF_MAX_MS   4000

typedef struct item {
	struct item *next;
	uint16_t     type;
	void        *data;
	int          notify_fd;
	char         answer;     /* CTLD_SEND_*: what the notify byte says */
} item_t;

struct ctld_sender {
	const slurm_conf_t *conf;
	pthread_t       thread;
	pthread_mutex_t lock;
	pthread_cond_t  cond;       /* queue changed, or stop */
	item_t         *head;
	item_t         *tail;
	bool            stop;
	bool            direct;     /* try in the caller's thread first */
	bool            started;    /* the thread runs */
	uint16_t        refresh_type;
	void          (*refresh)(void *data, void *arg);
	void           *refresh_arg;
};

static void deadline_in(struct timespec *ts, int ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_sec += ms / 1000;
	ts->tv_nsec += (long) (ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* The controller's answer: its rc, or for a batch completion possibly
 * the job's terminate request (it->answer).  Transport error or 0. */
static int ask(ctld_sender_t *s, item_t *it, const char *addr, int *rc,
	       int timeout)
{
	slurm_msg_t resp;
	int err = net_rpc(addr, s->conf->slurmctld_port, it->type, it->data,
			  &resp, timeout);

	if (err)
		return err;
	if (resp.type == RESPONSE_SLURM_RC && resp.data) {
		*rc = ((return_code_msg_t *) resp.data)->rc;
	} else if (resp.type == REQUEST_TERMINATE_JOB && resp.data &&
		   it->type == REQUEST_COMPLETE_BATCH_SCRIPT &&
		   (resp.auth_uid == 0 ||
		    resp.auth_uid == s->conf->slurm_user_id)) {
		*rc = SLURM_SUCCESS;
		it->answer = ((node_signal_msg_t *) resp.data)->flags &
			     TERM_NODE_DONE ? CTLD_SEND_DONE : CTLD_SEND_ENDED;
	} else {
		error("%s to %s:%u answered with %s from uid %u",
		      msg_type_name(it->type), addr, s->conf->slurmctld_port,
		      msg_type_name(resp.type), (unsigned) resp.auth_uid);
		err = SLURM_UNEXPECTED_MSG_ERROR;
	}
	msg_free(&resp);
	return err;
}

/* One pass over the controllers; true once one of them answered. */
static bool try_send(ctld_sender_t *s, item_t *it, bool quiet)
{
	const slurm_conf_t *c = s->conf;
	int timeout = (c->message_timeout ? c->message_timeout : 10) * 1000;

	if (s->refresh && it->type == s->refresh_type)
		s->refresh(it->data, s->refresh_arg);
	for (size_t i = 0; i < c->ctld_host_cnt; i++) {
		int rc = 0;
		int err = ask(s, it, c->ctld_addrs[i], &rc, timeout);

		if (err == 0 && rc == ESLURM_IN_STANDBY_MODE) {
			/* a backup standing by: try the next one */
			debug("%s: controller %s is in standby mode",
			      msg_type_name(it->type), c->ctld_hosts[i]);
			continue;
		}
		if (err == 0 && rc == ESLURM_WRITING_TO_FILE) {
			/* it could not save the news: not taken */
			error("%s: controller %s could not save it (%s), will "
			      "retry", msg_type_name(it->type), c->ctld_hosts[i],
			      slurm_strerror(rc));
			return false;
		}
		if (err == 0) {
			if (rc)
				info("%s: controller %s answered: %s",
				     msg_type_name(it->type), c->ctld_hosts[i],
				     slurm_strerror(rc));
			return true;
		}
		if (quiet)
			debug("%s to %s:%u failed: %s", msg_type_name(it->type),
			      c->ctld_addrs[i], c->slurmctld_port,
			      slurm_strerror(err));
		else
			error("%s to %s:%u failed: %s, will retry",
			      msg_type_name(it->type), c->ctld_addrs[i],
			      c->slurmctld_port, slurm_strerror(err));
	}
	return false;
}

/* Acknowledged: notify and free. */
static void item_finish(item_t *it)
{
	char byte = it->answer ? it->answer : CTLD_SEND_ACKED;

	if (it->notify_fd >= 0 && write(it->notify_fd, &byte, 1) < 0)
		debug("ctld_send: notify: %m");
	msg_body_free(it->type, it->data);
	xfree(it);
}

static void item_done(ctld_sender_t *s, item_t *it)
{
	pthread_mutex_lock(&s->lock);
	s->head = it->next;
	if (!s->head)
		s->tail = NULL;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	item_finish(it);
}

/* Sleep up to ms unless asked to stop; returns true if stopping. */
static bool backoff_wait(ctld_sender_t *s, int ms)
{
	struct timespec ts;
	bool stop;

	deadline_in(&ts, ms);
	pthread_mutex_lock(&s->lock);
	while (!s->stop) {
		if (pthread_cond_timedwait(&s->cond, &s->lock, &ts) == ETIMEDOUT)
			break;
	}
	stop = s->stop;
	pthread_mutex_unlock(&s->lock);
	return stop;
}

static void *sender_main(void *arg)
{
	ctld_sender_t *s = arg;

	for (;;) {
		item_t *it;
		int delay = BACKOFF_FIRST_MS;
		int tries = 0;

		pthread_mutex_lock(&s->lock);
		while (!s->head && !s->stop)
			pthread_cond_wait(&s->cond, &s->lock);
		it = s->stop ? NULL : s->head;
		pthread_mutex_unlock(&s->lock);
		if (!it)
			return NULL;

		while (!try_send(s, it, tries++ > 0)) {
			if (backoff_wait(s, delay))
				return NULL;
			delay = delay * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
							   : delay * 2;
		}
		item_done(s, it);
	}
}

/* Called with the lock held. */
static bool start_thread(ctld_sender_t *s)
{
	if (s->started)
		return true;
	if (pthread_create(&s->thread, NULL, sender_main, s)) {
		error("ctld_send: pthread_create: %m");
		return false;
	}
	s->started = true;
	return true;
}

static ctld_sender_t *create(const slurm_conf_t *conf, bool direct)
{
	ctld_sender_t *s = xmalloc(sizeof(*s));

	s->conf = conf;
	s->direct = direct;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->cond, NULL);
	if (!direct && !start_thread(s)) {
		pthread_mutex_destroy(&s->lock);
		pthread_cond_destroy(&s->cond);
		xfree(s);
		return NULL;
	}
	return s;
}

ctld_sender_t *ctld_sender_create(const slurm_conf_t *conf)
{
	return create(conf, false);
}

ctld_sender_t *ctld_sender_create_direct(const slurm_conf_t *conf)
{
	return create(conf, true);
}

static void append(ctld_sender_t *s, item_t *it)
{
	if (s->tail)
		s->tail->next = it;
	else
		s->head = it;
	s->tail = it;
	pthread_cond_broadcast(&s->cond);
}

void ctld_sender_queue(ctld_sender_t *s, uint16_t type, void *data,
		       int notify_fd)
{
	item_t *it = xmalloc(sizeof(*it));
	int delay = BACKOFF_FIRST_MS;
	bool now;

	it->type = type;
	it->data = data;
	it->notify_fd = notify_fd;
	pthread_mutex_lock(&s->lock);
	/* in order: only while nothing waits in the queue (which has a
	 * thread once anything waits there) */
	now = s->direct && !s->started && !s->head;
	if (!now)
		append(s, it);
	pthread_mutex_unlock(&s->lock);
	if (!now || try_send(s, it, true)) {
		if (now)
			item_finish(it);
		return;
	}
	/* the controller is away: the thread retries from now on */
	pthread_mutex_lock(&s->lock);
	if (start_thread(s)) {
		append(s, it);
		pthread_mutex_unlock(&s->lock);
		return;
	}
	pthread_mutex_unlock(&s->lock);
	while (!try_send(s, it, false)) {     /* no thread: here, then */
		usleep(delay * 1000);
		delay = delay * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : delay * 2;
	}
	item_finish(it);
}

void ctld_sender_set_refresh(ctld_sender_t *s, uint16_t type,
			     void (*fn)(void *data, void *arg), void *arg)
{
	pthread_mutex_lock(&s->lock);
	s->refresh_type = type;
	s->refresh = fn;
	s->refresh_arg = arg;
	pthread_mutex_unlock(&s->lock);
}

int ctld_sender_flush(ctld_sender_t *s, int timeout_ms)
{
	struct timespec ts;
	int rc = 0;

	if (timeout_ms >= 0)
		deadline_in(&ts, timeout_ms);
	pthread_mutex_lock(&s->lock);
	while (s->head && rc == 0) {
		if (timeout_ms < 0)
			pthread_cond_wait(&s->cond, &s->lock);
		else if (pthread_cond_timedwait(&s->cond, &s->lock, &ts) ==
			 ETIMEDOUT)
			rc = s->head ? -1 : 0;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void ctld_sender_destroy(ctld_sender_t *s)
{
	item_t *it;

	if (!s)
		return;
	pthread_mutex_lock(&s->lock);
	s->stop = true;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->lock);
	if (s->started)
		pthread_join(s->thread, NULL);

	while ((it = s->head)) {
		s->head = it->next;
		msg_body_free(it->type, it->data);
		xfree(it);
	}
	pthread_mutex_destroy(&s->lock);
	pthread_cond_destroy(&s->cond);
	xfree(s);
}
