/* cli_scontrol_assoc.c — scontrol show assoc_mgr: the controller's
 * association, user and QOS cache (cli_scontrol.h). */
#define _GNU_SOURCE   /* strcasestr */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cli_common.h"
#include "cli/cli_scontrol.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* flags=: any of assoc, qos, users in the value (as Slurm: a word it
 * does not know beside one it knows passes).  0 if none. */
static uint16_t parse_flags(const char *v)
{
	uint16_t f = 0;

	if (strcasestr(v, "assoc"))
		f |= ASSOC_MGR_INFO_ASSOC;
	if (strcasestr(v, "qos"))
		f |= ASSOC_MGR_INFO_QOS;
	if (strcasestr(v, "users"))
		f |= ASSOC_MGR_INFO_USERS;
	return f;
}

/* Append the names of "a,b" to *list. */
static void add_names(char ***list, const char *v)
{
	size_t n = 0, add = 0;
	char **names = xstrsplit(v, ",", &add);

	while (*list && (*list)[n])
		n++;
	*list = xrealloc(*list, (n + add + 1) * sizeof(char *));
	for (size_t i = 0; i < add; i++)
		(*list)[n + i] = names[i];
	(*list)[n + add] = NULL;
	xfree(names);
}

/* One "key=value" word into r; 0, 1 = a message printed but go on
 * (Slurm prints nothing more and exits 0), -1 = bad word (exit 1). */
static int parse_word(const char *w, assoc_mgr_info_request_msg_t *r)
{
	const char *eq = strchr(w, '=');
	size_t klen = eq ? (size_t)(eq - w) : strlen(w);
	const char *v = eq ? eq + 1 : "";

	if (!klen)
		return -1;
	if (strncasecmp(w, "accounts", klen) && strncasecmp(w, "flags", klen) &&
	    strncasecmp(w, "qos", klen) && strncasecmp(w, "users", klen))
		return -1;
	if (!*v) {
		fprintf(stderr, "No value given for option %s\n", w);
		return 1;
	}
	if (!strncasecmp(w, "accounts", klen)) {
		add_names(&r->accounts, v);
	} else if (!strncasecmp(w, "qos", klen)) {
		add_names(&r->qos, v);
	} else if (!strncasecmp(w, "users", klen)) {
		add_names(&r->users, v);
	} else if (!(r->flags = parse_flags(v))) {
		fprintf(stderr, "invalid flag '%s', valid options are 'Assoc, "
			"QOS, and/or Users'\n", v);
		return 1;
	}
	return 0;
}

static void req_free(assoc_mgr_info_request_msg_t *r)
{
	xstrarray_free(r->accounts);
	xstrarray_free(r->users);
	xstrarray_free(r->qos);
}

int scontrol_show_assoc_mgr(int argc, char **argv)
{
	assoc_mgr_info_request_msg_t r = { 0 };
	slurm_msg_t resp;
	int rc = 0;

	for (int i = 0; i < argc; i++) {
		int bad = parse_word(argv[i], &r);

		if (bad < 0)
			fprintf(stderr, "invalid entity: %s for keyword:show "
				"assoc_mgr\n", argv[i]);
		if (bad) {
			req_free(&r);
			return bad < 0;
		}
	}
	rc = cli_ctld_rpc(REQUEST_ASSOC_MGR_INFO, &r, &resp);
	req_free(&r);
	if (rc) {
		fprintf(stderr, "slurm_load_assoc_mgr_info: %s\n",
			cli_comm_strerror(rc));
		return 1;
	}
	if (resp.type != RESPONSE_ASSOC_MGR_INFO || !resp.data) {
		rc = cli_resp_rc(&resp);
		fprintf(stderr, "slurm_load_assoc_mgr_info: %s\n",
			slurm_strerror(rc ? rc : SLURM_UNEXPECTED_MSG_ERROR));
		msg_free(&resp);
		return 1;
	}
	fputs(((const table_resp_msg_t *)resp.data)->msg ?: "", stdout);
	msg_free(&resp);
	return 0;
}
