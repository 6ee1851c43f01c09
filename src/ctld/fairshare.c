/* fairshare.c — usage per association and the fair-share factor (Fair
 * Tree in fairtree.c, or classic) (fairshare.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <utlist.h>

#include <event2/event.h>

#include "common/log.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "ctld/assoc_mgr.h"
#include "ctld/controller.h"
#include "ctld/fairshare.h"
#include "ctld/fairtree.h"
#include "ctld/job_mgr.h"
#include "ctld/priority.h"
#include "ctld/rpc.h"
#include "slurm/slurm_errno.h"

#define FS_FILE    "fairshare_state"
#define FS_MAGIC   "SLUICE_FAIRSHARE 1"

typedef enum {
	RESET_NONE, RESET_NOW, RESET_DAILY, RESET_WEEKLY, RESET_MONTHLY,
	RESET_QUARTERLY, RESET_YEARLY,
} fs_reset_t;

/* Raw usage of one association (or QOS: FS_QOS_KEY) as of ts (decay
 * after ts not applied): CPU-seconds and wall-seconds. */
typedef struct {
	uint32_t id;
	double   usage;
	time_t   ts;
	double   wall;
} fs_usage_t;

/* QOS usage is kept in the same table under this bit (ids are small). */
#define FS_QOS_KEY 0x80000000u

/* A job charged at its end since the last period (not to charge twice). */
typedef struct {
	uint32_t job_id;
	time_t   end;
} fs_ended_t;

/* Per association, computed from a snapshot (see fs_calc). */
typedef struct {
	assoc_rec_t *a;
	int          parent;       /* index, -1 for root */
	double       own, sub;     /* decayed usage: own, with below it */
	double       norm_shares, eff_usage, factor;
	double       level_fs;     /* Fair Tree; NAN when not shown */
	double       kid_shares;   /* sum of its children's shares */
} fs_node_t;

/* An association of the last computed tree and its parent's id (0 at
 * the top), sorted by id: where a deleted association's usage goes. */
typedef struct {
	uint32_t id, parent;
} fs_link_t;

/* Association pointer -> node index, sorted by pointer. */
typedef struct {
	const assoc_rec_t *a;
	int                idx;
} fs_ptr_t;

static struct {
	bool         on;
	bool         fair_tree;    /* else classic (NO_FAIR_TREE) */
	double       half_life;    /* s, 0 = no decay */
	fs_reset_t   reset;
	uint32_t     period;       /* s */
	char        *path;
	fs_usage_t  *u;            /* sorted by id */
	size_t       nu;
	fs_ended_t  *ended;
	size_t       nended;
	time_t       last_tick;
	time_t       last_reset;
	struct event *ev;
	/* cache of the computed tree */
	fs_node_t   *nodes;
	fs_ptr_t    *by_ptr;
	size_t       nnodes;
	fs_link_t   *links;
	size_t       nlinks;
	uint64_t     gen;
	time_t       calc_time;
	uint64_t     version, calc_version;
} fs;

/* ---- configuration ---- */

static const char *conf_val(const slurm_conf_t *c, const char *key)
{
	const char *s = conf_get(c, key);

	return s && *s && strcmp(s, "(null)") ? s : NULL;
}

