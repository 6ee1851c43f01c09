/* cli_resv.c — scontrol create/update/delete/show reservation and
 * sinfo -T (cli_resv.h), worded and laid out as Slurm 22.05's. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_resv.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* ---- parsing ---- */

static bool _key(const char *word, const char *key, const char **val)
{
	size_t n = strlen(key);

	if (strncasecmp(word, key, n) || word[n] != '=')
		return false;
	*val = word + n + 1;
	return true;
}

static int _time(const char *v, time_t *out)
{
	if (parse_time(v, time(NULL), out) < 0) {
		fprintf(stderr, "Invalid time specification (pos=0): %s\n", v);
		return -1;
	}
	return 0;
}

int cli_resv_parse(int argc, char **argv, resv_desc_t *d, bool update,
		   const char **bad, const char **why)
{
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i], *v;

		*bad = w;
		if (_key(w, "ReservationName", &v) ||
		    _key(w, "Reservation", &v)) {
			xfree(d->name);
			d->name = xstrdup(v);
		} else if (_key(w, "StartTime", &v)) {
			*why = "Invalid start time";
			if (_time(v, &d->start_time) < 0)
				return -1;
		} else if (_key(w, "EndTime", &v)) {
			*why = "Invalid end time";
			if (_time(v, &d->end_time) < 0)
				return -1;
		} else if (_key(w, "Duration", &v)) {
			*why = "Invalid duration";
			if (parse_duration_min(v, &d->duration) < 0)
				return -1;
		} else if (_key(w, "Nodes", &v) || _key(w, "NodeList", &v)) {
			xfree(d->node_list);
			d->node_list = xstrdup(v);
		} else if (_key(w, "NodeCnt", &v) ||
			   _key(w, "NodeCount", &v)) {
			*why = "Invalid node count";
			if (parse_u32(v, &d->node_cnt) < 0)
				return -1;
		} else if (_key(w, "CoreCnt", &v) ||
			   _key(w, "CoreCount", &v)) {
			*why = "Invalid core count";
			if (parse_u32(v, &d->core_cnt) < 0 || !d->core_cnt)
				return -1;
		} else if (_key(w, "Users", &v) || _key(w, "User", &v)) {
			xfree(d->users);
			d->users = xstrdup(v);
		} else if (_key(w, "Accounts", &v) ||
			   _key(w, "Account", &v)) {
			xfree(d->accounts);
			d->accounts = xstrdup(v);
		} else if (_key(w, "Groups", &v) || _key(w, "Group", &v)) {
			xfree(d->groups);
			d->groups = xstrdup(v);
		} else if (_key(w, "PartitionName", &v) ||
			   _key(w, "Partition", &v)) {
			xfree(d->partition);
			d->partition = xstrdup(v);
		} else if (_key(w, "Features", &v) ||
			   _key(w, "Feature", &v)) {
			xfree(d->features);
			d->features = xstrdup(v);
		} else if (_key(w, "Flags", &v) || _key(w, "Flag", &v)) {
			*why = "Error parsing flags";
			*bad = v;
			if (resv_flags_parse(v, &d->flags, &d->flags_clear,
					     &d->purge_comp_time) < 0 ||
			    (!update && d->flags_clear))
				return -1;
		} else {
			*why = "Unknown parameter";
			return -1;
		}
	}
	*bad = NULL;
	return 0;
}

static void _desc_free(resv_desc_t *d)
{
	fields_free(resv_desc_fields, d);
}

/* ---- create / update / delete ---- */

