/* spool.c — SlurmdSpoolDir names and housekeeping (see spool.h). */
#define _GNU_SOURCE
#include "slurmd/common/spool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "common/net.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define SOCKET_SUFFIX ".batch"

char *spool_job_dir(const char *spool, uint32_t job_id)
{
	return xstrdup_printf("%s/job%05u", spool, job_id);
}

char *spool_script_path(const char *spool, uint32_t job_id)
{
	return xstrdup_printf("%s/job%05u/slurm_script", spool, job_id);
}

char *spool_step_socket(const char *spool, const char *node, uint32_t job_id)
{
	return xstrdup_printf("%s/%s_%u" SOCKET_SUFFIX, spool, node, job_id);
}

bool spool_step_alive(const char *path)
{
	int fd = net_connect_unix(path);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* "<node>_<id>.batch" -> id; false if name is not one of node's sockets. */
static bool parse_socket_name(const char *name, const char *node,
			      uint32_t *job_id)
{
	size_t nlen = strlen(node);
	char *end;
	unsigned long v;

	if (strncmp(name, node, nlen) || name[nlen] != '_')
		return false;
	errno = 0;
	v = strtoul(name + nlen + 1, &end, 10);
	if (errno || end == name + nlen + 1 || strcmp(end, SOCKET_SUFFIX) ||
	    v == 0 || v > UINT32_MAX)
		return false;
	*job_id = (uint32_t) v;
	return true;
}

uint32_t spool_live_jobs(const char *spool, const char *node, uint32_t **ids)
{
	DIR *d = opendir(spool);
	struct dirent *de;
	uint32_t cnt = 0, cap = 0;

	*ids = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		uint32_t id;
		char *path;

		if (!parse_socket_name(de->d_name, node, &id))
			continue;
		path = xstrdup_printf("%s/%s", spool, de->d_name);
		if (spool_step_alive(path)) {
			if (cnt == cap) {
				cap = cap ? cap * 2 : 16;
				*ids = xrealloc(*ids, cap * sizeof(**ids));
			}
			(*ids)[cnt++] = id;
		} else {
			debug("removing stale step socket %s", path);
			unlink(path);
		}
		xfree(path);
	}
	closedir(d);
	return cnt;
}

static bool job_is_live(const uint32_t *ids, uint32_t cnt, uint32_t id)
{
	for (uint32_t i = 0; i < cnt; i++) {
		if (ids[i] == id)
			return true;
	}
	return false;
}

void spool_clear_stale(const char *spool, const char *node)
{
	uint32_t *ids = NULL;
	uint32_t cnt = spool_live_jobs(spool, node, &ids);
	DIR *d = opendir(spool);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *end;
		unsigned long id;
		char *path;

		if (strncmp(de->d_name, "job", 3))
			continue;
		id = strtoul(de->d_name + 3, &end, 10);
		if (*end || end == de->d_name + 3 || job_is_live(ids, cnt, id))
			continue;
		path = xstrdup_printf("%s/%s", spool, de->d_name);
		info("clearing stale job directory %s", path);
		spool_remove_tree(path);
		xfree(path);
	}
	if (d)
		closedir(d);
	xfree(ids);
}

/* Empty the directory open at dfd, never following a symbolic link: each
 * level is opened relative to its parent with O_NOFOLLOW, so a user who
 * swaps a directory for a link cannot point root elsewhere. */
static void empty_dir(int dfd, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;

	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d))) {
		int sub;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == 0 || errno != EISDIR)
			continue;
		sub = openat(dirfd(d), de->d_name,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0 && depth < 64)
			empty_dir(sub, depth + 1);
		else if (sub >= 0)
			close(sub);
		unlinkat(dirfd(d), de->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

int spool_remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return unlink(path);
	}
	empty_dir(fd, 0);
	return rmdir(path);
}