static int load_conf(const slurm_conf_t *c, char *err, size_t errlen)
{
	static const char *const resets[] = {
		"NONE", "NOW", "DAILY", "WEEKLY", "MONTHLY", "QUARTERLY",
		"YEARLY",
	};
	const char *s = conf_val(c, "PriorityDecayHalfLife");
	uint32_t v = 7 * 86400, m = 5;

	if (s && parse_duration_sec(s, &v) < 0) {
		snprintf(err, errlen, "Invalid PriorityDecayHalfLife=%s", s);
		return -1;
	}
	fs.half_life = v;
	fs.reset = RESET_NONE;
	if ((s = conf_val(c, "PriorityUsageResetPeriod"))) {
		size_t i;

		for (i = 0; i < sizeof(resets) / sizeof(resets[0]); i++)
			if (!strcasecmp(s, resets[i]))
				break;
		if (i == sizeof(resets) / sizeof(resets[0])) {
			snprintf(err, errlen, "Invalid PriorityUsageResetPeriod"
				 "=%s", s);
			return -1;
		}
		fs.reset = (fs_reset_t)i;
	}
	if ((s = conf_val(c, "PriorityCalcPeriod")) &&
	    parse_duration_min(s, &m) < 0) {
		snprintf(err, errlen, "Invalid PriorityCalcPeriod=%s", s);
		return -1;
	}
	fs.period = m ? m * 60 : 300;
	fs.fair_tree = true;
	if ((s = conf_val(c, "PriorityFlags"))) {
		char **flags = xstrsplit(s, ",", NULL);

		for (size_t i = 0; flags[i]; i++)
			if (!strcasecmp(flags[i], "NO_FAIR_TREE"))
				fs.fair_tree = false;
		xstrarray_free(flags);
	}
	return 0;
}

/* ---- usage ---- */

static double decay_factor(const fs_usage_t *u, time_t now)
{
	if (!fs.half_life || now <= u->ts)
		return 1.0;
	return pow(2.0, -(double)(now - u->ts) / fs.half_life);
}

static double decayed(const fs_usage_t *u, time_t now)
{
	return u->usage * decay_factor(u, now);
}

