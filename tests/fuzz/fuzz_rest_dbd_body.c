/* fuzz_rest_dbd_body.c — arbitrary bytes as the body of POST
 * /slurmdb/v0.0.4N/accounts, users, qos, clusters, associations,
 * accounts_association and users_association: json-c parses them, then each
 * record parsers read the result.  A refusal must say why and leave no
 * records; a success must leave no error, and every record a clean name
 * and "key=value" settings.
 */
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "common/xmalloc.h"
#include "restd/rest_dbd_body.h"

static void check(int rc, rest_dbd_rec_t *recs, size_t n, char *err)
{
	if (rc < 0) {
		if (!err || recs || n)
			__builtin_trap();
		return;
	}
	if (err || !recs || !n)
		__builtin_trap();
	for (size_t i = 0; i < n; i++) {
		const char *id = recs[i].name ? recs[i].name :
				 recs[i].account;

		if (!id || !*id || strpbrk(id, ",=\x1f"))
			__builtin_trap();
		for (size_t k = 0; recs[i].set && recs[i].set[k]; k++)
			if (!strchr(recs[i].set[k], '=') ||
			    strchr(recs[i].set[k], '\x1f'))
				__builtin_trap();
	}
}

/* An add_cond: refused with a reason and nothing, or names and
 * "key=value" settings. */
static void check_add(int rc, rest_dbd_add_t *a, char *err)
{
	if (rc < 0) {
		if (!err || a->names || a->set)
			__builtin_trap();
		return;
	}
	if (err || !a->names || !a->names[0])
		__builtin_trap();
	for (size_t i = 0; a->names[i]; i++)
		if (!*a->names[i] || strpbrk(a->names[i], ",=\x1f"))
			__builtin_trap();
	for (size_t k = 0; a->set && a->set[k]; k++)
		if (!strchr(a->set[k], '=') || strchr(a->set[k], '\x1f'))
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_tokener *tok = json_tokener_new_ex(64);
	json_object *body;
	rest_dbd_rec_t *recs;
	rest_dbd_add_t add;
	size_t n;
	char *err;
	int rc;

	body = json_tokener_parse_ex(tok, (const char *)data, (int)size);
	json_tokener_free(tok);
	rc = rest_dbd_accounts_parse(body, &recs, &n, &err);
	check(rc, recs, n, err);
	rest_dbd_recs_free(recs, n);
	xfree(err);
	rc = rest_dbd_users_parse(body, &recs, &n, &err);
	check(rc, recs, n, err);
	rest_dbd_recs_free(recs, n);
	xfree(err);
	rc = rest_dbd_qos_parse(body, &recs, &n, &err);
	check(rc, recs, n, err);
	rest_dbd_recs_free(recs, n);
	xfree(err);
	rc = rest_dbd_clusters_parse(body, &recs, &n, &err);
	check(rc, recs, n, err);
	rest_dbd_recs_free(recs, n);
	xfree(err);
	rc = rest_dbd_assocs_parse(body, &recs, &n, &err);
	check(rc, recs, n, err);
	rest_dbd_recs_free(recs, n);
	xfree(err);
	rc = rest_dbd_accounts_add_parse(body, &add, &err);
	check_add(rc, &add, err);
	rest_dbd_add_free(&add);
	xfree(err);
	rc = rest_dbd_users_add_parse(body, &add, &err);
	check_add(rc, &add, err);
	rest_dbd_add_free(&add);
	xfree(err);
	json_object_put(body);
	return 0;
}
