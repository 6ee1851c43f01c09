/* rest_plan.h — writing one record of a field table as a version's item
 * schema shows it, with no tree of the record.
 *
 * A plan is computed once per (version, list schema, field table) from the
 * compiled-in schema (rest_spec.h): which rows the version has and under
 * which name, in the order the record's object has them; for each row
 * whether its value goes out as the row makes it (v0.0.43, and any member
 * whose schema is the same as v0.0.43's) or through the view (rest_view.h)
 * of that one value; and the empty values of required members no row
 * gives, written once.  Writing a record then calls each row's getter and
 * writes its value at once: the text equals the old path's (the whole
 * record's object, viewed, serialized) for every version, which
 * tests/unit/test_rest_list.c checks.
 */
#ifndef SLUICE_REST_PLAN_H
#define SLUICE_REST_PLAN_H

#include "cli/cli_fields.h"
#include "restd/rest_text.h"

typedef struct rest_plan rest_plan_t;

/* The plan for the items of member of schema (a full schema name of
 * version ver, e.g. "v0.0.42_openapi_job_info_resp") from tab.  Built on
 * first use and kept until rest_plan_fini(); safe from several threads.
 * NULL if the version has no such list or tab cannot be planned (a
 * json_key with a '/'): the caller then writes the record's tree. */
const rest_plan_t *rest_plan_get(int ver, const char *schema,
				 const char *member, const cli_field_t *tab);
/* Append rec's object to t. */
void rest_plan_write(const rest_plan_t *p, rest_text_t *t, const void *rec,
		     const cli_ctx_t *ctx);
void rest_plan_fini(void);

#endif
