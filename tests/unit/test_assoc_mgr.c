/* test_assoc_mgr.c — the controller's association cache without slurmdbd:
 * a snapshot built from lists as slurmdbd sends them, its lookups, the
 * saved file's round trip and bad input, counters and the pending
 * reasons.  Users are root and nobody (they exist everywhere). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <cmocka.h>
#include <pwd.h>

#include "ctld_world.h"

static dbd_acct_resp_msg_t *list(const char *const *cols)
{
	dbd_acct_resp_msg_t *r = xmalloc(sizeof(*r));

	for (size_t i = 0; cols[i]; i++)
		r->cols = xstrarray_append(r->cols, cols[i]);
	return r;
}

static void row(dbd_acct_resp_msg_t *r, ...)
{
	va_list ap;
	const char *v;

	va_start(ap, r);
	while ((v = va_arg(ap, const char *)))
		r->cells = xstrarray_append(r->cells, v);
	va_end(ap);
}

static uid_t nobody_uid;

/* root (Administrator) in proj (default) and phys; nobody in phys only,
 * coordinator of "top"; proj and phys under top under root. */
static void make_lists(dbd_acct_resp_msg_t *l[AM_LIST_CNT])
{
	static const char *const qc[] = { "id", "name", "priority",
					  "maxjobspu", "flags", "maxwall", NULL };
	static const char *const uc[] = { "user", "defacct", "admin", NULL };
	static const char *const ac[] = { "id", "account", "user",
		"partition", "parentname", "maxjobs", "grptres", "qos",
		"defqos", NULL };
	static const char *const cc[] = { "user", "account", NULL };
	static const char *const rc[] = { "name", "server", "clustercount",
					  NULL };
	static const char *const wc[] = { "wckey", "cluster", "user", "id",
					  "isdef", NULL };

	l[0] = list(qc);
	row(l[0], "1", "normal", "0", "", "", "", (char *)NULL);
	row(l[0], "2", "High", "100", "1", "DenyOnLimit", "30", (char *)NULL);
	/* partition QOS and a job QOS that overrides them */
	row(l[0], "3", "part", "0", "1", "DenyOnLimit", "20", (char *)NULL);
	row(l[0], "4", "wide", "0", "", "", "60", (char *)NULL);
	row(l[0], "5", "over", "0", "", "OverPartQOS", "40", (char *)NULL);
	l[1] = list(uc);
	row(l[1], "root", "proj", "Administrator", (char *)NULL);
	row(l[1], "nobody", "phys", "None", (char *)NULL);
	l[2] = list(ac);
	row(l[2], "1", "root", "", "", "", "", "", "normal", "", (char *)NULL);
	row(l[2], "2", "top", "", "", "root", "", "cpu=3", "normal,high", "",
	    (char *)NULL);
	row(l[2], "3", "proj", "", "", "top", "2", "", "normal,high,over", "",
	    (char *)NULL);
	row(l[2], "4", "phys", "", "", "top", "", "", "normal", "",
	    (char *)NULL);
	row(l[2], "5", "proj", "root", "", "proj", "", "", "normal,high,over",
	    "", (char *)NULL);
	row(l[2], "6", "phys", "root", "", "phys", "", "", "normal", "",
	    (char *)NULL);
	row(l[2], "7", "phys", "root", "debug", "phys", "", "", "normal", "",
	    (char *)NULL);
	row(l[2], "8", "phys", "nobody", "", "phys", "", "", "normal", "",
	    (char *)NULL);
	l[3] = list(cc);
	row(l[3], "nobody", "top", (char *)NULL);
	l[4] = list(rc);
	row(l[4], "matlab", "flex1", "40", (char *)NULL);
	row(l[4], "ghost", "flex1", "", (char *)NULL);   /* no share here */
	l[5] = list(wc);
	row(l[5], "alpha", "c", "root", "3", "1", (char *)NULL);
	row(l[5], "beta", "c", "root", "4", "0", (char *)NULL);
	row(l[5], "beta", "c", "nobody", "5", "0", (char *)NULL);
	row(l[5], "", "c", "nobody", "6", "0", (char *)NULL);      /* bad */
	row(l[5], "gamma", "c", "nobody", "x", "1", (char *)NULL); /* bad */
}

static void free_lists(dbd_acct_resp_msg_t *l[AM_LIST_CNT])
{
	for (int i = 0; i < AM_LIST_CNT; i++)
		msg_body_free(RESPONSE_DBD_ACCT, l[i]);
}