static fs_usage_t *usage_find(uint32_t id, bool add)
{
	size_t lo = 0, hi = fs.nu;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (fs.u[mid].id == id)
			return &fs.u[mid];
		if (fs.u[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!add)
		return NULL;
	fs.u = xrealloc(fs.u, (fs.nu + 1) * sizeof(*fs.u));
	memmove(&fs.u[lo + 1], &fs.u[lo], (fs.nu - lo) * sizeof(*fs.u));
	fs.u[lo] = (fs_usage_t){ .id = id };
	fs.nu++;
	return &fs.u[lo];
}

static void usage_add(uint32_t id, double amount, double wall, time_t now)
{
	fs_usage_t *u = usage_find(id, true);
	double f = decay_factor(u, now);

	u->usage = u->usage * f + amount;
	u->wall = u->wall * f + wall;
	u->ts = now;
	fs.version++;
}

/* What a second of j costs: its billing TRES (TRESBillingWeights of its
 * partition; the CPU count without them), as its allocation says. */
static double _billing(const job_record_t *j)
{
	const char *t = j->info.tres_alloc_str, *b;

	b = t ? strstr(t, "billing=") : NULL;
	if (b && (b == t || b[-1] == ','))
		return strtod(b + strlen("billing="), NULL);
	return (double) j->info.num_cpus;
}

/* Billing-seconds of j in [from, to), times its QOS's UsageFactor, to
 * its association, its QOS and its partition's QOS. */
static double charge(job_record_t *j, time_t from, time_t to, time_t now)
{
	assoc_rec_t *a;
	assoc_qos_t *q, *pq;
	double amount;

	if (to <= from || !assoc_mgr_loaded())
		return 0;
	a = assoc_mgr_find(j->info.user_id, j->info.account,
			   j->info.partition);
	if (!a)
		return 0;
	q = j->info.qos && j->info.qos[0] ? assoc_mgr_qos(j->info.qos) : NULL;
	amount = _billing(j) * (double)(to - from) *
		 (q ? q->usage_factor : 1.0);
	usage_add(a->id, amount, (double)(to - from), now);
	if (q)
		usage_add(FS_QOS_KEY | q->id, amount, (double)(to - from), now);
	/* the partition's QOS counts the job too (its GrpTRESMins) */
	if ((pq = assoc_mgr_part_qos(j->part)) && pq != q)
		usage_add(FS_QOS_KEY | pq->id, amount, (double)(to - from),
			  now);
	return amount;
}

/* ---- usage resets ---- */

static time_t next_reset(time_t after)
{
	struct tm tm;

	localtime_r(&after, &tm);
	tm.tm_sec = tm.tm_min = tm.tm_hour = 0;
	tm.tm_isdst = -1;
	switch (fs.reset) {
	case RESET_DAILY:
		tm.tm_mday++;
		break;
	case RESET_WEEKLY:                 /* Sunday 00:00 */
		tm.tm_mday += 7 - tm.tm_wday;
		break;
	case RESET_MONTHLY:
		tm.tm_mday = 1;
		tm.tm_mon++;
		break;
	case RESET_QUARTERLY:
		tm.tm_mday = 1;
		tm.tm_mon = tm.tm_mon / 3 * 3 + 3;
		break;
	case RESET_YEARLY:
		tm.tm_mday = 1;
		tm.tm_mon = 0;
		tm.tm_year++;
		break;
	default:
		return 0;
	}
	return mktime(&tm);
}

static void reset_usage(time_t now, const char *why)
{
	info("fairshare: usage reset (%s)", why);
	xfree(fs.u);
	fs.nu = 0;
	fs.last_reset = now;
	fs.version++;
}

static void maybe_reset(time_t now)
{
	time_t at;

	if (fs.reset == RESET_NONE || fs.reset == RESET_NOW)
		return;
	at = next_reset(fs.last_reset ? fs.last_reset : now);
	if (!fs.last_reset)
		fs.last_reset = now;
	else if (at && now >= at)
		reset_usage(now, "PriorityUsageResetPeriod");
}

/* ---- state file ---- */

static void save_state(void)
{
	char *tmp, *text = NULL;
	FILE *f;

	if (!fs.path)
		return;
	xstrfmtcat(&text, "%s\nlast_tick %" PRId64 "\nlast_reset %" PRId64
		   "\n", FS_MAGIC, (int64_t)fs.last_tick,
		   (int64_t)fs.last_reset);
	for (size_t i = 0; i < fs.nu; i++)
		xstrfmtcat(&text, "u %u %.17g %" PRId64 " %.17g\n",
			   fs.u[i].id, fs.u[i].usage, (int64_t)fs.u[i].ts,
			   fs.u[i].wall);
	for (size_t i = 0; i < fs.nended; i++)
		xstrfmtcat(&text, "e %u %" PRId64 "\n", fs.ended[i].job_id,
			   (int64_t)fs.ended[i].end);
	tmp = xstrdup_printf("%s.new", fs.path);
	f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fflush(f) || fsync(fileno(f))) {
		error("fairshare: writing %s: %s", tmp, strerror(errno));
		if (f)
			fclose(f);
	} else if (fclose(f) || rename(tmp, fs.path) < 0) {
		error("fairshare: saving %s: %s", fs.path, strerror(errno));
	}
	xfree(tmp);
	xfree(text);
}

/* One line of the state file; false if it is malformed. */
/* Times in the file: from the epoch to the year 9999, so that the
 * decay's "now - ts" can never overflow. */
static bool sane_time(int64_t t)
{
	return t >= 0 && t <= INT64_C(253402300799);
}

static bool load_line(const char *line)
{
	int64_t a, b;
	unsigned id;
	double u, w = 0;
	char extra;
	int n;

	if (sscanf(line, "last_tick %" SCNd64 " %c", &a, &extra) == 1 &&
	    sane_time(a)) {
		fs.last_tick = (time_t)a;
	} else if (sscanf(line, "last_reset %" SCNd64 " %c", &a,
			  &extra) == 1 && sane_time(a)) {
		fs.last_reset = (time_t)a;
	} else if ((n = sscanf(line, "u %u %lf %" SCNd64 " %lf %c", &id, &u,
			       &b, &w, &extra)) >= 3 && n <= 4 &&
		   isfinite(u) && u >= 0 && isfinite(w) && w >= 0 &&
		   sane_time(b)) {
		fs_usage_t *e = usage_find(id, true);

		e->usage = u;
		e->ts = (time_t)b;
		e->wall = w;
	} else if (sscanf(line, "e %u %" SCNd64 " %c", &id, &b,
			  &extra) == 2 && sane_time(b)) {
		fs.ended = xrealloc(fs.ended, (fs.nended + 1) *
				    sizeof(*fs.ended));
		fs.ended[fs.nended++] = (fs_ended_t){ id, (time_t)b };
	} else {
		return false;
	}
	return true;
}

