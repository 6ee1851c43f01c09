/* dbd_archive.c — sacctmgr archive dump and load (dbd_archive.h). */
#include "dbd/dbd_archive.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "dbd/dbd_private.h"
#include "dbd/dbd_purge.h"
#include "slurm/slurm_errno.h"

static void reply(return_code_msg_t *resp, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reply(return_code_msg_t *resp, int rc, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	resp->rc = rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	resp->msg = xstrdup(msg);
}

/* A Purge*After given with the request over slurmdbd.conf's. */
static int overlay(dbd_purge_t *purge, dbd_purge_kind_t kind,
		   const char *key, const char *val, return_code_msg_t *resp)
{
	if (!val)
		return 0;
	if (dbd_conf_parse_purge(val, &purge[kind]) < 0) {
		reply(resp, SLURM_ERROR, "Invalid purge string '%s' for %s",
		      val, key);
		return -1;
	}
	return 0;
}

static void dump(dbd_db_t *db, const dbd_conf_t *conf,
		 const dbd_archive_msg_t *req, return_code_msg_t *resp)
{
	static const struct { uint16_t bit; dbd_purge_kind_t kind; } map[] = {
		{ DBD_ARCHIVE_EVENTS, DBD_PURGE_EVENT },
		{ DBD_ARCHIVE_JOBS, DBD_PURGE_JOB },
		{ DBD_ARCHIVE_STEPS, DBD_PURGE_STEP },
		{ DBD_ARCHIVE_SUSPEND, DBD_PURGE_SUSPEND },
	};
	const char *dir = req->dir && req->dir[0] ? req->dir : conf->archive_dir;
	dbd_purge_t purge[DBD_PURGE_CNT];
	uint32_t archive = conf->archive;
	struct stat st;

	memcpy(purge, conf->purge, sizeof(purge));
	if (overlay(purge, DBD_PURGE_EVENT, "PurgeEventAfter",
		    req->purge_event, resp) ||
	    overlay(purge, DBD_PURGE_JOB, "PurgeJobAfter", req->purge_job,
		    resp) ||
	    overlay(purge, DBD_PURGE_STEP, "PurgeStepAfter", req->purge_step,
		    resp) ||
	    overlay(purge, DBD_PURGE_SUSPEND, "PurgeSuspendAfter",
		    req->purge_suspend, resp))
		return;
	if (req->kinds) {
		/* what the request names is archived, and only that */
		archive = 0;
		for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
			if (req->kinds & map[i].bit)
				archive |= 1u << map[i].kind;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		reply(resp, SLURM_ERROR, "Failed to stat %s: %s", dir,
		      strerror(errno ? errno : ENOTDIR));
		return;
	}
	if (dbd_purge_kinds(db, purge, archive, dir, time(NULL)) < 0) {
		reply(resp, SLURM_ERROR, "archive dump failed (slurmdbd's log "
		      "says why); nothing of a failed kind was purged");
		return;
	}
	reply(resp, SLURM_SUCCESS, "SUCCESS");
}

void dbd_archive_handle(dbd_db_t *db, const dbd_acct_ctx_t *ctx,
			const dbd_archive_msg_t *req, return_code_msg_t *resp)
{
	char err[512];
	uint64_t rows;

	if (dbd_admin_level(db, ctx->conf, ctx->uid) < DBD_ADMIN_SUPER) {
		error("Security violation, REQUEST_DBD_ARCHIVE from uid %u (%s)",
		      (unsigned)ctx->uid, ctx->peer);
		resp->rc = ESLURM_ACCESS_DENIED;
		return;
	}
	if (req->op == DBD_ARCHIVE_DUMP) {
		info("Archive dump requested by uid %u", (unsigned)ctx->uid);
		dump(db, ctx->conf, req, resp);
		return;
	}
	if (req->op != DBD_ARCHIVE_LOAD || !req->file || !req->file[0]) {
		reply(resp, SLURM_ERROR, "No archive file given to recover.");
		return;
	}
	if (dbd_archive_load(db, req->file, &rows, err, sizeof(err)) < 0) {
		error("Archive load of %s by uid %u failed: %s", req->file,
		      (unsigned)ctx->uid, err);
		reply(resp, SLURM_ERROR, "%s: %s", req->file, err);
		return;
	}
	info("Archive %s loaded by uid %u: %" PRIu64 " rows", req->file,
	     (unsigned)ctx->uid, rows);
	reply(resp, SLURM_SUCCESS, "%" PRIu64 " records loaded", rows);
}