static int setup(void **st)
{
	dbd_acct_resp_msg_t *l[AM_LIST_CNT];
	struct passwd *pw = getpwnam("nobody");

	nobody_uid = pw ? pw->pw_uid : 65534;
	make_lists(l);
	am_install_lists(l);
	free_lists(l);
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
		       ACCT_ENFORCE_QOS);
	return 0;
}

static int teardown(void **st)
{
	assoc_mgr_fini();
	return 0;
}

/* assoc_mgr_submit_check with the job's time limit by value */
static int submit_check(job_desc_t *d, uid_t uid, const part_record_t *p,
			uint32_t time_limit, char **msg)
{
	return assoc_mgr_submit_check(d, uid, p, &time_limit, msg);
}

static void test_lookups(void **st)
{
	assoc_rec_t *a;

	assert_true(assoc_mgr_loaded());
	/* default account; a partition association wins when it exists */
	a = assoc_mgr_find(0, NULL, "other");
	assert_non_null(a);
	assert_int_equal(a->id, 5);
	assert_int_equal(assoc_mgr_find(0, "PHYS", "debug")->id, 7);
	assert_int_equal(assoc_mgr_find(0, "phys", "other")->id, 6);
	assert_null(assoc_mgr_find(nobody_uid, "proj", NULL));
	assert_null(assoc_mgr_find(4242, NULL, NULL));
	/* the tree */
	a = assoc_mgr_find_id(5);
	assert_string_equal(a->parent->acct, "proj");
	assert_string_equal(a->parent->parent->acct, "top");
	assert_string_equal(a->parent->parent->parent->acct, "root");
	assert_null(a->parent->parent->parent->parent);
	/* Max* inherited from the account */
	assert_int_equal(a->eff_max_jobs, 2);
	assert_int_equal(a->max_jobs, ASSOC_NO_LIMIT);
	assert_true(a->grp_limited);
	/* users, admin level, coordinators (inherited down the tree) */
	assert_int_equal(assoc_mgr_admin_level(nobody_uid), ASSOC_ADMIN_NONE);
	assert_int_equal(assoc_mgr_admin_level(0), ASSOC_ADMIN_SUPER);
	assert_true(assoc_mgr_is_coord(nobody_uid, "proj"));
	assert_true(assoc_mgr_is_coord(nobody_uid, "top"));
	assert_false(assoc_mgr_is_coord(nobody_uid, "root"));
	assert_false(assoc_mgr_is_coord(0, "proj"));
	assert_string_equal(assoc_mgr_user_name("nobody")->default_acct,
			    "phys");
	/* QOS: names are lower case */
	assert_non_null(assoc_mgr_qos("high"));
	assert_int_equal(assoc_mgr_qos_id(2)->priority, 100);
	assert_true(assoc_mgr_qos("high")->flags & ASSOC_QOS_DENY_ON_LIMIT);
	assert_int_equal(assoc_mgr_qos_max_priority(), 100);
}

/* Remote licenses: name@server with this cluster's share; a resource
 * without a share here is not one. */
static void test_remote_licenses(void **st)
{
	size_t n = 0;
	const assoc_remote_lic_t *r = assoc_mgr_remote_licenses(&n);

	assert_int_equal(n, 1);
	assert_string_equal(r[0].name, "matlab@flex1");
	assert_int_equal(r[0].count, 40);
}

/* Wckeys: per user, any case; the default is the one marked isdef; a
 * row without a name or with a bad id is none. */
static void test_wckeys(void **st)
{
	assert_int_equal(assoc_mgr_wckey_id("root", "alpha"), 3);
	assert_int_equal(assoc_mgr_wckey_id("root", "BETA"), 4);
	assert_int_equal(assoc_mgr_wckey_id("nobody", "beta"), 5);
	assert_int_equal(assoc_mgr_wckey_id("nobody", "alpha"), 0);
	assert_int_equal(assoc_mgr_wckey_id("nobody", "gamma"), 0);
	assert_int_equal(assoc_mgr_wckey_id(NULL, "alpha"), 0);
	assert_string_equal(assoc_mgr_wckey_default("root"), "alpha");
	assert_null(assoc_mgr_wckey_default("nobody"));
	assert_null(assoc_mgr_wckey_default("ghost"));
}