static void load_state(void)
{
	FILE *f = fopen(fs.path, "r");
	char line[256];
	unsigned n = 0;

	if (!f) {
		if (errno != ENOENT)
			error("fairshare: %s: %s", fs.path, strerror(errno));
		return;
	}
	if (!fgets(line, sizeof(line), f) || strncmp(line, FS_MAGIC,
						     strlen(FS_MAGIC))) {
		error("fairshare: %s is not a fair-share state file, ignored",
		      fs.path);
		fclose(f);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (!load_line(line)) {
			error("fairshare: %s: bad line %u ignored", fs.path,
			      n + 2);
			continue;
		}
		n++;
	}
	fclose(f);
	verbose("fairshare: recovered usage of %zu associations", fs.nu);
}

/* ---- the tree ---- */

static int ptr_cmp(const void *x, const void *y)
{
	uintptr_t a = (uintptr_t)((const fs_ptr_t *)x)->a;
	uintptr_t b = (uintptr_t)((const fs_ptr_t *)y)->a;

	return a < b ? -1 : a > b;
}

static int node_index(const assoc_rec_t *a)
{
	fs_ptr_t key = { .a = a }, *hit;

	if (!a || !fs.by_ptr)
		return -1;
	hit = bsearch(&key, fs.by_ptr, fs.nnodes, sizeof(fs_ptr_t), ptr_cmp);
	return hit ? hit->idx : -1;
}

static double norm_of(size_t i, int depth)
{
	fs_node_t *n = &fs.nodes[i];

	if (n->norm_shares >= 0 || depth > 64)
		return n->norm_shares < 0 ? 0 : n->norm_shares;
	if (n->parent < 0) {
		n->norm_shares = 1.0;
	} else if (n->a->shares == FAIRTREE_SHARES_PARENT) {
		n->norm_shares = norm_of((size_t)n->parent, depth + 1);
	} else {
		double sib = fs.nodes[n->parent].kid_shares;

		n->norm_shares = sib > 0 ? (double)n->a->shares / sib *
			norm_of((size_t)n->parent, depth + 1) : 0;
	}
	return n->norm_shares;
}

/* Classic EffectvUsage as Slurm's: children of root their share of the
 * cluster's usage U; below, U + (parent's EffectvUsage - U) x shares /
 * the siblings' shares, 0 while the parent has no usage. */
static double eff_of(size_t i, double total, int depth)
{
	fs_node_t *n = &fs.nodes[i], *p;
	double u;

	if (n->eff_usage >= 0 || depth > 64)
		return n->eff_usage < 0 ? 0 : n->eff_usage;
	if (n->parent < 0)
		return n->eff_usage = 1.0;
	p = &fs.nodes[n->parent];
	u = total > 0 ? n->sub / total : 0;
	if (n->a->shares == FAIRTREE_SHARES_PARENT)
		n->eff_usage = eff_of((size_t)n->parent, total, depth + 1);
	else if (p->parent < 0)
		n->eff_usage = u;
	else if (p->sub <= 0 || p->kid_shares <= 0)
		n->eff_usage = 0;
	else
		n->eff_usage = u + (eff_of((size_t)n->parent, total,
					   depth + 1) - u) *
			n->a->shares / p->kid_shares;
	return n->eff_usage;
}

/* Fair Tree over the computed usage: NormShares, EffectvUsage among
 * siblings, LevelFS and the users' rank-based factor. */
