/* cli_lic.c — licenses in the commands (cli_lic.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_lic.h"
#include "cli/cli_output.h"
#include "common/msg.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

static int _by_name(const void *a, const void *b)
{
	const license_info_t *x = *(const license_info_t *const *) a;
	const license_info_t *y = *(const license_info_t *const *) b;

	return strcmp(x->name, y->name);
}

/* The rows of m to show, sorted by name (xfree); *n gets their count. */
static const license_info_t **_pick(const license_info_msg_t *m,
				    const char *name, size_t *n)
{
	const license_info_t **v = xcalloc(m->cnt + 1, sizeof(*v));

	*n = 0;
	for (uint32_t i = 0; i < m->cnt; i++)
		if (!name || !strcmp(name, m->lics[i].name))
			v[(*n)++] = &m->lics[i];
	qsort(v, *n, sizeof(*v), _by_name);
	return v;
}

static uint32_t _free_of(const license_info_t *l)
{
	uint64_t taken = (uint64_t) l->in_use + l->reserved;

	return taken >= l->total ? 0 : (uint32_t) (l->total - taken);
}

json_object *cli_lic_json(const license_info_msg_t *m, const char *name)
{
	json_object *arr = json_object_new_array();
	size_t n;
	const license_info_t **v = _pick(m, name, &n);

	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "LicenseName",
				       json_object_new_string(v[i]->name));
		json_object_object_add(o, "Total",
				       json_object_new_int64(v[i]->total));
		json_object_object_add(o, "Used",
				       json_object_new_int64(v[i]->in_use));
		json_object_object_add(o, "Free",
				       json_object_new_int64(_free_of(v[i])));
		json_object_object_add(o, "Remote",
				       json_object_new_boolean(v[i]->remote));
		json_object_object_add(o, "Reserved",
				       json_object_new_int64(v[i]->reserved));
		json_object_object_add(o, "LastConsumed",
				       json_object_new_int64(0));
		json_object_object_add(o, "LastDeficit",
				       json_object_new_int64(0));
		json_object_object_add(o, "LastUpdate",
				       json_object_new_int64(0));
		json_object_array_add(arr, o);
	}
	xfree(v);
	return arr;
}

int scontrol_lic_show(const char *name, bool one_liner, cli_doc_t doc)
{
	info_request_msg_t req = { 0 };
	const license_info_msg_t *m;
	const license_info_t **v;
	slurm_msg_t resp;
	size_t n;
	int rc = cli_ctld_rpc(REQUEST_LICENSE_INFO, &req, &resp);

	if (rc || resp.type != RESPONSE_LICENSE_INFO) {
		fprintf(stderr, "slurm_load_license error: %s\n",
			rc ? cli_comm_strerror(rc) :
			slurm_strerror(cli_resp_rc(&resp)));
		if (!rc)
			msg_free(&resp);
		return 1;
	}
	m = resp.data;
	if (doc != CLI_DOC_NONE) {
		cli_output_doc_print(stdout, cli_output_doc("licenses",
					cli_lic_json(m, name), m->last_update),
				     doc == CLI_DOC_YAML);
		msg_free(&resp);
		return 0;
	}
	if (!m->cnt) {
		printf("No licenses configured in Slurm.\n");
		msg_free(&resp);
		return 0;
	}
	v = _pick(m, name, &n);
	for (size_t i = 0; i < n; i++)
		printf("LicenseName=%s%sTotal=%u Used=%u Free=%u Reserved=%u "
		       "Remote=%s\n", v[i]->name, one_liner ? " " : "\n    ",
		       v[i]->total, v[i]->in_use, _free_of(v[i]),
		       v[i]->reserved, v[i]->remote ? "yes" : "no");
	xfree(v);
	msg_free(&resp);
	return 0;
}