static void test_saved_file(void **st)
{
	dbd_acct_resp_msg_t *l[AM_LIST_CNT], *back[AM_LIST_CNT];
	buf_t *b;
	uint8_t *copy;
	size_t len;

	make_lists(l);
	b = pack_lists(l);
	len = buf_len(b);
	assert_int_equal(am_unpack_lists(buf_data(b), len, back), 0);
	assert_string_equal(back[2]->cells[1], "root");
	assert_int_equal(xstrarray_len(back[2]->cells),
			 xstrarray_len(l[2]->cells));
	free_lists(back);
	/* every cut and every flipped bit is refused, nothing leaks */
	copy = xmalloc(len);
	for (size_t n = 0; n < len; n++)
		assert_int_equal(am_unpack_lists(buf_data(b), n, back), -1);
	for (size_t i = 0; i < len; i++) {
		memcpy(copy, buf_data(b), len);
		copy[i] ^= 0x10;
		assert_int_equal(am_unpack_lists(copy, len, back), -1);
	}
	xfree(copy);
	buf_destroy(b);
	/* saved before remote licenses (4 lists) or wckeys (5): loads,
	 * none of the missing ones */
	for (int k = AM_LIST_MIN; k < AM_LIST_CNT; k++) {
		buf_t *body = buf_create(4096), *old = buf_create(4096);

		for (int i = 0; i < k; i++) {
			buf_t *one = buf_create(1024);

			msg_body_pack(RESPONSE_DBD_ACCT, l[i], one);
			pack32(body, (uint32_t)buf_len(one));
			packbuf(body, one);
			buf_destroy(one);
		}
		packraw(old, AM_STATE_MAGIC, 8);
		pack32(old, crc32c(0, buf_data(body), buf_len(body)));
		pack32(old, (uint32_t)buf_len(body));
		packbuf(old, body);
		assert_int_equal(am_unpack_lists(buf_data(old), buf_len(old),
						 back), 0);
		for (int i = k; i < AM_LIST_CNT; i++)
			assert_null(back[i]->cells);
		assert_non_null(back[k - 1]->cells);
		free_lists(back);
		buf_destroy(body);
		buf_destroy(old);
	}
	free_lists(l);
}

static job_record_t *job(uid_t uid, const char *acct, const char *qos,
			 uint32_t cpus)
{
	job_record_t *j = xmalloc(sizeof(*j));

	j->info.user_id = uid;
	j->info.account = xstrdup(acct);
	j->info.qos = xstrdup(qos);
	j->info.num_cpus = cpus;
	j->info.num_nodes = 1;
	j->info.pn_min_memory = NO_VAL64;
	j->info.time_limit = 10;
	return j;
}

static void job_free(job_record_t *j)
{
	xfree(j->info.account);
	xfree(j->info.qos);
	xfree(j);
}

static void test_counters_and_reasons(void **st)
{
	job_record_t *a = job(0, "proj", "normal", 1);
	job_record_t *b = job(0, "proj", "normal", 1);
	job_record_t *c = job(0, "proj", "normal", 1);
	job_record_t *d = job(0, "phys", "normal", 1);
	job_record_t *h = job(0, "proj", "high", 1);
	assoc_rec_t *top = assoc_mgr_find_acct("top");

	assert_int_equal(assoc_mgr_job_reason(a, 0), WAIT_NO_REASON);
	assoc_mgr_job_running(a, 1);
	assoc_mgr_job_running(b, 1);
	assert_int_equal(top->usage.run_jobs, 2);
	assert_int_equal(top->usage.run_tres[ASSOC_TRES_CPU], 2);
	/* MaxJobs=2 from proj */
	assert_int_equal(assoc_mgr_job_reason(c, 0), WAIT_ASSOC_MAX_JOBS);
	/* phys has no MaxJobs, but top's GrpTRES=cpu=3 holds for it */
	assert_int_equal(assoc_mgr_job_reason(d, 0), WAIT_NO_REASON);
	d->info.num_cpus = 2;
	assert_int_equal(assoc_mgr_job_reason(d, 0), WAIT_ASSOC_GRP_CPU);
	/* QOS high: MaxJobsPerUser=1, MaxWall=30 */
	assoc_mgr_job_running(h, 1);
	assert_int_equal(assoc_mgr_job_reason(h, 0),
			 WAIT_QOS_MAX_JOBS_PER_USER);
	assoc_mgr_job_running(h, -1);
	h->info.time_limit = 60;
	assert_int_equal(assoc_mgr_job_reason(h, 0),
			 WAIT_QOS_MAX_WALL_PER_JOB);
	assoc_mgr_job_running(b, -1);
	assoc_mgr_job_running(a, -1);
	assert_int_equal(top->usage.run_jobs, 0);
	assert_int_equal(top->usage.submit_jobs, 0);
	assert_int_equal(top->usage.run_tres[ASSOC_TRES_CPU], 0);
	assert_int_equal(assoc_mgr_job_reason(c, 0), WAIT_NO_REASON);
	/* nothing enforced: no reason */
	am_set_enforce(0);
	assoc_mgr_job_running(a, 1);
	assoc_mgr_job_running(b, 1);
	assert_int_equal(assoc_mgr_job_reason(c, 0), WAIT_NO_REASON);
	assoc_mgr_job_running(a, -1);
	assoc_mgr_job_running(b, -1);
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
		       ACCT_ENFORCE_QOS);
	job_free(a);
	job_free(b);
	job_free(c);
	job_free(d);
	job_free(h);
}