static void fair_tree(size_t cnt)
{
	ft_node_t *t = xcalloc(cnt + 1, sizeof(*t));

	for (size_t i = 0; i < cnt; i++) {
		fs_node_t *n = &fs.nodes[i];

		t[i] = (ft_node_t){ .parent = n->parent,
				    .user = n->a->user[0] != 0,
				    .shares = n->a->shares, .usage = n->sub,
				    .name = n->a->user[0] ? n->a->user :
					    n->a->acct };
	}
	fairtree_calc(t, cnt);
	for (size_t i = 0; i < cnt; i++) {
		fs_node_t *n = &fs.nodes[i];

		n->norm_shares = t[i].norm_shares;
		n->eff_usage = t[i].eff_usage;
		n->level_fs = n->a->shares == FAIRTREE_SHARES_PARENT ? NAN :
			t[i].level_fs;
		n->factor = t[i].user ? t[i].factor : 0;
		if (n->parent < 0)
			n->factor = 1.0;
	}
	xfree(t);
}

static int link_cmp(const void *x, const void *y)
{
	uint32_t a = ((const fs_link_t *)x)->id, b = ((const fs_link_t *)y)->id;

	return a < b ? -1 : a > b;
}

static int u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

static const fs_link_t *link_find(uint32_t id)
{
	fs_link_t key = { .id = id };

	return fs.links ? bsearch(&key, fs.links, fs.nlinks,
				  sizeof(fs_link_t), link_cmp) : NULL;
}

/* As Slurm keeps a deleted association's usage in its parents: the usage
 * of associations gone since the last computed tree moves to the nearest
 * association above them that is still there (all sorted by id). */
static void fold_deleted(assoc_rec_t **all, size_t cnt, time_t now)
{
	uint32_t *live = xcalloc(cnt + 1, sizeof(uint32_t));
	size_t i = 0;

	for (size_t k = 0; k < cnt; k++)
		live[k] = all[k]->id;
	qsort(live, cnt, sizeof(uint32_t), u32_cmp);
	while (i < fs.nu) {
		fs_usage_t *u = &fs.u[i];
		const fs_link_t *l;
		uint32_t to = 0;
		int guard = 0;

		if ((u->id & FS_QOS_KEY) || bsearch(&u->id, live, cnt,
						    sizeof(uint32_t), u32_cmp) ||
		    !(l = link_find(u->id))) {
			i++;
			continue;
		}
		for (to = l->parent; to && guard++ < 64; ) {
			if (bsearch(&to, live, cnt, sizeof(uint32_t), u32_cmp))
				break;
			l = link_find(to);
			to = l ? l->parent : 0;
		}
		if (!to) {
			i++;
			continue;
		}
		{
			double f = decay_factor(u, now);
			double cpu = u->usage * f, wall = u->wall * f;
			uint32_t from = u->id;

			memmove(&fs.u[i], &fs.u[i + 1],
				(fs.nu - i - 1) * sizeof(*fs.u));
			fs.nu--;
			usage_add(to, cpu, wall, now);
			verbose("fairshare: usage of deleted association %u "
				"kept by %u", from, to);
		}
		i = 0;                  /* usage_add may have moved entries */
	}
	xfree(live);
}

static void save_links(size_t cnt)
{
	xfree(fs.links);
	fs.links = xcalloc(cnt + 1, sizeof(fs_link_t));
	fs.nlinks = cnt;
	for (size_t i = 0; i < cnt; i++) {
		int p = fs.nodes[i].parent;

		fs.links[i] = (fs_link_t){ fs.nodes[i].a->id,
					   p >= 0 ? fs.nodes[p].a->id : 0 };
	}
	qsort(fs.links, cnt, sizeof(fs_link_t), link_cmp);
}

