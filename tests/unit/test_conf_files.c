/* test_conf_files.c — configless (common/conf_files.c): the DNS SRV
 * answer parser, the files message check, collect and write; and the
 * NodeName line parser of dynamic nodes (conf_node_line).  Bad inputs
 * first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/conf.h"
#include "common/conf_files.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

/* ---- a DNS answer, built by hand ---- */

typedef struct {
	unsigned char b[1024];
	size_t        n;
} dns_t;

static void put16(dns_t *d, unsigned v)
{
	d->b[d->n++] = (unsigned char) (v >> 8);
	d->b[d->n++] = (unsigned char) v;
}

static void put_name(dns_t *d, const char *name)
{
	while (*name) {
		const char *dot = strchr(name, '.');
		size_t l = dot ? (size_t) (dot - name) : strlen(name);

		d->b[d->n++] = (unsigned char) l;
		memcpy(d->b + d->n, name, l);
		d->n += l;
		name += l + (dot ? 1 : 0);
	}
	d->b[d->n++] = 0;
}

static void header(dns_t *d, unsigned qd, unsigned an)
{
	d->n = 0;
	put16(d, 0x1234);
	put16(d, 0x8180);
	put16(d, qd);
	put16(d, an);
	put16(d, 0);
	put16(d, 0);
	if (qd) {               /* offset 12: the question */
		put_name(d, "_slurmctld._tcp.example.org");
		put16(d, 33);
		put16(d, 1);
	}
}

/* One SRV answer; target NULL: a pointer to the question's name at 12. */
static void srv(dns_t *d, unsigned prio, unsigned weight, unsigned port,
		const char *target)
{
	size_t rdlen_at;

	d->b[d->n++] = 0xc0;    /* owner: the question's name */
	d->b[d->n++] = 12;
	put16(d, 33);
	put16(d, 1);
	put16(d, 0);
	put16(d, 300);
	rdlen_at = d->n;
	put16(d, 0);
	put16(d, prio);
	put16(d, weight);
	put16(d, port);
	if (target) {
		put_name(d, target);
	} else {
		d->b[d->n++] = 0xc0;
		d->b[d->n++] = 12;
	}
	d->b[rdlen_at] = (unsigned char) ((d->n - rdlen_at - 2) >> 8);
	d->b[rdlen_at + 1] = (unsigned char) (d->n - rdlen_at - 2);
}

static void test_srv_bad(void **st)
{
	dns_t d;
	size_t at;

	assert_null(conf_files_srv_parse(NULL, 0));
	assert_null(conf_files_srv_parse((const unsigned char *) "abc", 3));
	/* no answer */
	header(&d, 1, 0);
	assert_null(conf_files_srv_parse(d.b, d.n));
	/* truncated in the question, and in the answer's rdata */
	header(&d, 1, 1);
	assert_null(conf_files_srv_parse(d.b, 20));
	srv(&d, 0, 0, 6817, "ctl.example.org");
	assert_null(conf_files_srv_parse(d.b, d.n - 4));
	/* a compression pointer to itself */
	header(&d, 0, 1);
	d.b[d.n++] = 0xc0;
	d.b[d.n++] = 12;
	assert_null(conf_files_srv_parse(d.b, d.n));
	/* port 0 is no server; an A record is not SRV */
	header(&d, 1, 2);
	srv(&d, 0, 0, 0, "ctl.example.org");
	at = d.n;
	srv(&d, 0, 0, 6817, "x.example.org");
	d.b[at + 3] = 1;        /* the second's type: 33 -> 1 (A) */
	assert_null(conf_files_srv_parse(d.b, d.n));
	/* a label of length 0x40 (reserved bits) */
	header(&d, 0, 1);
	d.b[d.n++] = 0x40;
	assert_null(conf_files_srv_parse(d.b, d.n));
	/* targets no host has: ',' or ':' would split the server list (the
	 * fuzzer's find), a NUL inside a label would cut the name */
	header(&d, 1, 3);
	srv(&d, 0, 0, 6817, "a,b.example.org");
	srv(&d, 0, 0, 6817, "c:1.example.org");
	srv(&d, 0, 0, 6817, "nul.example.org");
	d.b[d.n - 15] = 0;      /* "nul" -> "n\0l" */
	assert_null(conf_files_srv_parse(d.b, d.n));
}

static void test_srv_good(void **st)
{
	dns_t d;
	char *s;

	header(&d, 1, 3);
	srv(&d, 20, 0, 6817, "backup.example.org");
	srv(&d, 10, 5, 7000, "primary.example.org");
	srv(&d, 10, 50, 6817, NULL);     /* compressed target */
	s = conf_files_srv_parse(d.b, d.n);
	assert_non_null(s);
	assert_string_equal(s, "_slurmctld._tcp.example.org:6817,"
			    "primary.example.org:7000,"
			    "backup.example.org:6817");
	xfree(s);
}

/* ---- the files message ---- */

static config_files_msg_t *msg(const char *const *names,
			       const char *const *texts, size_t n)
{
	config_files_msg_t *m = xmalloc(sizeof(*m));

	m->names = xcalloc(n + 1, sizeof(char *));
	m->texts = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++) {
		m->names[i] = xstrdup(names[i]);
		m->texts[i] = texts[i] ? xstrdup(texts[i]) : NULL;
	}
	return m;
}