static void test_submit_check(void **st)
{
	job_desc_t d = { 0 };
	char *msg = NULL;
	part_record_t debug = { .info.name = "debug" };

	d.min_cpus = d.min_nodes = NO_VAL32;
	d.pn_min_memory = NO_VAL64;
	/* defaults filled */
	assert_int_equal(submit_check(&d, 0, &debug, 10, &msg), 0);
	assert_string_equal(d.account, "proj");
	assert_string_equal(d.qos, "normal");
	/* no association */
	xfree(d.account);
	d.account = xstrdup("proj");
	assert_int_equal(submit_check(&d, nobody_uid, &debug, 10,
						&msg), ESLURM_INVALID_ACCOUNT);
	/* QOS not allowed for phys; unknown QOS */
	xfree(d.account);
	xfree(d.qos);
	d.account = xstrdup("phys");
	d.qos = xstrdup("high");
	assert_int_equal(submit_check(&d, 0, NULL, 10, &msg),
			 ESLURM_INVALID_QOS);
	xfree(d.qos);
	d.qos = xstrdup("nosuch");
	assert_int_equal(submit_check(&d, 0, NULL, 10, &msg),
			 ESLURM_INVALID_QOS);
	/* DenyOnLimit: MaxWall=30 refuses 60 minutes at submit */
	xfree(d.account);
	xfree(d.qos);
	d.account = xstrdup("proj");
	d.qos = xstrdup("HIGH");
	assert_int_equal(submit_check(&d, 0, NULL, 60, &msg),
			 ESLURM_ACCOUNTING_POLICY);
	assert_string_equal(msg, "QOSMaxWallDurationPerJobLimit");
	xfree(msg);
	assert_int_equal(submit_check(&d, 0, NULL, 20, &msg), 0);
	/* no --time: the QOS's MaxWall becomes the job's limit (not the
	 * partition's INFINITE, refused above), at most its MaxTime */
	{
		uint32_t tl = INFINITE32;
		part_record_t short_part = { .info.name = "debug",
					     .info.max_time = 20 };

		d.time_limit = NO_VAL32;
		assert_int_equal(assoc_mgr_submit_check(&d, 0, NULL, &tl,
							&msg), 0);
		assert_int_equal(tl, 30);
		tl = 20;
		assert_int_equal(assoc_mgr_submit_check(&d, 0, &short_part,
							&tl, &msg), 0);
		assert_int_equal(tl, 20);
		/* a limit given stays as given (and is refused over it) */
		d.time_limit = 60;
		tl = 60;
		assert_int_equal(assoc_mgr_submit_check(&d, 0, NULL, &tl,
							&msg),
				 ESLURM_ACCOUNTING_POLICY);
		xfree(msg);
		assert_int_equal(tl, 60);
	}
	xfree(d.account);
	xfree(d.qos);
}

/* A partition's QOS= (Slurm's "Partition QOS"): its limits hold every
 * job of the partition, before the job's own QOS's unless that one has
 * OverPartQOS; for each limit the QOS that sets it first wins; the job
 * counts against both. */
