/* job_track.c — run tracking requests (job_track.h). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/acct_rec.h"
#include "common/bitmap.h"
#include "common/job_info.h"
#include "common/log.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "ctld/acct_job.h"
#include "ctld/acct_outbox.h"
#include "ctld/commit.h"
#include "ctld/job_mgr.h"
#include "ctld/job_track.h"
#include "ctld/node_mgr.h"
#include "slurm/slurm_errno.h"

/* Names as MLflow allows them: they print unquoted in every sacct
 * format, '|' (-P) and ',' included. */
static bool name_char(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
	       ch == '.' || ch == '/' || ch == ' ';
}

/* The first control character (or DEL) of s, or -1. */
static int control_at(const char *s)
{
	for (int i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return i;
	return -1;
}

int job_track_check(const job_track_msg_t *t, char *why, size_t len)
{
	const char *kind = track_kind_name(t->kind);
	int at;

	if (!kind) {
		snprintf(why, len, "unknown kind %u", t->kind);
		return -1;
	}
	if (t->kind == TRACK_EVENT) {
		snprintf(why, len, "events (checkpoint, restart) are "
			 "recorded by the controller alone");
		return -1;
	}
	if (!t->name || !t->name[0]) {
		snprintf(why, len, "%s without a name", kind);
		return -1;
	}
	if (t->kind == TRACK_ARTIFACT) {
		if (t->name[0] != '/') {
			snprintf(why, len, "artifact path must be absolute");
			return -1;
		}
		if ((at = control_at(t->name)) >= 0) {
			snprintf(why, len, "artifact path has a control "
				 "character at byte %d", at);
			return -1;
		}
	} else {
		for (at = 0; t->name[at]; at++)
			if (!name_char((unsigned char)t->name[at])) {
				snprintf(why, len, "%s name has a character "
					 "other than letters, digits, '_', "
					 "'-', '.', '/' and ' ' at byte %d",
					 kind, at);
				return -1;
			}
	}
	if (t->kind != TRACK_PARAM && t->text) {
		snprintf(why, len, "a %s has no text value", kind);
		return -1;
	}
	if (t->kind == TRACK_PARAM) {
		if (!t->text) {
			snprintf(why, len, "param without a value");
			return -1;
		}
		if ((at = control_at(t->text)) >= 0) {
			snprintf(why, len, "param value has a control "
				 "character at byte %d", at);
			return -1;
		}
	}
	if (t->kind != TRACK_PARAM && !isfinite(t->value)) {
		snprintf(why, len, "%s value is not a finite number", kind);
		return -1;
	}
	if (t->kind == TRACK_ARTIFACT && t->value < 0) {
		snprintf(why, len, "artifact size is negative");
		return -1;
	}
	if (t->step > TRACK_STEP_MAX) {
		snprintf(why, len, "step %llu is larger than %lld",
			 (unsigned long long) t->step, (long long) INT64_MAX);
		return -1;
	}
	return 0;
}

bool job_track_rate_ok(double *tokens, double *last, double now)
{
	if (*last == 0) {
		*tokens = TRACK_BURST;
	} else if (now > *last) {
		*tokens += (now - *last) * TRACK_RATE;
		if (*tokens > TRACK_BURST)
			*tokens = TRACK_BURST;
	}
	*last = now;
	if (*tokens < 1)
		return false;
	*tokens -= 1;
	return true;
}

static bool numeric_addr(const char *a)
{
	if (!a || !*a)
		return false;
	for (; *a; a++)
		if (!((*a >= '0' && *a <= '9') || *a == '.' || *a == ':' ||
		      (*a >= 'a' && *a <= 'f') || (*a >= 'A' && *a <= 'F')))
			return false;
	return true;
}

/* Does the request come from one of j's nodes?  A node whose NodeAddr
 * is a host name is not resolved here (the loop must not block on DNS):
 * any address passes for it. */
static bool from_job_node(const job_record_t *j, const char *peer)
{
	char *host;
	bool hit = false;

	if (!j->node_bitmap || !(host = net_peer_host(peer)))
		return false;
	for (long i = bitmap_first_set(j->node_bitmap); i >= 0 && !hit;
	     i = bitmap_next_set(j->node_bitmap, (size_t)i + 1)) {
		const node_record_t *n = node_mgr_at((size_t)i);
		const char *addr = n ? n->info.node_addr : NULL;

		hit = n && (!numeric_addr(addr) || !strcmp(addr, host));
	}
	xfree(host);
	return hit;
}

static void reply(net_conn_t *c, int rc, const char *msg)
{
	return_code_msg_t r = { .rc = rc, .msg = (char *)msg };

	net_reply(c, RESPONSE_SLURM_RC, &r);
}

void job_track_rpc(net_conn_t *c, slurm_msg_t *m)
{
	const job_track_msg_t *t = m->data;
	struct timespec ts;
	job_record_t *j;
	char why[256];
	int rc = SLURM_ERROR;

	if (!t) {
		reply(c, SLURM_ERROR, "empty request");
		return;
	}
	if (job_track_check(t, why, sizeof(why)) < 0)
		goto refuse;
	if (!(j = job_mgr_find(t->job_id))) {
		rc = ESLURM_INVALID_JOB_ID;
		snprintf(why, sizeof(why), "job %u: no such job", t->job_id);
		goto refuse;
	}
	if (j->info.user_id != m->auth_uid) {
		rc = ESLURM_ACCESS_DENIED;
		snprintf(why, sizeof(why), "job %u is not yours: only its own "
			 "processes may log into it", t->job_id);
		goto refuse;
	}
	if ((j->info.job_state & JOB_STATE_BASE) != JOB_RUNNING ||
	    (j->info.job_state & JOB_COMPLETING)) {
		rc = ESLURM_JOB_NOT_RUNNING;
		snprintf(why, sizeof(why), "job %u is not running",
			 t->job_id);
		goto refuse;
	}
	if (!from_job_node(j, m->peer)) {
		rc = ESLURM_ACCESS_DENIED;
		snprintf(why, sizeof(why), "not sent from a node of job %u",
			 t->job_id);
		goto refuse;
	}
	if (!acct_enabled()) {
		rc = ESLURM_NOT_SUPPORTED;
		snprintf(why, sizeof(why), "run tracking needs "
			 "AccountingStorageType=accounting_storage/slurmdbd");
		goto refuse;
	}
	if (j->track_cnt >= TRACK_PER_JOB_MAX) {
		snprintf(why, sizeof(why), "job %u has logged %u values, the "
			 "most one job may", t->job_id, TRACK_PER_JOB_MAX);
		goto refuse;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	if (!job_track_rate_ok(&j->track_tokens, &j->track_last,
			       ts.tv_sec + ts.tv_nsec / 1e9)) {
		rc = SLURMCTLD_COMMUNICATIONS_BACKOFF;
		snprintf(why, sizeof(why), "job %u logs more than %u values "
			 "a second", t->job_id, TRACK_RATE);
		goto refuse;
	}
	acct_outbox_append(ACCT_REC_TRACK, &(acct_track_rec_t){
		.job_id = t->job_id, .submit = j->info.submit_time,
		.kind = t->kind, .name = t->name, .step = t->step,
		.value = t->kind == TRACK_PARAM ? 0 : t->value,
		.text = t->text, .time = time(NULL),
	});
	j->track_cnt++;
	/* acknowledged once on disk: the outbox is the only copy */
	acct_outbox_want_sync();
	commit_dirty();
	commit_reply_rc(c, SLURM_SUCCESS, NULL);
	return;
refuse:
	info("REQUEST_JOB_TRACK from uid=%u peer=%s refused: %s",
	     (unsigned) m->auth_uid, m->peer, why);
	reply(c, rc, why);
}