/* Usage, NormShares, EffectvUsage and factor of every association. */
static void fs_calc(time_t now)
{
	assoc_rec_t **all;
	size_t cnt;
	double total = 0;

	if (fs.nodes && fs.gen == assoc_mgr_generation() &&
	    fs.calc_time == now && fs.calc_version == fs.version)
		return;
	all = assoc_mgr_all(&cnt);
	if (cnt && fs.links && fs.gen != assoc_mgr_generation())
		fold_deleted(all, cnt, now);
	xfree(fs.nodes);
	xfree(fs.by_ptr);
	fs.nodes = xcalloc(cnt + 1, sizeof(fs_node_t));
	fs.by_ptr = xcalloc(cnt + 1, sizeof(fs_ptr_t));
	fs.nnodes = cnt;
	for (size_t i = 0; i < cnt; i++) {
		fs_usage_t *u = usage_find(all[i]->id, false);

		fs.nodes[i].a = all[i];
		fs.nodes[i].own = u ? decayed(u, now) : 0;
		fs.nodes[i].norm_shares = -1;
		fs.nodes[i].eff_usage = -1;
		fs.by_ptr[i] = (fs_ptr_t){ all[i], (int)i };
	}
	qsort(fs.by_ptr, cnt, sizeof(fs_ptr_t), ptr_cmp);
	for (size_t i = 0; i < cnt; i++) {
		fs.nodes[i].parent = node_index(all[i]->parent);
		if (fs.nodes[i].parent >= 0 &&
		    all[i]->shares != FAIRTREE_SHARES_PARENT)
			fs.nodes[fs.nodes[i].parent].kid_shares +=
				all[i]->shares;
	}
	for (size_t i = 0; i < cnt; i++) {
		int p = (int)i, guard = 0;

		while (p >= 0 && guard++ < 64) {
			fs.nodes[p].sub += fs.nodes[i].own;
			p = fs.nodes[p].parent;
		}
		total += fs.nodes[i].own;
	}
	for (size_t i = 0; i < cnt; i++) {
		fs_node_t *n = &fs.nodes[i];

		norm_of(i, 0);
		eff_of(i, total, 0);
		n->factor = n->norm_shares > 0 ?
			pow(2.0, -n->eff_usage / n->norm_shares) : 0;
		n->level_fs = NAN;
	}
	if (fs.fair_tree)
		fair_tree(cnt);
	if (cnt)
		save_links(cnt);
	fs.gen = assoc_mgr_generation();
	fs.calc_time = now;
	fs.calc_version = fs.version;
}

double fairshare_factor(uint32_t uid, const char *account)
{
	assoc_rec_t *a;
	int i;

	if (!fs.on || !assoc_mgr_loaded())
		return 1.0;
	a = assoc_mgr_find((uid_t)uid, account, NULL);
	if (!a)
		return 1.0;
	fs_calc(time(NULL));
	i = node_index(a);
	return i < 0 ? 1.0 : fs.nodes[i].factor;
}

uint64_t fairshare_usage_version(void)
{
	return fs.version;
}

void fairshare_usage(uint32_t id, bool qos, time_t now, double *cpu_secs,
		     double *wall_secs)
{
	fs_usage_t *u = fs.on ? usage_find(qos ? FS_QOS_KEY | id : id,
					   false) : NULL;
	double f = u ? decay_factor(u, now) : 0;

	*cpu_secs = u ? u->usage * f : 0;
	*wall_secs = u ? u->wall * f : 0;
}

/* ---- charging ---- */

void fairshare_job_end(job_record_t *j)
{
	time_t start = j->info.start_time, end = j->info.end_time;

	if (!fs.on || !start || !end)
		return;
	for (size_t i = 0; i < fs.nended; i++)
		if (fs.ended[i].job_id == j->info.job_id &&
		    fs.ended[i].end == end)
			return;
	if (charge(j, start > fs.last_tick ? start : fs.last_tick, end,
		   time(NULL)) <= 0)
		return;
	fs.ended = xrealloc(fs.ended, (fs.nended + 1) * sizeof(*fs.ended));
	fs.ended[fs.nended++] = (fs_ended_t){ j->info.job_id, end };
}

