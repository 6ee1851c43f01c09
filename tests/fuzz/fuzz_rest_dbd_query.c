/* fuzz_rest_dbd_query.c — arbitrary bytes as the query string of GET
 * /slurmdb/v0.0.4N/jobs ("users=a,b&start_time=...&skip_steps"): split
 * into name/value pairs as the server hands them over, then read into
 * sacct's query (rest_jobs_query_parse).  A refusal must say why; a
 * success must not; either way everything read is freed.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "restd/rest_dbd_query.h"

#define MAX_KV 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char *text = xstrndup((const char *)data, size);
	char **parts = xstrsplit(text, "&", NULL);
	rest_kv_t kv[MAX_KV];
	rest_jobs_query_t q = { 0 };
	size_t n = 0;
	char *err = NULL, buf[64];
	int rc;

	if (!init) {
		log_options_t o = { .stderr_level = LOG_LEVEL_QUIET };

		log_init("fuzz_rest_dbd_query", o, NULL);
		init = 1;
	}
	for (size_t i = 0; parts[i] && n < MAX_KV; i++) {
		char *eq = strchr(parts[i], '=');

		if (eq)
			*eq = '\0';
		kv[n].name = parts[i];
		kv[n].value = eq ? eq + 1 : (char *)"";
		n++;
	}
	q.cond.end = 1795351600;
	rc = rest_jobs_query_parse(kv, n, &q, &err);
	if ((rc < 0) != (err != NULL))
		__builtin_trap();
	for (size_t i = 0; i < n; i++)
		if (rest_jobs_query_job_id(kv[i].value, buf, sizeof(buf)) == 0 &&
		    !buf[0])
			__builtin_trap();   /* an id is never empty */
	rest_jobs_query_free(&q);
	xfree(err);
	xstrarray_free(parts);
	xfree(text);
	return 0;
}
