/* criu.c — CRIU dumps of the batch script's processes (criu.h). */
#include "slurmd/stepd/criu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/log.h"
#include "common/spawn.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define CRIU_LOG "dump.log"

static const char *const criu_paths[] = {
	"/usr/sbin/criu", "/usr/bin/criu", "/usr/local/sbin/criu", NULL,
};

static const char *criu_find(void)
{
	for (size_t i = 0; criu_paths[i]; i++)
		if (access(criu_paths[i], X_OK) == 0)
			return criu_paths[i];
	return NULL;
}

/* CRIU's reason: its "Error (file:line): text" lines, texts only, in
 * order (else the last line of its log). */
static void criu_reason(const char *log, int status, char *why, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[512], last[512] = "";
	size_t n;

	n = (size_t) snprintf(why, len, "criu dump %s %d", WIFEXITED(status) ?
			      "exited" : "killed by signal", WIFEXITED(status) ?
			      WEXITSTATUS(status) : WTERMSIG(status));
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && n < len) {
		char *e = strstr(line, "Error ("), *text;

		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		snprintf(last, sizeof(last), "%s", line);
		if (!e || !(text = strstr(e, "): ")))
			continue;
		text += 3;
		/* a helper's exit status says nothing of why */
		if (!strncmp(text, "exited, status=", 15))
			continue;
		n += (size_t) snprintf(why + n, len - n, "; %s", text);
	}
	fclose(f);
	if (!strchr(why, ';') && last[0] && n < len)
		snprintf(why + n, len - n, "; %s", last);
}

int stepd_criu_dump(stepd_t *sd, const char *dir, char *why, size_t len)
{
	const char *criu = criu_find();
	char *images = NULL, *log = NULL, pid[16];
	int status, err = 0, rc = -1;

	if (!criu) {
		snprintf(why, len, "criu is not installed on %s (Debian "
			 "package criu)", sd->node_name);
		return -1;
	}
	if (!sd->task_pid || sd->task_done) {
		snprintf(why, len, "the batch script is not running");
		return -1;
	}
	if (!dir || dir[0] != '/') {
		snprintf(why, len, "no checkpoint directory");
		return -1;
	}
	images = xstrdup_printf("%s/criu", dir);
	log = xstrdup_printf("%s/%s", images, CRIU_LOG);
	if (mkdir(images, 0700) < 0 && errno != EEXIST) {
		snprintf(why, len, "cannot create %s: %s", images,
			 strerror(errno));
		goto out;
	}
	if (chown(images, sd->job->uid, sd->job->gid) < 0)
		debug("JobId=%u: chown %s: %m", sd->job->job_id, images);
	snprintf(pid, sizeof(pid), "%d", (int) sd->task_pid);
	{
		char *argv[] = { (char *) "criu", (char *) "dump", "-t", pid,
				 "-D", images, "-o", (char *) CRIU_LOG,
				 "--shell-job", "--leave-running", "-v2",
				 NULL };

		info("JobId=%u: %s dump -t %s -D %s", sd->job->job_id, criu,
		     pid, images);
		status = spawn_wait(criu, argv, NULL, images, &err);
	}
	if (status < 0) {
		snprintf(why, len, "cannot run %s: %s", criu, strerror(err));
		goto out;
	}
	if (chown(log, sd->job->uid, sd->job->gid) < 0)
		debug("JobId=%u: chown %s: %m", sd->job->job_id, log);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		criu_reason(log, status, why, len);
		goto out;
	}
	rc = 0;
out:
	if (rc)
		error("JobId=%u: CRIU dump failed: %s", sd->job->job_id, why);
	xfree(images);
	xfree(log);
	return rc;
}
