/* cli_sacctmgr_json.c — what sacctmgr show --json and slurmrestd's
 * /slurmdb/ lists add to the records' own JSON (cli_sacctmgr_fields.c):
 * each user's or account's associations and each account's coordinators
 * from a second list, and the TRES list.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli_fields.h"
#include "cli/cli_sacctmgr.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const char *cell(const void *rec, const char *col)
{
	const char *v = cli_sacctmgr_cell(rec, col);

	return v ? v : "";
}

static json_object *str(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static json_object *integer(const char *v)
{
	return json_object_new_int64(v && *v ? strtoll(v, NULL, 10) : 0);
}

/* assoc_short of association row i: {account, cluster, partition,
 * user, id}. */
static json_object *assoc_short(const dbd_acct_resp_msg_t *m, size_t ncols,
				size_t i)
{
	static const char *const keys[] = {
		"account", "cluster", "partition", "user",
	};
	mgr_row_t row = { .cols = m->cols, .cells = m->cells + i * ncols,
			  .ncols = ncols };
	json_object *o = json_object_new_object();

	for (size_t k = 0; k < 4; k++)
		json_object_object_add(o, keys[k], str(cell(&row, keys[k])));
	json_object_object_add(o, "id", integer(cell(&row, "id")));
	return o;
}

void cli_sacctmgr_json_assocs(json_object *list, uint16_t entity,
			      const dbd_acct_resp_msg_t *assocs)
{
	size_t ncols = xstrarray_len(assocs->cols);
	size_t rows = ncols ? xstrarray_len(assocs->cells) / ncols : 0;
	const char *by = entity == DBD_ENT_USER ? "user" : "account";

	for (size_t r = 0; r < json_object_array_length(list); r++) {
		json_object *rec = json_object_array_get_idx(list, r), *name;
		json_object *a = json_object_new_array();

		json_object_object_get_ex(rec, "name", &name);
		for (size_t i = 0; i < rows; i++) {
			mgr_row_t row = { .cols = assocs->cols,
					  .cells = assocs->cells + i * ncols,
					  .ncols = ncols };

			if (!strcmp(cell(&row, by),
				    json_object_get_string(name)))
				json_object_array_add(
					a, assoc_short(assocs, ncols, i));
		}
		json_object_object_add(rec, "associations", a);
	}
}

void cli_sacctmgr_json_coords(json_object *accounts,
			      const dbd_acct_resp_msg_t *coords)
{
	size_t ncols = xstrarray_len(coords->cols);
	size_t rows = ncols ? xstrarray_len(coords->cells) / ncols : 0;

	for (size_t r = 0; r < json_object_array_length(accounts); r++) {
		json_object *rec = json_object_array_get_idx(accounts, r), *name;
		json_object *a = json_object_new_array();

		json_object_object_get_ex(rec, "name", &name);
		for (size_t i = 0; i < rows; i++) {
			mgr_row_t row = { .cols = coords->cols,
					  .cells = coords->cells + i * ncols,
					  .ncols = ncols };
			json_object *c;

			if (strcmp(cell(&row, "account"),
				   json_object_get_string(name)))
				continue;
			c = json_object_new_object();
			json_object_object_add(c, "name",
					       str(cell(&row, "user")));
			json_object_object_add(c, "direct",
					       json_object_new_boolean(1));
			json_object_array_add(a, c);
		}
		json_object_object_add(rec, "coordinators", a);
	}
}

/* Slurm's fixed TRES for slurmrestd's GET /slurmdb/.../tres (sacctmgr
 * show tres lists slurmdbd's TRES table, registered ones included). */
static const struct {
	const char *type, *name;
	int         id;
} tres_list[] = {
	{ "cpu", "", 1 }, { "mem", "", 2 }, { "energy", "", 3 },
	{ "node", "", 4 }, { "billing", "", 5 }, { "fs", "disk", 6 },
	{ "vmem", "", 7 }, { "pages", "", 8 },
};

#define NTRES (sizeof(tres_list) / sizeof(tres_list[0]))

json_object *cli_sacctmgr_tres_json(void)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < NTRES; i++) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "type", str(tres_list[i].type));
		json_object_object_add(t, "name", str(tres_list[i].name));
		json_object_object_add(t, "id",
				       json_object_new_int(tres_list[i].id));
		json_object_object_add(t, "count", json_object_new_int64(0));
		json_object_array_add(a, t);
	}
	return a;
}
