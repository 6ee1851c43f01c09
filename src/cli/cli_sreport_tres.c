/* cli_sreport_tres.c — sreport -T/--tres: TRES names to the ids of
 * slurmdbd's TRES table (sacctmgr show tres), as Slurm's sreport. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_sreport.h"
#include "cli/cli_sreport_int.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* slurmdbd's TRES table: rows of (type, name, id). */
static dbd_acct_resp_msg_t *tres_table(void)
{
	dbd_acct_msg_t req = { .op = DBD_OP_LIST, .entity = DBD_ENT_TRES };
	dbd_acct_resp_msg_t *r;

	if (!(r = sreport_dbd_call(REQUEST_DBD_ACCT, &req,
				   RESPONSE_DBD_ACCT)))
		return NULL;
	if (r->rc || xstrarray_len(r->cols) != 3) {
		error("Problem with query: %s", r->msg ? r->msg :
		      slurm_strerror(r->rc ? r->rc : SLURM_ERROR));
		msg_body_free(RESPONSE_DBD_ACCT, r);
		return NULL;
	}
	return r;
}

static void add(sreport_t *o, uint32_t id, const char *name)
{
	for (uint32_t k = 0; k < o->ntres; k++)
		if (o->tres[k] == id)
			return;
	if (o->ntres == SR_TRES_MAX)
		return;
	o->tres[o->ntres] = id;
	o->tres_name[o->ntres++] = xstrdup(name);
}

int sr_tres_resolve(const char *arg, sreport_t *o, bool quiet)
{
	dbd_acct_resp_msg_t *r = tres_table();
	char **want = xstrsplit(arg, ",", NULL);
	size_t rows;
	char **names;

	if (!r) {
		xstrarray_free(want);
		return -1;
	}
	rows = xstrarray_len(r->cells) / 3;
	names = xcalloc(rows + 1, sizeof(char *));
	for (size_t i = 0; i < rows; i++) {
		const char *type = r->cells[i * 3], *name = r->cells[i * 3 + 1];

		names[i] = *name ? xstrdup_printf("%s/%s", type, name) :
			   xstrdup(type);
	}
	for (size_t w = 0; want[w]; w++) {
		bool found = false;

		xstrtrim(want[w]);
		if (!want[w][0])
			continue;
		for (size_t i = 0; i < rows; i++) {
			if (strcasecmp(want[w], "all") &&
			    strcasecmp(want[w], names[i]))
				continue;
			add(o, (uint32_t)strtoul(r->cells[i * 3 + 2], NULL,
						 10), names[i]);
			found = true;
		}
		/* Slurm drops such a name without a word */
		if (!found && !quiet)
			fprintf(stderr, "sreport: warning: TRES %s is not in "
				"the TRES table (sacctmgr show tres): "
				"ignored\n", want[w]);
	}
	xstrarray_free(want);
	xstrarray_free(names);
	msg_body_free(RESPONSE_DBD_ACCT, r);
	if (!o->ntres) {
		fprintf(stderr, "sreport: fatal: No valid TRES given\n");
		return -1;
	}
	return 0;
}
