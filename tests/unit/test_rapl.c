/* test_rapl.c — powercap RAPL counters: the sysfs values refused, the
 * wrap-around, a reader over a temporary tree (SLUICE_POWERCAP_DIR), and
 * ConsumedEnergy's printed form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/parse_util.h"
#include "common/rapl.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void test_parse_bad(void **state)
{
	static const char *bad[] = {
		"", "\n", "-1\n", "12a\n", " 12\n", "12 \n", "1\n\n",
		"18446744073709551616\n", "0x10\n", "123456789012345678901",
	};
	uint64_t v = 7;

	(void) state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(rapl_parse_value(bad[i], strlen(bad[i]), &v),
				 -1);
		assert_int_equal(v, 7);
	}
}

static void test_parse_good(void **state)
{
	uint64_t v;

	(void) state;
	assert_int_equal(rapl_parse_value("0\n", 2, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(rapl_parse_value("262143328850\n", 13, &v), 0);
	assert_int_equal(v, 262143328850ull);
	assert_int_equal(rapl_parse_value("18446744073709551615", 20, &v), 0);
	assert_true(v == UINT64_MAX);
}

static void test_delta(void **state)
{
	(void) state;
	assert_int_equal(rapl_delta(100, 350, 1000), 250);
	assert_int_equal(rapl_delta(900, 100, 1000), 200);     /* wrapped */
	assert_int_equal(rapl_delta(900, 100, 0), 0);          /* no range */
	assert_int_equal(rapl_delta(2000, 100, 1000), 0);      /* nonsense */
	assert_int_equal(rapl_delta(5, 5, 1000), 0);
}

static void put(const char *dir, const char *zone, const char *name,
		const char *text)
{
	char *p = xstrdup_printf("%s/%s", dir, zone);
	FILE *f;

	mkdir(p, 0755);
	xfree(p);
	p = xstrdup_printf("%s/%s/%s", dir, zone, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	xfree(p);
}

static void test_reader(void **state)
{
	char dir[] = "/tmp/test_rapl.XXXXXX", *why = NULL, *want;
	rapl_t *r;

	(void) state;
	assert_non_null(mkdtemp(dir));
	setenv("SLUICE_POWERCAP_DIR", dir, 1);
	/* nothing there yet */
	assert_null(rapl_open(&why));
	want = xstrdup_printf("no RAPL energy counters under %s (no readable "
			      "intel-rapl:N/energy_uj)", dir);
	assert_string_equal(why, want);
	xfree(want);
	xfree(why);
	put(dir, "intel-rapl:1", "energy_uj", "990000000\n");
	put(dir, "intel-rapl:1", "max_energy_range_uj", "1000000000\n");
	put(dir, "intel-rapl:0", "energy_uj", "5000000\n");
	put(dir, "intel-rapl:0:0", "energy_uj", "1\n");        /* subzone */
	put(dir, "intel-rapl:2", "energy_uj", "garbage\n");    /* unreadable */
	put(dir, "mmio-rapl:0", "energy_uj", "1\n");
	r = rapl_open(&why);
	assert_non_null(r);
	want = xstrdup_printf("%s/intel-rapl:0/energy_uj "
			      "%s/intel-rapl:1/energy_uj", dir, dir);
	assert_string_equal(rapl_paths(r), want);
	xfree(want);
	assert_int_equal(rapl_total_uj(r), 0);
	put(dir, "intel-rapl:0", "energy_uj", "7000000\n");    /* +2 J */
	put(dir, "intel-rapl:1", "energy_uj", "30000000\n");   /* +40 J */
	put(dir, "intel-rapl:0:0", "energy_uj", "99999999\n");
	assert_int_equal(rapl_poll(r), 0);
	assert_int_equal(rapl_total_uj(r), 42000000);
	/* a counter that cannot be read: total unchanged */
	put(dir, "intel-rapl:0", "energy_uj", "x\n");
	assert_int_equal(rapl_poll(r), -1);
	assert_int_equal(rapl_total_uj(r), 42000000);
	rapl_close(r);
	unsetenv("SLUICE_POWERCAP_DIR");
	assert_string_equal(rapl_root(), "/sys/class/powercap");
	want = xstrdup_printf("rm -rf '%s'", dir);
	assert_int_equal(system(want), 0);
	xfree(want);
}

static void test_fmt_energy(void **state)
{
	static const struct {
		uint64_t j;
		const char *out;
	} cases[] = {
		{ 0, "0" }, { 999, "999" }, { 1000, "1K" }, { 2500, "2.50K" },
		{ 4900, "4.90K" }, { 1234567, "1.23M" }, { 3000000000ull, "3G" },
	};
	char buf[32];

	(void) state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_energy(cases[i].j, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_reader),
		cmocka_unit_test(test_fmt_energy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