static void test_partition_qos(void **st)
{
	part_record_t pp = { .info.name = "pp", .info.qos_char = "Part" };
	part_record_t pw = { .info.name = "pw", .info.qos_char = "wide" };
	part_record_t px = { .info.name = "px", .info.qos_char = "nosuch" };
	assoc_qos_t *part = assoc_mgr_qos("part");
	assoc_qos_t *normal = assoc_mgr_qos("normal");
	job_record_t *a = job(0, "proj", "normal", 1);
	job_record_t *b = job(0, "proj", "normal", 1);
	job_record_t *c = job(0, "proj", "part", 1);
	job_record_t *h = job(0, "proj", "high", 1);
	job_record_t *o = job(0, "proj", "over", 1);
	job_desc_t d = { 0 };
	char *msg = NULL;

	/* the name in any case; an unknown one is no QOS */
	assert_ptr_equal(assoc_mgr_part_qos(&pp), part);
	assert_null(assoc_mgr_part_qos(&px));
	assert_null(assoc_mgr_part_qos(NULL));
	/* MaxJobsPerUser=1 of the partition QOS holds a normal-QOS job */
	a->part = b->part = &pp;
	assoc_mgr_job_running(a, 1);
	assert_int_equal(part->usage.run_jobs, 1);
	assert_int_equal(normal->usage.run_jobs, 1);
	assert_int_equal(assoc_mgr_job_reason(b, 0),
			 WAIT_QOS_MAX_JOBS_PER_USER);
	/* QOS limits are enforced with "limits"; "qos" alone only asks
	 * for a valid QOS (as Slurm) */
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_QOS);
	assert_int_equal(assoc_mgr_job_reason(b, 0), WAIT_NO_REASON);
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS);
	assert_int_equal(assoc_mgr_job_reason(b, 0),
			 WAIT_QOS_MAX_JOBS_PER_USER);
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
		       ACCT_ENFORCE_QOS);
	b->part = NULL;                 /* elsewhere: nothing holds it */
	assert_int_equal(assoc_mgr_job_reason(b, 0), WAIT_NO_REASON);
	b->part = &px;                  /* unknown QOS: no limits */
	assert_int_equal(assoc_mgr_job_reason(b, 0), WAIT_NO_REASON);
	/* the partition's QOS as the job's too: counted once */
	c->part = &pp;
	assoc_mgr_job_running(a, -1);
	assoc_mgr_job_running(c, 1);
	assert_int_equal(part->usage.run_jobs, 1);
	assert_int_equal(normal->usage.run_jobs, 0);
	assoc_mgr_job_running(c, -1);
	assert_int_equal(part->usage.run_jobs, 0);
	/* MaxWall: the partition QOS's 20 minutes over normal's none */
	b->part = &pp;
	b->info.time_limit = 25;
	assert_int_equal(assoc_mgr_job_reason(b, 0),
			 WAIT_QOS_MAX_WALL_PER_JOB);
	/* ... and its 60 over high's 30 (where a limit is set first wins) */
	h->part = &pw;
	h->info.time_limit = 45;
	assert_int_equal(assoc_mgr_job_reason(h, 0), WAIT_NO_REASON);
	h->part = NULL;
	assert_int_equal(assoc_mgr_job_reason(h, 0),
			 WAIT_QOS_MAX_WALL_PER_JOB);
	/* OverPartQOS: the job QOS's 40 wins over 60 and over 20 */
	o->part = &pw;
	o->info.time_limit = 45;
	assert_int_equal(assoc_mgr_job_reason(o, 0),
			 WAIT_QOS_MAX_WALL_PER_JOB);
	o->info.time_limit = 35;
	assert_int_equal(assoc_mgr_job_reason(o, 0), WAIT_NO_REASON);
	o->part = &pp;
	assert_int_equal(assoc_mgr_job_reason(o, 0), WAIT_NO_REASON);
	/* ... while the partition QOS's limits it does not set still hold */
	a->part = &pp;
	assoc_mgr_job_running(a, 1);
	assert_int_equal(assoc_mgr_job_reason(o, 0),
			 WAIT_QOS_MAX_JOBS_PER_USER);
	assoc_mgr_job_running(a, -1);
	assert_int_equal(part->usage.run_jobs, 0);
	/* submit: the partition QOS's DenyOnLimit refuses over its MaxWall */
	d.min_cpus = d.min_nodes = NO_VAL32;
	d.pn_min_memory = NO_VAL64;
	d.account = xstrdup("proj");
	d.qos = xstrdup("normal");
	assert_int_equal(submit_check(&d, 0, &pp, 25, &msg),
			 ESLURM_ACCOUNTING_POLICY);
	assert_string_equal(msg, "QOSMaxWallDurationPerJobLimit");
	xfree(msg);
	assert_int_equal(submit_check(&d, 0, &pp, 15, &msg), 0);
	/* high's DenyOnLimit: its MaxWall is not in force under wide's */
	xfree(d.qos);
	d.qos = xstrdup("high");
	assert_int_equal(submit_check(&d, 0, &pw, 45, &msg), 0);
	assert_int_equal(submit_check(&d, 0, NULL, 45, &msg),
			 ESLURM_ACCOUNTING_POLICY);
	xfree(msg);
	xfree(d.account);
	xfree(d.qos);
	job_free(a);
	job_free(b);
	job_free(c);
	job_free(h);
	job_free(o);
}

static void tres3(assoc_tres_t *t, uint64_t cpu, uint64_t mem, uint64_t node)
{
	t->v[ASSOC_TRES_CPU] = cpu;
	t->v[ASSOC_TRES_MEM] = mem;
	t->v[ASSOC_TRES_NODE] = node;
}

