/* step_pids.c — the processes of a step (step_pids.h). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "slurmd/common/step_pids.h"

void step_pids_add(step_pids_msg_t *m, uint32_t job_id, uint32_t step_id,
		   uint32_t pid, uint32_t lid, uint32_t gtid, uint32_t uid)
{
	size_t n = m->cnt + 1;

	if (m->cnt >= STEP_PIDS_MAX)
		return;
	m->job_ids = xrealloc(m->job_ids, n * sizeof(uint32_t));
	m->step_ids = xrealloc(m->step_ids, n * sizeof(uint32_t));
	m->pids = xrealloc(m->pids, n * sizeof(uint32_t));
	m->lids = xrealloc(m->lids, n * sizeof(uint32_t));
	m->gtids = xrealloc(m->gtids, n * sizeof(uint32_t));
	m->uids = xrealloc(m->uids, n * sizeof(uint32_t));
	m->job_ids[m->cnt] = job_id;
	m->step_ids[m->cnt] = step_id;
	m->pids[m->cnt] = pid;
	m->lids[m->cnt] = lid;
	m->gtids[m->cnt] = gtid;
	m->uids[m->cnt++] = uid;
}

bool step_pids_has(const step_pids_msg_t *m, uint32_t pid)
{
	for (uint32_t i = 0; i < m->cnt; i++)
		if (m->pids[i] == pid)
			return true;
	return false;
}

void step_pids_add_step(step_pids_msg_t *m, uint32_t job_id,
			uint32_t step_id, uint32_t uid)
{
	step_pids_add(m, job_id, step_id, 0, NO_VAL32, NO_VAL32, uid);
}

/* pid -> parent pid of every process, from /proc/<pid>/stat. */
typedef struct {
	pid_t pid, ppid;
} proc_t;

static proc_t *_procs(size_t *cnt)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	proc_t *v = NULL;
	size_t n = 0;

	while (d && (e = readdir(d))) {
		char path[300], buf[512], *rp;
		FILE *f;
		int ppid;

		if (!isdigit((unsigned char) e->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		buf[0] = '\0';
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
		/* "pid (comm) S ppid ...": comm may hold blanks and ')' */
		if (!(rp = strrchr(buf, ')')) || sscanf(rp + 1, " %*c %d",
							  &ppid) != 1)
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n].pid = (pid_t) atoi(e->d_name);
		v[n++].ppid = (pid_t) ppid;
	}
	if (d)
		closedir(d);
	*cnt = n;
	return v;
}

void step_pids_add_descendants(step_pids_msg_t *m, uint32_t job_id,
			       uint32_t step_id, uint32_t uid)
{
	size_t n = 0, head = 0, tail = 0;
	proc_t *v = _procs(&n);
	pid_t *queue = xcalloc(n + 1, sizeof(pid_t));

	queue[tail++] = getpid();
	while (head < tail) {
		pid_t parent = queue[head++];

		for (size_t i = 0; i < n && tail < n + 1; i++) {
			if (v[i].ppid != parent)
				continue;
			queue[tail++] = v[i].pid;
			if (!step_pids_has(m, (uint32_t) v[i].pid))
				step_pids_add(m, job_id, step_id,
					      (uint32_t) v[i].pid, NO_VAL32,
					      NO_VAL32, uid);
		}
	}
	xfree(queue);
	xfree(v);
}

void step_pids_append(step_pids_msg_t *dst, const step_pids_msg_t *src)
{
	for (uint32_t i = 0; src && i < src->cnt; i++)
		step_pids_add(dst, src->job_ids[i], src->step_ids[i],
			      src->pids[i], src->lids[i], src->gtids[i],
			      src->uids[i]);
}
