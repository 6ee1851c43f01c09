/* cli_scontrol_track.c — `scontrol track` (a Sluice extension): log a
 * metric, a parameter or an artifact of the job this runs in, for the
 * Python SDK's sluice.log_metric/log_param/log_artifact (cli_scontrol.h).
 *
 *   scontrol track metric=<name> value=<number> [step=<n>]
 *   scontrol track param=<name> value=<text>
 *   scontrol track artifact=<path>
 *
 * The job is $SLURM_JOB_ID: only a job's own processes log into it (the
 * controller checks the user, the state and the node, job_track.h).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/acct_rec.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

static int fail(const char *fmt, const char *arg)
{
	fputs("scontrol: error: track: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

/* "key=..." with key one of the words: the value, or NULL. */
static const char *kv(const char *word, const char *key)
{
	size_t n = strlen(key);

	return !strncasecmp(word, key, n) && word[n] == '=' ? word + n + 1 :
	       NULL;
}

static int parse(int argc, char **argv, job_track_msg_t *t,
		 const char **value, const char **step)
{
	const char *v;

	for (int i = 0; i < argc; i++) {
		uint16_t kind = 0;

		if ((v = kv(argv[i], "metric")))
			kind = TRACK_METRIC;
		else if ((v = kv(argv[i], "param")))
			kind = TRACK_PARAM;
		else if ((v = kv(argv[i], "artifact")))
			kind = TRACK_ARTIFACT;
		if (kind) {
			if (t->kind)
				return fail("give one of metric=, param= and "
					    "artifact=%s", "");
			t->kind = kind;
			t->name = (char *)v;
		} else if ((v = kv(argv[i], "value"))) {
			*value = v;
		} else if ((v = kv(argv[i], "step"))) {
			*step = v;
		} else {
			return fail("invalid option: %s", argv[i]);
		}
	}
	if (!t->kind)
		return fail("give metric=<name>, param=<name> or "
			    "artifact=<path>%s", "");
	return 0;
}

/* The artifact's absolute path (caller frees) and its size. */
static int artifact(job_track_msg_t *t)
{
	char *real = realpath(t->name, NULL);
	struct stat st;

	if (!real || stat(real, &st) < 0) {
		int e = errno;

		free(real);
		fprintf(stderr, "scontrol: error: track: %s: %s\n", t->name,
			strerror(e));
		return 1;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		free(real);
		return fail("%s: not a file or directory", t->name);
	}
	t->name = xstrdup(real);
	free(real);
	t->value = S_ISREG(st.st_mode) ? (double)st.st_size : 0;
	return 0;
}

static int fill(job_track_msg_t *t, const char *value, const char *step)
{
	char *end;

	if (t->kind == TRACK_ARTIFACT) {
		if (value || step)
			return fail("artifact= takes no value= or step=%s", "");
		return artifact(t);
	}
	if (!value)
		return fail("%s needs value=", track_kind_name(t->kind));
	if (t->kind == TRACK_PARAM) {
		if (step)
			return fail("param= takes no step=%s", "");
		t->text = xstrdup(value);
	} else {
		errno = 0;
		t->value = strtod(value, &end);
		if (errno || end == value || *end || !isfinite(t->value))
			return fail("value=%s is not a finite number", value);
	}
	if (step) {
		unsigned long long s;

		errno = 0;
		s = strtoull(step, &end, 10);
		if (errno || end == step || *end || step[0] == '-' ||
		    s > (unsigned long long)INT64_MAX)
			return fail("step=%s is not a whole number from 0 to "
				    "9223372036854775807", step);
		t->step = s;
	}
	t->name = xstrdup(t->name);
	return 0;
}

int scontrol_track(int argc, char **argv)
{
	job_track_msg_t t = { 0 };
	const char *value = NULL, *step = NULL, *env = getenv("SLURM_JOB_ID");
	slurm_msg_t resp;
	int err, rc;

	if (!env || !*env)
		return fail("not inside a job: SLURM_JOB_ID is not set%s", "");
	if (parse_u32(env, &t.job_id) < 0 || !t.job_id)
		return fail("SLURM_JOB_ID=%s is not a job id", env);
	if (parse(argc, argv, &t, &value, &step) || fill(&t, value, step))
		return 1;
	err = cli_ctld_rpc(REQUEST_JOB_TRACK, &t, &resp);
	xfree(t.name);
	xfree(t.text);
	if (err) {
		fprintf(stderr, "scontrol: error: track: %s\n",
			cli_comm_strerror(err));
		return 1;
	}
	rc = cli_resp_rc(&resp);
	if (rc) {
		const return_code_msg_t *r = resp.type == RESPONSE_SLURM_RC ?
					     resp.data : NULL;

		fprintf(stderr, "scontrol: error: track: %s%s%s\n",
			slurm_strerror(rc), r && r->msg ? ": " : "",
			r && r->msg ? r->msg : "");
	}
	msg_free(&resp);
	return rc ? 1 : 0;
}