int scontrol_resv_create(int argc, char **argv, bool quiet)
{
	resv_desc_t d;
	slurm_msg_t resp;
	const char *bad = NULL, *why = NULL, *err = NULL;
	int rc, ret = 1;

	resv_desc_init(&d);
	if (cli_resv_parse(argc, argv, &d, false, &bad, &why) < 0) {
		if (!strcmp(why, "Invalid node count"))
			fprintf(stderr, "scontrol: error: %s %s\n", why,
				strchr(bad, '=') + 1);
		else
			fprintf(stderr, "scontrol: error: %s %s.  No "
				"reservation created.\n", why, bad);
		goto out;
	}
	if (!d.start_time)
		err = "A start time must be given";
	else if (!d.end_time && d.duration == NO_VAL32)
		err = "An end time or duration must be given";
	else if (!d.node_list && d.node_cnt == NO_VAL32 &&
		 d.core_cnt == NO_VAL32)
		err = "CoreCnt, Nodes, NodeCnt, BurstBuffer, Licenses or Watts "
		      "must be specified";
	else if ((d.flags & RESV_PART_NODES) &&
		 (!d.partition || xstrcasecmp(d.node_list, "ALL")))
		err = "PART_NODES flag requires specifying a Partition and "
		      "ALL nodes";
	else if (!d.users && !d.accounts && !d.groups)
		err = "Either Users/Groups and/or Accounts must be specified";
	if (err) {
		fprintf(stderr, "scontrol: error: %s.  No reservation "
			"created.\n", err);
		goto out;
	}
	rc = cli_ctld_rpc(REQUEST_CREATE_RESERVATION, &d, &resp);
	if (rc) {
		fprintf(stderr, "Error creating the reservation: %s\n",
			cli_comm_strerror(rc));
		goto out;
	}
	if (resp.type == RESPONSE_CREATE_RESERVATION && resp.data) {
		const resv_name_msg_t *n = resp.data;

		if (!quiet)
			printf("Reservation created: %s\n", n->name);
		ret = 0;
	} else {
		fprintf(stderr, "Error creating the reservation: %s\n",
			slurm_strerror(cli_resp_rc(&resp)));
		if (!d.node_list)
			fprintf(stderr, "Note, unless nodes are directly "
				"requested a reservation must exist in a "
				"single partition.\nIf no partition is "
				"requested the default partition is "
				"assumed.\n");
	}
	msg_free(&resp);
out:
	_desc_free(&d);
	return ret;
}

int scontrol_resv_update(int argc, char **argv, bool quiet)
{
	const char *bad = NULL, *why = NULL;
	resv_desc_t d;
	int rc = 0, err;

	resv_desc_init(&d);
	if (cli_resv_parse(argc, argv, &d, true, &bad, &why) < 0) {
		if (!strcmp(why, "Invalid node count"))
			fprintf(stderr, "scontrol: error: %s %s\n", why,
				strchr(bad, '=') + 1);
		else
			fprintf(stderr, "scontrol: error: %s %s.  No "
				"reservation update.\n", why, bad);
		fprintf(stderr, "slurm_update error: No error\n");
		_desc_free(&d);
		return 1;
	}
	err = cli_ctld_rpc_rc(REQUEST_UPDATE_RESERVATION, &d, &rc);
	_desc_free(&d);
	if (err || rc) {
		const char *s = err ? cli_comm_strerror(err) :
			slurm_strerror(rc);

		fprintf(stderr, "Error updating the reservation: %s\n", s);
		fprintf(stderr, "slurm_update error: %s\n", s);
		return 1;
	}
	if (!quiet)
		printf("Reservation updated.\n");
	return 0;
}

int scontrol_resv_delete(int argc, char **argv)
{
	resv_name_msg_t m = { 0 };
	const char *arg = argv[0], *eq = strchr(arg, '=');
	int rc = 0, err;

	m.name = (char *) (eq ? eq + 1 : argc > 1 ? argv[1] : "");
	err = cli_ctld_rpc_rc(REQUEST_DELETE_RESERVATION, &m, &rc);
	if (err || rc) {
		fprintf(stderr, "delete_reservation %s: %s\n",
			eq ? arg : m.name,
			err ? cli_comm_strerror(err) : slurm_strerror(rc));
		return 1;
	}
	return 0;
}

/* ---- show ---- */