/* The arithmetic of the time-based limits. */
static void test_time_arith(void **st)
{
	uint64_t t[ASSOC_TRES_CNT] = { 4, 1000, 2 }, m[ASSOC_TRES_CNT];
	uint64_t want[ASSOC_TRES_CNT];
	assoc_tres_t mins, run, none;
	assoc_time_usage_t u = { { 0 }, 0, 0 };

	/* seconds left: limit - elapsed, never negative; unlimited huge */
	assert_int_equal(assoc_limits_secs_left(10, 1000, 1000), 600);
	assert_int_equal(assoc_limits_secs_left(10, 1000, 1090), 510);
	assert_int_equal(assoc_limits_secs_left(10, 1000, 9999), 0);
	assert_int_equal(assoc_limits_secs_left(10, 0, 5000), 600);
	assert_int_equal(assoc_limits_secs_left(INFINITE32, 1, 1),
			 (uint64_t)INFINITE32 * 60);
	/* TRES-minutes = TRES x time limit, saturating */
	assoc_limits_tres_mins(t, 30, m);
	assert_int_equal(m[ASSOC_TRES_CPU], 120);
	assert_int_equal(m[ASSOC_TRES_MEM], 30000);
	assert_int_equal(m[ASSOC_TRES_NODE], 60);
	t[ASSOC_TRES_MEM] = UINT64_MAX / 2;
	assoc_limits_tres_mins(t, INFINITE32, m);
	assert_true(m[ASSOC_TRES_MEM] == UINT64_MAX);
	assert_int_equal(m[ASSOC_TRES_CPU], 4ULL * INFINITE32);

	tres3(&none, ASSOC_NO_LIMIT, ASSOC_NO_LIMIT, ASSOC_NO_LIMIT);
	tres3(&mins, 100, ASSOC_NO_LIMIT, ASSOC_NO_LIMIT);
	tres3(&run, ASSOC_NO_LIMIT, ASSOC_NO_LIMIT, 50);
	want[ASSOC_TRES_CPU] = 40;
	want[ASSOC_TRES_MEM] = 1;
	want[ASSOC_TRES_NODE] = 10;
	/* GrpTRESMins=cpu=100: usage below -> runs; at the limit -> waits */
	u.used_cpu_secs = 99 * 60 + 59;
	assert_int_equal(assoc_limits_time_grp(&mins, &none, ASSOC_NO_LIMIT,
					       &u, want, 10, false, false),
			 WAIT_NO_REASON);
	u.used_cpu_secs = 100 * 60;
	assert_int_equal(assoc_limits_time_grp(&mins, &none, ASSOC_NO_LIMIT,
					       &u, want, 10, false, false),
			 WAIT_ASSOC_GRP_CPU_MIN);
	assert_int_equal(assoc_limits_time_grp(&mins, &none, ASSOC_NO_LIMIT,
					       &u, want, 10, false, true),
			 WAIT_QOS_GRP_CPU_MIN);
	/* safe: usage + the job's own must fit */
	u.used_cpu_secs = 70 * 60;
	assert_int_equal(assoc_limits_time_grp(&mins, &none, ASSOC_NO_LIMIT,
					       &u, want, 10, false, false),
			 WAIT_NO_REASON);
	assert_int_equal(assoc_limits_time_grp(&mins, &none, ASSOC_NO_LIMIT,
					       &u, want, 10, true, false),
			 WAIT_ASSOC_GRP_CPU_MIN);
	/* a job over the limit on its own never fits */
	u.used_cpu_secs = 0;
	want[ASSOC_TRES_CPU] = 101;
	assert_int_equal(assoc_limits_time_grp(&mins, &none, ASSOC_NO_LIMIT,
					       &u, want, 10, false, false),
			 WAIT_ASSOC_GRP_CPU_MIN);
	want[ASSOC_TRES_CPU] = 40;
	/* GrpTRESRunMins=node=50: running 40 node-minutes (partial minute
	 * rounds up) + 10 wanted fits, one second more does not */
	u.run_secs[ASSOC_TRES_NODE] = 40 * 60;
	assert_int_equal(assoc_limits_time_grp(&none, &run, ASSOC_NO_LIMIT,
					       &u, want, 10, false, false),
			 WAIT_NO_REASON);
	u.run_secs[ASSOC_TRES_NODE] = 40 * 60 + 1;
	assert_int_equal(assoc_limits_time_grp(&none, &run, ASSOC_NO_LIMIT,
					       &u, want, 10, false, false),
			 WAIT_ASSOC_GRP_NODE_RUN_MIN);
	assert_int_equal(assoc_limits_time_grp(&none, &run, ASSOC_NO_LIMIT,
					       &u, want, 10, false, true),
			 WAIT_QOS_GRP_NODE_RUN_MIN);
	u.run_secs[ASSOC_TRES_NODE] = 0;
	/* GrpWall=60 (minutes of wall time used, decayed) */
	u.used_wall_secs = 59 * 60;
	assert_int_equal(assoc_limits_time_grp(&none, &none, 60, &u, want, 10,
					       false, false), WAIT_NO_REASON);
	assert_int_equal(assoc_limits_time_grp(&none, &none, 60, &u, want, 10,
					       true, false),
			 WAIT_ASSOC_GRP_WALL);
	assert_int_equal(assoc_limits_time_grp(&none, &none, 60, &u, want, 61,
					       false, true), WAIT_QOS_GRP_WALL);
	u.used_wall_secs = 60 * 60;
	assert_int_equal(assoc_limits_time_grp(&none, &none, 60, &u, want, 1,
					       false, false),
			 WAIT_ASSOC_GRP_WALL);
	assert_string_equal(job_reason_string(WAIT_ASSOC_GRP_CPU_MIN),
			    "AssocGrpCPUMinutesLimit");
	assert_string_equal(job_reason_string(WAIT_QOS_GRP_CPU_RUN_MIN),
			    "QOSGrpCPURunMinutesLimit");
	assert_string_equal(job_reason_string(WAIT_ASSOC_MAX_CPU_MINS_PER_JOB),
			    "AssocMaxCpuMinutesPerJobLimit");
}

