/* acct_send.c — outbox sender thread (acct_send.h). */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/acct_outbox.h"
#include "ctld/acct_send.h"
#include "slurm/slurm_errno.h"

#define BATCH_MAX     1000
#define RETRY_MAX_MS  5000
/* Under a steady stream of records, batches leave at most this often: each
 * costs slurmdbd a transaction and both ends a connection and credentials
 * whatever it carries, so one per record would cost more than the records.
 * A record after a quiet spell leaves at once. */
#define BATCH_GAP_MS  200

static struct {
	pthread_t          thread;
	bool               started;
	volatile bool      stopping;
	char              *host;
	uint16_t           port;
	char              *cluster;
	int                timeout_ms;
	pthread_mutex_t    stats_mutex;
	acct_send_stats_t  stats;
} snd = { .stats_mutex = PTHREAD_MUTEX_INITIALIZER };

/* One batch: 0 when slurmdbd stored it (or set some of its records
 * aside), else a slurm error code. */
static int send_batch(acct_frame_t *recs, uint32_t cnt, char **why)
{
	dbd_records_msg_t req = { .cluster = snd.cluster,
				  .epoch = acct_outbox_epoch(),
				  .cnt = cnt, .recs = recs };
	slurm_msg_t resp;
	dbd_records_resp_msg_t *r;
	int rc;

	acct_outbox_sync();
	rc = net_rpc(snd.host, snd.port, REQUEST_DBD_RECORDS, &req, &resp,
		     snd.timeout_ms);
	if (rc)
		return rc;
	if (resp.type == RESPONSE_DBD_RECORDS && resp.data) {
		r = resp.data;
		rc = r->rc;
		if (!rc) {
			acct_outbox_ack(r->acked_seq);
			pthread_mutex_lock(&snd.stats_mutex);
			if (r->set_aside > snd.stats.set_aside)
				error("slurmdbd: %u accounting records set "
				      "aside, the database refused them (see "
				      "sacctmgr show problem)", r->set_aside);
			snd.stats.set_aside = r->set_aside;
			pthread_mutex_unlock(&snd.stats_mutex);
		} else if (r->msg)
			*why = xstrdup(r->msg);
	} else if (resp.type == RESPONSE_SLURM_RC && resp.data) {
		rc = ((return_code_msg_t *)resp.data)->rc;
		if (rc && ((return_code_msg_t *)resp.data)->msg)
			*why = xstrdup(((return_code_msg_t *)resp.data)->msg);
		if (!rc)
			rc = SLURM_UNEXPECTED_MSG_ERROR;
	} else {
		rc = SLURM_UNEXPECTED_MSG_ERROR;
	}
	msg_free(&resp);
	return rc;
}

static void pause_ms(int ms)
{
	for (int waited = 0; waited < ms && !snd.stopping; waited += 100) {
		struct timespec ts = { 0, 100 * 1000000L };

		nanosleep(&ts, NULL);
	}
}

static long ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000L +
	       (now.tv_nsec - t->tv_nsec) / 1000000L;
}

/* Right after a batch, let records gather until BATCH_GAP_MS has passed
 * since it left (or a full batch waits, or the controller stops); at
 * once when it has passed, as before the first batch. */
static void gather(const struct timespec *last_sent)
{
	long left;

	while (!snd.stopping && acct_outbox_depth() < BATCH_MAX &&
	       (left = BATCH_GAP_MS - ms_since(last_sent)) > 0) {
		struct timespec ts = { 0, (left < 20 ? left : 20) * 1000000L };

		nanosleep(&ts, NULL);
	}
}

static void *sender_main(void *arg)
{
	struct timespec last_sent = { 0, 0 };
	int retry_ms = 0;
	bool down = false;

	(void)arg;
	while (!snd.stopping) {
		acct_frame_t *recs;
		uint32_t cnt;
		char *why = NULL;
		int rc;

		gather(&last_sent);
		cnt = acct_outbox_take(&recs, BATCH_MAX, 1000);
		if (!cnt)
			continue;
		clock_gettime(CLOCK_MONOTONIC, &last_sent);
		rc = send_batch(recs, cnt, &why);
		xfree(recs);
		pthread_mutex_lock(&snd.stats_mutex);
		snd.stats.batches++;
		if (rc)
			snd.stats.failures++;
		else
			snd.stats.stored += cnt;
		pthread_mutex_unlock(&snd.stats_mutex);
		if (!rc) {
			if (down)
				info("slurmdbd: agent queue drained to %s:%u, "
				     "%u records left", snd.host, snd.port,
				     acct_outbox_depth());
			down = false;
			retry_ms = 0;
			continue;
		}
		if (!down)
			error("slurmdbd: Sending message to %s:%u failed: %s%s%s; "
			      "%u records wait in the outbox", snd.host,
			      snd.port, slurm_strerror(rc), why ? ": " : "",
			      why ? why : "", acct_outbox_depth());
		xfree(why);
		down = true;
		retry_ms = retry_ms ? retry_ms * 2 : 250;
		if (retry_ms > RETRY_MAX_MS)
			retry_ms = RETRY_MAX_MS;
		pause_ms(retry_ms);
	}
	return NULL;
}

int acct_send_start(const char *host, uint16_t port, const char *cluster,
		    int timeout_ms)
{
	sigset_t all, old;
	int rc;

	snd.host = xstrdup(host);
	snd.port = port;
	snd.cluster = xstrdup(cluster);
	snd.timeout_ms = timeout_ms;
	snd.stopping = false;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&snd.thread, NULL, sender_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		error("acct_send: pthread_create: %s", strerror(rc));
		return -1;
	}
	snd.started = true;
	return 0;
}

void acct_send_stop(void)
{
	if (!snd.started)
		return;
	snd.stopping = true;
	acct_outbox_wake();
	pthread_join(snd.thread, NULL);
	snd.started = false;
	xfree(snd.host);
	xfree(snd.cluster);
}

void acct_send_stats(acct_send_stats_t *out)
{
	pthread_mutex_lock(&snd.stats_mutex);
	*out = snd.stats;
	pthread_mutex_unlock(&snd.stats_mutex);
}
