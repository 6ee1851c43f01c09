/* status.c — scontrol show slurmd (see status.h). */
#include "slurmd/status.h"

#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/common/spool.h"

/* The steps with a live stepd: "<node>_<job>.batch" names its job,
 * "<node>_<job>.<step>" job.step, the extern step job.extern. */
static char *step_list(const slurmd_t *sd)
{
	DIR *d = opendir(sd->spool_dir);
	size_t nlen = strlen(sd->node->name);
	struct dirent *de;
	char *list = NULL;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		const char *dot, *id = de->d_name + nlen + 1;
		char *path;
		struct stat st;
		bool alive;

		if (strncmp(de->d_name, sd->node->name, nlen) ||
		    de->d_name[nlen] != '_' || !(dot = strchr(id, '.')))
			continue;
		path = xstrdup_printf("%s/%s", sd->spool_dir, de->d_name);
		alive = !lstat(path, &st) && S_ISSOCK(st.st_mode) &&
			spool_step_alive(path);
		xfree(path);
		if (!alive)
			continue;
		xstrfmtcat(&list, "%s%.*s", list ? ", " : "",
			   (int) (dot - id), id);
		if (!strcmp(dot, ".4294967295"))
			xstrcat(&list, ".extern");
		else if (strcmp(dot, ".batch"))
			xstrcat(&list, dot);
	}
	closedir(d);
	return list;
}

void status_reply(slurmd_t *sd, net_conn_t *conn)
{
	slurmd_status_msg_t s = {
		.step_list = step_list(sd),
		.cpus = sd->hw.cpus,
		.boards = sd->hw.boards,
		.sockets = sd->hw.sockets,
		.cores = sd->hw.cores,
		.threads = sd->hw.threads,
		.real_memory = sd->hw.real_memory,
		.tmp_disk = slurmd_tmp_disk_mb(sd->conf),
		.booted = sd->start_time,
		.last_ctld_msg = sd->last_ctld_msg,
		.pid = (uint32_t) getpid(),
		.debug = (uint16_t) log_get_level(),
		.hostname = sd->node->name,
		.log_file = sd->log_file,
		.version = SLUICE_VERSION_STRING,
	};

	net_reply(conn, RESPONSE_SLURMD_STATUS, &s);
	xfree(s.step_list);
}