void fairshare_tick(time_t now)
{
	job_record_t *j;

	if (!fs.on)
		return;
	maybe_reset(now);
	DL_FOREACH2(job_mgr_running_first(), j, run_next) {
		time_t start = j->info.start_time;

		if (start && !j->info.end_time)
			charge(j, start > fs.last_tick ? start : fs.last_tick,
			       now, now);
	}
	fs.last_tick = now;
	xfree(fs.ended);
	fs.nended = 0;
	save_state();
}

static void on_tick(evutil_socket_t fd, short what, void *arg)
{
	fairshare_tick(time(NULL));
}

int fairshare_init(const slurm_conf_t *c, char *err, size_t errlen)
{
	struct event_base *base = ctld_base();
	time_t now = time(NULL);

	if (load_conf(c, err, errlen) < 0)
		return -1;
	fs.path = xstrdup_printf("%s/%s", c->state_save_location, FS_FILE);
	load_state();
	if (!fs.last_tick)
		fs.last_tick = now;
	if (fs.reset == RESET_NOW)
		reset_usage(now, "PriorityUsageResetPeriod=NOW");
	fs.on = true;
	priority_set_fairshare_hook(fairshare_factor);
	if (base) {
		struct timeval tv = { fs.period, 0 };

		fs.ev = event_new(base, -1, EV_PERSIST, on_tick, NULL);
		if (fs.ev)
			event_add(fs.ev, &tv);
	}
	return 0;
}

void fairshare_fini(void)
{
	if (!fs.on)
		return;
	fairshare_tick(time(NULL));
	priority_set_fairshare_hook(NULL);
	if (fs.ev)
		event_free(fs.ev);
	fs.ev = NULL;
	xfree(fs.u);
	xfree(fs.ended);
	xfree(fs.nodes);
	xfree(fs.by_ptr);
	xfree(fs.links);
	xfree(fs.path);
	memset(&fs, 0, sizeof(fs));
}

/* ---- sshare ---- */

typedef struct {
	char   **cells;
	size_t   n, cap;
	uid_t    uid;
	bool     own_only;      /* PrivateData=usage: only uid's users */
	double   total;
	time_t   now;
} share_out_t;

static void out_cell(share_out_t *o, const char *v)
{
	if (o->n + 2 > o->cap) {
		o->cap = o->cap ? o->cap * 2 : 64;
		o->cells = xrealloc(o->cells, o->cap * sizeof(char *));
	}
	o->cells[o->n++] = xstrdup(v ? v : "");
	o->cells[o->n] = NULL;
}

static void out_num(share_out_t *o, const char *fmt, double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), fmt, v);
	out_cell(o, buf);
}

static int by_user_name(const void *x, const void *y)
{
	const fs_node_t *a = *(fs_node_t *const *)x;
	const fs_node_t *b = *(fs_node_t *const *)y;
	int u = (a->a->user[0] != 0) - (b->a->user[0] != 0);

	if (u)
		return -u;             /* users before accounts */
	return strcmp(a->a->user[0] ? a->a->user : a->a->acct,
		      b->a->user[0] ? b->a->user : b->a->acct);
}

