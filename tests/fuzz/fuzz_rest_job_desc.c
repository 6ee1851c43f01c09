/* fuzz_rest_job_desc.c — arbitrary bytes as a REST job request body:
 * json-c parses them, then the submit, update and allocate parsers read
 * the result for each data_parser version, and the reservation parser
 * (POST reservation) reads it too.  A failure must leave an
 * error message and nothing in the output; a success must leave no
 * error.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "common/xmalloc.h"
#include "restd/rest_job_desc.h"
#include "restd/rest_resv.h"

static void check_desc(int rc, job_desc_t *d, char *err)
{
	job_desc_t z;

	if (rc) {
		job_desc_init(&z);
		if (!err || memcmp(&z, d, sizeof(z)))
			abort();
	} else if (err) {
		abort();
	}
	job_desc_free_members(d);
}

static void run(json_object *body, int ver)
{
	json_object *w = json_object_new_array(), *job = NULL;
	job_update_msg_t u;
	job_desc_t d;
	char *err = NULL;
	int rc, hold;

	rc = rest_job_submit_parse(body, ver, &d, w, &err);
	check_desc(rc, &d, err);
	xfree(err);
	rc = rest_job_alloc_parse(body, ver, &d, w, &err);
	check_desc(rc, &d, err);
	xfree(err);
	if (body && json_object_is_type(body, json_type_object))
		json_object_object_get_ex(body, "job", &job);
	rc = rest_job_update_parse(job ? job : body, ver, &u, &hold, w, &err);
	if ((rc && (!err || u.name || u.job_id_str || hold != -1)) ||
	    (!rc && err))
		abort();
	job_update_free_members(&u);
	xfree(err);
	json_object_put(w);
}

/* The same bytes as a reservation_desc_msg (POST reservation). */
static void run_resv(json_object *body)
{
	resv_desc_t d, z;
	char *err = NULL;
	int rc = rest_resv_parse(body, &d, &err);

	resv_desc_init(&z);
	if ((rc && (!err || memcmp(&z, &d, sizeof(z)))) || (!rc && err))
		abort();
	fields_free(resv_desc_fields, &d);
	xfree(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new_ex(64);
	json_object *body;

	if (!tok)
		return 0;
	body = json_tokener_parse_ex(tok, (const char *) data, (int) size);
	if (json_tokener_get_error(tok) == json_tokener_success) {
		for (int ver = 39; ver <= 44; ver++)
			run(body, ver);
		run_resv(body);
	}
	json_object_put(body);
	json_tokener_free(tok);
	return 0;
}
