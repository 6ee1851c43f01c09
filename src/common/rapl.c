/* rapl.c — powercap RAPL energy counters (rapl.h). */
#define _GNU_SOURCE
#include "common/rapl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define POWERCAP_DIR "/sys/class/powercap"
#define RAPL_MAX_ZONES 64

typedef struct {
	char     *path;           /* .../energy_uj */
	uint64_t  range;          /* max_energy_range_uj, 0 = unknown */
	uint64_t  last;
} zone_t;

struct rapl {
	zone_t   *z;
	size_t    cnt;
	char     *paths;
	uint64_t  total_uj;
	uint64_t  prev_total_uj;  /* at the poll before the last */
	double    prev_t, last_t;
	bool      polled;
};

const char *rapl_root(void)
{
	const char *e = getenv("SLUICE_POWERCAP_DIR");

	return e && *e ? e : POWERCAP_DIR;
}

int rapl_parse_value(const char *text, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len && text[len - 1] == '\n')
		len--;
	if (!len || len > 20)
		return -1;
	for (i = 0; i < len; i++) {
		unsigned d = (unsigned char) text[i] - '0';

		if (d > 9 || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

uint64_t rapl_delta(uint64_t prev, uint64_t cur, uint64_t range)
{
	if (cur >= prev)
		return cur - prev;
	if (!range || prev > range)
		return 0;
	return range - prev + cur;
}

static int read_value(const char *path, uint64_t *out)
{
	char buf[32];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return -1;
	return rapl_parse_value(buf, (size_t) n, out);
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static int zone_cmp(const void *a, const void *b)
{
	return strcmp(((const zone_t *) a)->path, ((const zone_t *) b)->path);
}

rapl_t *rapl_open(char **why)
{
	const char *root = rapl_root();
	DIR *d = opendir(root);
	struct dirent *de;
	rapl_t *r;

	*why = NULL;
	if (!d) {
		*why = xstrdup_printf("no RAPL energy counters under %s (%s)",
				      root, strerror(errno));
		return NULL;
	}
	r = xmalloc(sizeof(*r));
	while ((de = readdir(d)) && r->cnt < RAPL_MAX_ZONES) {
		char *p, *rp;
		uint64_t v;

		/* packages: intel-rapl:0, intel-rapl:1 (not their subzones) */
		if (strncmp(de->d_name, "intel-rapl:", 11) ||
		    strchr(de->d_name + 11, ':'))
			continue;
		p = xstrdup_printf("%s/%s/energy_uj", root, de->d_name);
		if (read_value(p, &v) < 0) {
			xfree(p);
			continue;
		}
		r->z = xrealloc(r->z, (r->cnt + 1) * sizeof(zone_t));
		r->z[r->cnt].path = p;
		r->z[r->cnt].last = v;
		rp = xstrdup_printf("%s/%s/max_energy_range_uj", root,
				    de->d_name);
		if (read_value(rp, &r->z[r->cnt].range) < 0)
			r->z[r->cnt].range = 0;
		xfree(rp);
		r->cnt++;
	}
	closedir(d);
	if (!r->cnt) {
		*why = xstrdup_printf("no RAPL energy counters under %s (no "
				      "readable intel-rapl:N/energy_uj)", root);
		rapl_close(r);
		return NULL;
	}
	qsort(r->z, r->cnt, sizeof(zone_t), zone_cmp);
	for (size_t i = 0; i < r->cnt; i++)
		xstrfmtcat(&r->paths, "%s%s", i ? " " : "", r->z[i].path);
	r->last_t = now_sec();
	return r;
}

int rapl_poll(rapl_t *r)
{
	uint64_t *v = xcalloc(r->cnt, sizeof(uint64_t)), add = 0;
	size_t i;

	for (i = 0; i < r->cnt; i++)
		if (read_value(r->z[i].path, &v[i]) < 0) {
			xfree(v);
			return -1;
		}
	for (i = 0; i < r->cnt; i++) {
		add += rapl_delta(r->z[i].last, v[i], r->z[i].range);
		r->z[i].last = v[i];
	}
	xfree(v);
	r->prev_total_uj = r->total_uj;
	r->total_uj += add;
	r->prev_t = r->last_t;
	r->last_t = now_sec();
	r->polled = true;
	return 0;
}

uint64_t rapl_total_uj(const rapl_t *r)
{
	return r ? r->total_uj : 0;
}

uint32_t rapl_current_watts(const rapl_t *r)
{
	double dt;

	if (!r || !r->polled || (dt = r->last_t - r->prev_t) <= 0.001)
		return 0;
	return (uint32_t) ((double) (r->total_uj - r->prev_total_uj) / 1e6 /
			   dt + 0.5);
}

const char *rapl_paths(const rapl_t *r)
{
	return r ? r->paths : "";
}

void rapl_close(rapl_t *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->cnt; i++)
		xfree(r->z[i].path);
	xfree(r->z);
	xfree(r->paths);
	xfree(r);
}