static void share_row(share_out_t *o, const fs_node_t *n, int depth)
{
	bool user = n->a->user[0] != 0;
	char d[16], *tres;

	snprintf(d, sizeof(d), "%d", depth);
	out_cell(o, n->a->acct);
	out_cell(o, n->a->user);
	out_cell(o, d);
	if (n->parent < 0)
		out_cell(o, "");
	else if (n->a->shares == FAIRTREE_SHARES_PARENT)
		out_cell(o, "parent");
	else
		out_num(o, "%.0f", n->a->shares);
	out_num(o, "%.6f", n->norm_shares);
	out_num(o, "%.0f", n->sub);
	out_num(o, "%.6f", o->total > 0 ? n->sub / o->total : 0);
	out_num(o, "%.6f", n->eff_usage);
	if (user || !fs.fair_tree)
		out_num(o, "%.6f", n->factor);
	else
		out_cell(o, "");
	if (!fs.fair_tree)
		out_cell(o, "0.000000");        /* as 22.05's -o LevelFS */
	else if (isnan(n->level_fs))
		out_cell(o, "");
	else if (isinf(n->level_fs))
		out_cell(o, "inf");
	else
		out_num(o, "%.6f", n->level_fs);
	out_cell(o, fs.fair_tree ? "fair_tree" : "classic");
	tres = assoc_mgr_grp_tres_mins_str(n->a);
	out_cell(o, tres);
	xfree(tres);
	tres = assoc_mgr_tres_run_mins_str(n->a, o->now);
	out_cell(o, tres);
	xfree(tres);
}

static void share_visit(share_out_t *o, int idx, int depth)
{
	fs_node_t **kids;
	size_t nk = 0;

	if (depth > 64)
		return;
	share_row(o, &fs.nodes[idx], depth);
	kids = xcalloc(fs.nnodes + 1, sizeof(*kids));
	for (size_t i = 0; i < fs.nnodes; i++)
		if (fs.nodes[i].parent == idx &&
		    (!fs.nodes[i].a->user[0] || !o->own_only ||
		     fs.nodes[i].a->uid == o->uid ||
		     assoc_mgr_is_coord(o->uid, fs.nodes[i].a->acct)))
			kids[nk++] = &fs.nodes[i];
	qsort(kids, nk, sizeof(*kids), by_user_name);
	for (size_t i = 0; i < nk; i++) {
		if (kids[i]->a->user[0])
			share_row(o, kids[i], depth + 1);
		else
			share_visit(o, (int)(kids[i] - fs.nodes), depth + 1);
	}
	xfree(kids);
}

bool fairshare_assoc(const assoc_rec_t *a, fairshare_assoc_t *out)
{
	double total = 0;
	int idx;

	if (!fs.on || !assoc_mgr_loaded())
		return false;
	fs_calc(time(NULL));
	if ((idx = node_index(a)) < 0)
		return false;
	for (size_t i = 0; i < fs.nnodes; i++)
		if (fs.nodes[i].parent < 0)
			total += fs.nodes[i].sub;
	*out = (fairshare_assoc_t){
		.norm_shares = fs.nodes[idx].norm_shares,
		.raw_usage = fs.nodes[idx].sub,
		.norm_usage = total > 0 ? fs.nodes[idx].sub / total : 0,
		.eff_usage = fs.nodes[idx].eff_usage,
		.factor = fs.nodes[idx].factor,
	};
	return true;
}

void fairshare_rpc_share_info(net_conn_t *c, slurm_msg_t *m)
{
	static const char *const cols[] = {
		"account", "user", "depth", "raw_shares", "norm_shares",
		"raw_usage", "norm_usage", "effectv_usage", "fairshare",
		"level_fs", "algorithm", "grp_tres_mins", "tres_run_mins",
		NULL
	};
	table_resp_msg_t r = { 0 };
	share_out_t o = { .uid = m->auth_uid, .now = time(NULL) };

	if (fs.on && assoc_mgr_loaded()) {
		fs_calc(time(NULL));
		o.own_only = rpc_viewer(m).hide;    /* PrivateData=usage */
		for (size_t i = 0; i < fs.nnodes; i++)
			if (fs.nodes[i].parent < 0) {
				o.total = fs.nodes[i].sub;
				share_visit(&o, (int)i, 0);
			}
	}
	r.cols = (char **)cols;
	r.cells = o.cells ? o.cells : xcalloc(1, sizeof(char *));
	net_reply(c, RESPONSE_SHARE_INFO, &r);
	xstrarray_free(r.cells);
}