/* The limits read from slurmdbd's lists, inherited and enforced: an
 * account "lim" (GrpTRESMins=cpu=100, GrpWall=60, MaxTRESMins=cpu=50)
 * under root with root's association; QOS "tq" with
 * MaxTRESMinsPerJob=cpu=30 and GrpTRESRunMins=cpu=1000 (DenyOnLimit),
 * root's GrpTRESMins (not enforced). */
static void test_time_limits(void **st)
{
	static const char *const qc[] = { "id", "name", "flags",
		"grptresmins", "grptresrunmins", "maxtresmins", NULL };
	static const char *const uc[] = { "user", "defacct", "admin", NULL };
	static const char *const ac[] = { "id", "account", "user",
		"partition", "parentname", "qos", "grptresmins", "grpwall",
		"maxtresmins", NULL };
	static const char *const cc[] = { "user", "account", NULL };
	dbd_acct_resp_msg_t *l[AM_LIST_CNT];
	job_record_t *j;
	job_desc_t d = { 0 };
	assoc_rec_t *a;
	char *msg = NULL;

	l[0] = list(qc);
	row(l[0], "1", "normal", "", "", "", "", (char *)NULL);
	row(l[0], "2", "tq", "DenyOnLimit", "", "cpu=1000", "cpu=30",
	    (char *)NULL);
	l[1] = list(uc);
	row(l[1], "root", "lim", "Administrator", (char *)NULL);
	l[2] = list(ac);
	row(l[2], "1", "root", "", "", "", "normal,tq", "cpu=1", "", "",
	    (char *)NULL);
	row(l[2], "2", "lim", "", "", "root", "normal,tq", "cpu=100", "60",
	    "cpu=50", (char *)NULL);
	row(l[2], "3", "lim", "root", "", "lim", "normal,tq", "", "", "",
	    (char *)NULL);
	l[3] = list(cc);
	l[4] = list(cc);                   /* no remote licenses */
	l[5] = list(cc);                   /* no wckeys */
	assert_int_equal(am_install_lists(l), 0);
	free_lists(l);
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
		       ACCT_ENFORCE_QOS);

	a = assoc_mgr_find_id(3);
	assert_int_equal(a->eff_max_tres_mins.v[ASSOC_TRES_CPU], 50);
	assert_true(a->time_limited);
	assert_false(assoc_mgr_find_id(1)->time_limited);   /* root */

	j = job(0, "lim", "normal", 2);
	world_fs_cpu_secs = world_fs_wall_secs = 0;
	/* 2 CPUs x 10 min = 20 cpu-minutes: fine */
	assert_int_equal(assoc_mgr_job_reason(j, 1000), WAIT_NO_REASON);
	/* MaxTRESMins=cpu=50 (inherited): 2 x 30 min is over */
	j->info.time_limit = 30;
	assert_int_equal(assoc_mgr_job_reason(j, 1001),
			 WAIT_ASSOC_MAX_CPU_MINS_PER_JOB);
	j->info.time_limit = 10;
	/* usage (fair-share, decayed) reaches lim's GrpTRESMins; root's
	 * cpu=1 never counts */
	world_fs_cpu_secs = 40 * 60;       /* every association: 80 in lim */
	assert_int_equal(assoc_mgr_job_reason(j, 1002), WAIT_NO_REASON);
	world_fs_cpu_secs = 50 * 60;       /* 100 in lim */
	assert_int_equal(assoc_mgr_job_reason(j, 1003),
			 WAIT_ASSOC_GRP_CPU_MIN);
	world_fs_cpu_secs = 0;
	world_fs_wall_secs = 30 * 60;      /* 60 minutes in lim */
	assert_int_equal(assoc_mgr_job_reason(j, 1004), WAIT_ASSOC_GRP_WALL);
	world_fs_wall_secs = 0;
	assert_int_equal(assoc_mgr_job_reason(j, 1004), WAIT_ASSOC_GRP_WALL);
	/* ... computed once a second, unless a job's end charged usage
	 * within it (the version changes): the next job sees the charge */
	world_fs_version++;
	assert_int_equal(assoc_mgr_job_reason(j, 1004), WAIT_NO_REASON);
	assert_int_equal(assoc_mgr_job_reason(j, 1005), WAIT_NO_REASON);
	/* running: ended when it reaches its MaxTRESMins (2 CPUs x 25
	 * minutes = 50) or lim's usage reaches GrpTRESMins */
	j->info.start_time = 10000;
	assert_false(assoc_mgr_job_time_out(j, 10000 + 24 * 60 + 59));
	assert_true(assoc_mgr_job_time_out(j, 10000 + 25 * 60));
	world_fs_cpu_secs = 50 * 60;
	assert_true(assoc_mgr_job_time_out(j, 10000 + 60));
	world_fs_cpu_secs = 0;
	assert_false(assoc_mgr_job_time_out(j, 10000 + 61));
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_QOS);
	assert_false(assoc_mgr_job_time_out(j, 10000 + 25 * 60));
	am_set_enforce(ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
		       ACCT_ENFORCE_QOS);
	j->info.start_time = 0;
	/* QOS tq: MaxTRESMinsPerJob=cpu=30 */
	{
		char *old = j->info.qos;   /* a new string: a new lookup */

		j->info.qos = xstrdup("tq");
		xfree(old);
	}
	j->info.time_limit = 20;
	assert_int_equal(assoc_mgr_job_reason(j, 1006),
			 WAIT_QOS_MAX_CPU_MINS_PER_JOB);
	/* ... an unlimited job is over every TRES-minutes limit */
	j->info.time_limit = INFINITE32;
	assert_int_equal(assoc_mgr_job_reason(j, 1007),
			 WAIT_QOS_MAX_CPU_MINS_PER_JOB);
	job_free(j);

	/* DenyOnLimit refuses at submit what could never run */
	d.min_cpus = 2;
	d.min_nodes = 1;
	d.pn_min_memory = NO_VAL64;
	d.account = xstrdup("lim");
	d.qos = xstrdup("tq");
	assert_int_equal(submit_check(&d, 0, NULL, 20, &msg),
			 ESLURM_ACCOUNTING_POLICY);
	assert_string_equal(msg, "QOSMaxCpuMinutesPerJobLimit");
	xfree(msg);
	assert_int_equal(submit_check(&d, 0, NULL, 15, &msg), 0);
	/* GrpWall=60 of lim: a 61-minute job alone is over it; tq's
	 * MaxTRESMins first, so 1 CPU */
	d.min_cpus = 1;
	assert_int_equal(submit_check(&d, 0, NULL, 61, &msg),
			 ESLURM_ACCOUNTING_POLICY);
	assert_string_equal(msg, "QOSMaxCpuMinutesPerJobLimit");
	xfree(msg);
	assert_int_equal(submit_check(&d, 0, NULL, 30, &msg), 0);
	xfree(d.account);
	xfree(d.qos);
	/* back to the other tests' snapshot */
	assoc_mgr_fini();
	setup(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_saved_file),
		cmocka_unit_test(test_remote_licenses),
		cmocka_unit_test(test_wckeys),
		cmocka_unit_test(test_counters_and_reasons),
		cmocka_unit_test(test_submit_check),
		cmocka_unit_test(test_partition_qos),
		cmocka_unit_test(test_time_arith),
		cmocka_unit_test(test_time_limits),
	};
	log_options_t quiet = { LOG_LEVEL_QUIET, LOG_LEVEL_QUIET, false, false };

	log_init("test_assoc_mgr", quiet, NULL);
	return cmocka_run_group_tests(tests, setup, teardown);
}