static void test_check_bad(void **st)
{
	static const char *const texts[] = { "a", "b" };
	static const char *const bad[][2] = {
		{ "slurm.conf", "../x" }, { "slurm.conf", "a/b" },
		{ "slurm.conf", ".." }, { "slurm.conf", "" },
		{ "slurm.conf", "slurm.conf" }, { "gres.conf", "x.conf" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		config_files_msg_t *m = msg(bad[i], texts, 2);

		err[0] = '\0';
		if (conf_files_check(m, err, sizeof(err)) != -1)
			fail_msg("accepted %s, %s", bad[i][0], bad[i][1]);
		assert_true(err[0]);
		assert_int_equal(conf_files_write(m, "/nonexistent/x", err,
						  sizeof(err)), -1);
		conf_files_free(m);
	}
	{                       /* a name without its text */
		static const char *const n2[] = { "slurm.conf", "a.conf" };
		static const char *const t2[] = { "x", NULL };
		config_files_msg_t *m = msg(n2, t2, 2);

		assert_int_equal(conf_files_check(m, err, sizeof(err)), -1);
		conf_files_free(m);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[4096];
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return xstrdup(buf);
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* What the controller collects (slurm.conf, an Include, gres.conf) is
 * what a node writes and then loads, Includes taken from the cache. */
static void test_collect_write_load(void **st)
{
	char src[] = "/tmp/test_conf_files.XXXXXX";
	char dst[] = "/tmp/test_conf_files_out.XXXXXX";
	char err[512] = "", *p, *t;
	slurm_conf_t *c, *back;
	config_files_msg_t *m, *copy;

	assert_non_null(mkdtemp(src));
	assert_non_null(mkdtemp(dst));
	p = xstrdup_printf("%s/nodes.conf", src);
	spit(p, "NodeName=n[1-2] CPUs=2\n");
	xfree(p);
	p = xstrdup_printf("%s/gres.conf", src);
	spit(p, "# none\n");
	xfree(p);
	p = xstrdup_printf("%s/slurm.conf", src);
	t = xstrdup_printf("ClusterName=c\nSlurmctldHost=h\n"
			   "Include %s/nodes.conf\n"
			   "PartitionName=p Nodes=ALL\n", src);
	spit(p, t);
	xfree(t);
	c = conf_load(p, err, sizeof(err));
	xfree(p);
	if (!c)
		fail_msg("%s", err);
	m = conf_files_collect(c, err, sizeof(err));
	assert_non_null(m);
	assert_int_equal(conf_files_count(m), 3);
	assert_string_equal(m->names[0], "slurm.conf");
	assert_string_equal(m->names[1], "nodes.conf");
	assert_string_equal(m->names[2], "gres.conf");
	copy = conf_files_copy(m);
	assert_int_equal(conf_files_check(copy, err, sizeof(err)), 0);
	assert_int_equal(conf_files_write(copy, dst, err, sizeof(err)), 0);
	p = xstrdup_printf("%s/gres.conf", dst);
	t = slurp(p);
	assert_string_equal(t, "# none\n");
	xfree(t);
	xfree(p);
	/* a file no longer served leaves the cache */
	p = xstrdup_printf("%s/old.conf", dst);
	spit(p, "stale\n");
	assert_int_equal(conf_files_write(copy, dst, err, sizeof(err)), 0);
	assert_int_equal(access(p, F_OK), -1);
	xfree(p);
	/* the Include's absolute path is not on the node: the cache is */
	conf_set_include_dir(dst);
	p = xstrdup_printf("%s/slurm.conf", dst);
	back = conf_load(p, err, sizeof(err));
	if (!back)
		fail_msg("%s", err);
	assert_int_equal(back->node_cnt, 2);
	conf_set_include_dir(NULL);
	conf_destroy(back);
	xfree(p);
	conf_files_free(copy);
	conf_files_free(m);
	conf_destroy(c);
	p = xstrdup_printf("rm -rf %s %s", src, dst);
	assert_int_equal(system(p), 0);
	xfree(p);
}

static void test_node_line(void **st)
{
	static const char *const bad[] = {
		"", "CPUs=2", "NodeName=DEFAULT CPUs=2", "NodeName=ALL",
		"NodeName=x CPUs=abc", "NodeName=x Bogus=1",
		"NodeName=x State=NOPE", "NodeName=x Port=0",
		"NodeName=x NodeName=y", "PartitionName=p",
	};
	char err[256];
	size_t cnt;
	conf_node_t *v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if ((v = conf_node_line(NULL, bad[i], &cnt, err, sizeof(err))))
			fail_msg("accepted \"%s\"", bad[i]);
		assert_int_equal(cnt, 0);
		assert_true(err[0]);
	}
	v = conf_node_line(NULL, "NodeName=d[1-2] CPUs=4 RealMemory=2000 "
			   "Features=f1,f2 State=CLOUD", &cnt, err,
			   sizeof(err));
	if (!v)
		fail_msg("%s", err);
	assert_int_equal(cnt, 2);
	assert_string_equal(v[1].name, "d2");
	assert_int_equal(v[0].cpus, 4);
	assert_int_equal(v[0].real_memory, 2000);
	assert_string_equal(v[0].features, "f1,f2");
	assert_string_equal(v[0].state, "CLOUD");
	assert_int_equal(v[0].port, 6818);
	conf_node_line_free(v, cnt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_srv_bad),
		cmocka_unit_test(test_srv_good),
		cmocka_unit_test(test_check_bad),
		cmocka_unit_test(test_collect_write_load),
		cmocka_unit_test(test_node_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
