/* cli_sacctmgr_archive.c — `sacctmgr archive dump` and `sacctmgr archive
 * load` (cli_sacctmgr.h): slurmdbd archives and purges now, or loads an
 * archive file on its host back into the database. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli_common.h"
#include "cli/cli_sacctmgr.h"
#include "common/log.h"
#include "common/msg_types.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "slurm/slurm_errno.h"

#define ARCHIVE_TIMEOUT_MS (30 * 60 * 1000)   /* a large purge is long */

/* word is key (case-insensitive, at least 3 letters of it) with "=val"
 * (*val set) or, when want_val is false, without. */
static bool is_key(const char *word, const char *key, bool want_val,
		   const char **val)
{
	const char *eq = strchr(word, '=');
	size_t n = eq ? (size_t)(eq - word) : strlen(word);

	if (n < 3 || n > strlen(key) || strncasecmp(word, key, n) ||
	    !eq != !want_val)
		return false;
	if (val)
		*val = eq ? eq + 1 : NULL;
	return true;
}

/* "12months", "30days", "24hours", "6": the forms slurmdbd.conf takes. */
static bool purge_ok(const char *s)
{
	static const char *const units[] = { "", "hour", "hours", "day",
					     "days", "month", "months" };
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	(void)strtoul(s, &end, 10);
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i]))
			return true;
	return false;
}

static int send_archive(dbd_archive_msg_t *req)
{
	const slurm_conf_t *conf = cli_conf();
	const char *host = conf->accounting_storage_host ?
		conf->accounting_storage_host : "localhost";
	slurm_msg_t resp = { 0 };
	const return_code_msg_t *r;
	int rc;

	rc = net_rpc(host, conf->accounting_storage_port, REQUEST_DBD_ARCHIVE,
		     req, &resp, ARCHIVE_TIMEOUT_MS);
	if (rc) {
		error("Problem talking to the database: %s",
		      slurm_strerror(rc));
		return 1;
	}
	r = resp.type == RESPONSE_SLURM_RC ? resp.data : NULL;
	rc = r ? r->rc : SLURM_UNEXPECTED_MSG_ERROR;
	if (req->op == DBD_ARCHIVE_DUMP && !rc) {
		fprintf(stderr, "sacctmgr: accounting_storage/slurmdbd: "
			"jobacct_storage_p_archive: SUCCESS\n");
	} else if (req->op == DBD_ARCHIVE_DUMP) {
		error("%s", r && r->msg ? r->msg : slurm_strerror(rc));
	} else if (!rc) {
		printf("%s\n", r->msg ? r->msg : "SUCCESS");
	} else {
		error("Error with request.");
		fprintf(stderr, " Problem loading archive file: %s\n"
			" Note: For archive load, the file must be accessible "
			"on the slurmdbd host.\n",
			r && r->msg ? r->msg : slurm_strerror(rc));
	}
	msg_free(&resp);
	return rc ? 1 : 0;
}

static int dump(int argc, char **argv)
{
	static const struct { const char *key; uint16_t bit; } kinds[] = {
		{ "Events", DBD_ARCHIVE_EVENTS }, { "Jobs", DBD_ARCHIVE_JOBS },
		{ "Steps", DBD_ARCHIVE_STEPS },
		{ "Suspend", DBD_ARCHIVE_SUSPEND },
	};
	dbd_archive_msg_t req = { .op = DBD_ARCHIVE_DUMP };
	struct {
		const char *key;
		char      **dst;
	} purges[] = {
		{ "PurgeEventAfter", &req.purge_event },
		{ "PurgeJobAfter", &req.purge_job },
		{ "PurgeStepAfter", &req.purge_step },
		{ "PurgeSuspendAfter", &req.purge_suspend },
	};
	const char *val;
	struct stat st;

	for (int i = 0; i < argc; i++) {
		bool known = false;

		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (is_key(argv[i], kinds[k].key, false, NULL)) {
				req.kinds |= kinds[k].bit;
				known = true;
			}
		for (size_t k = 0; k < sizeof(purges) / sizeof(purges[0]); k++)
			if (is_key(argv[i], purges[k].key, true, &val)) {
				if (!purge_ok(val)) {
					error("Invalid purge string '%s'", val);
					return 1;
				}
				*purges[k].dst = (char *)val;
				known = true;
			}
		if (is_key(argv[i], "Directory", true, &val)) {
			req.dir = (char *)val;
			known = true;
		} else if (is_key(argv[i], "Script", true, &val)) {
			error("archive dump Script= is not supported: slurmdbd "
			      "writes the archive files itself");
			return 1;
		}
		if (!known) {
			fprintf(stderr, " Unknown option: %s\n Use keyword "
				"'where' to modify condition\n", argv[i]);
			return 1;
		}
	}
	/* as Slurm: the directory is checked where the command runs */
	if (req.dir && (stat(req.dir, &st) < 0 || !S_ISDIR(st.st_mode))) {
		fprintf(stderr, " dump: Failed to stat %s: %s\n Note: For "
			"archive dump, the directory must be on the calling "
			"host.\n", req.dir, strerror(errno ? errno : ENOTDIR));
		return 1;
	}
	return send_archive(&req);
}

static int load(int argc, char **argv)
{
	dbd_archive_msg_t req = { .op = DBD_ARCHIVE_LOAD };
	const char *val;

	for (int i = 0; i < argc; i++) {
		if (is_key(argv[i], "File", true, &val)) {
			req.file = (char *)val;
		} else if (is_key(argv[i], "Insert", true, &val)) {
			error("archive load Insert= is not supported: load an "
			      "archive file with File=");
			return 1;
		} else if (!strchr(argv[i], '=') && !req.file) {
			req.file = argv[i];
		} else {
			fprintf(stderr, " Unknown option: %s\n", argv[i]);
			return 1;
		}
	}
	if (!req.file || !req.file[0]) {
		error("No archive file given to recover.");
		return 1;
	}
	return send_archive(&req);
}

bool cli_sacctmgr_is_archive(const char *word)
{
	size_t n = strlen(word);

	return n >= 3 && n <= 7 && !strncasecmp(word, "archive", n);
}

int cli_sacctmgr_archive(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";
	size_t n = strlen(what);

	if (n && !strncasecmp(what, "dump", n))
		return dump(argc - 2, argv + 2);
	if (n && !strncasecmp(what, "load", n))
		return load(argc - 2, argv + 2);
	fprintf(stderr, "No valid entity in archive command\nInput line must "
		"include, \"Dump\", or \"load\"\n");
	return 1;
}