/* 22.05's secs2time_str: "D-HH:MM:SS" or "HH:MM:SS". */
static void _dur(time_t secs, char *buf, size_t len)
{
	long long s = secs < 0 ? 0 : (long long) secs;

	if (s >= 86400)
		snprintf(buf, len, "%lld-%02lld:%02lld:%02lld", s / 86400,
			 s / 3600 % 24, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%02lld:%02lld:%02lld", s / 3600,
			 s / 60 % 60, s % 60);
}

static bool _active(const resv_info_t *r, time_t now)
{
	return r->start_time <= now && (!r->end_time || now < r->end_time);
}

static int _load(slurm_msg_t *resp, const char *what)
{
	info_request_msg_t req = { 0 };
	int rc = cli_ctld_rpc(REQUEST_RESERVATION_INFO, &req, resp);

	if (rc || resp->type != RESPONSE_RESERVATION_INFO) {
		fprintf(stderr, "%s error: %s\n", what,
			rc ? cli_comm_strerror(rc) :
			slurm_strerror(cli_resp_rc(resp)));
		if (!rc)
			msg_free(resp);
		return -1;
	}
	return 0;
}

int scontrol_resv_show(const char *name, bool one_liner, cli_doc_t doc)
{
	slurm_msg_t resp;
	const resv_info_msg_t *m;
	uint32_t shown = 0;
	bool *want;

	if (_load(&resp, "slurm_load_reservations") < 0)
		return 1;
	m = resp.data;
	want = xcalloc((size_t)m->cnt + 1, sizeof(*want));
	for (uint32_t i = 0; i < m->cnt; i++) {
		want[i] = !name || !strcmp(name, m->resvs[i].name);
		shown += want[i];
	}
	if (doc != CLI_DOC_NONE)
		cli_print_resvs_json(stdout, m, want, doc == CLI_DOC_YAML);
	for (uint32_t i = 0; doc == CLI_DOC_NONE && i < m->cnt; i++)
		if (want[i])
			cli_show_resv(stdout, &m->resvs[i], one_liner);
	if (doc == CLI_DOC_NONE && name && !shown)
		printf("Reservation %s not found\n", name);
	else if (doc == CLI_DOC_NONE && !shown)
		printf("No reservations in the system\n");
	xfree(want);
	msg_free(&resp);
	return name && !shown ? 1 : 0;
}

int sinfo_resv(bool header)
{
	slurm_msg_t resp;
	const resv_info_msg_t *m;
	time_t now = time(NULL);
	int w = 9;                 /* strlen("RESV_NAME") */

	if (_load(&resp, "slurm_load_reservations") < 0)
		return 1;
	m = resp.data;
	if (!m->cnt) {
		printf("No reservations in the system\n");
		msg_free(&resp);
		return 0;
	}
	if (header) {
		for (uint32_t i = 0; i < m->cnt; i++)
			if ((int) strlen(m->resvs[i].name) > w)
				w = (int) strlen(m->resvs[i].name);
		printf("%-*s  %8s  %19s  %19s  %11s  %s\n", w, "RESV_NAME",
		       "STATE", "START_TIME", "END_TIME", "DURATION",
		       "NODELIST");
	}
	for (uint32_t i = 0; i < m->cnt; i++) {
		const resv_info_t *r = &m->resvs[i];
		char st[32], et[32], du[32];

		fmt_time(r->start_time, st, sizeof(st));
		if (r->end_time)
			fmt_time(r->end_time, et, sizeof(et));
		else
			snprintf(et, sizeof(et), "Unknown");
		_dur(r->end_time ? r->end_time - r->start_time : 0, du,
		     sizeof(du));
		printf("%-*s  %8s  %19s  %19s  %11s  %s\n", w, r->name,
		       _active(r, now) ? "ACTIVE" : "INACTIVE", st, et, du,
		       r->node_list ? r->node_list : "");
	}
	msg_free(&resp);
	return 0;
}
