/* test_gres.c — GRES specs ("gpu:tesla:2") and gres.conf. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "common/gres.h"

static void test_bad_specs(void **st)
{
	static const char *const bad[] = {
		"gpu:x:y:z", "gpu:2x", "gpu:-1", "g pu", "gpu:tesla:k",
		"gpu:99999999999", ":", "gpu/x",
		/* a type past what an allocation item holds (fuzzer) */
		"nic:ihZRR--------------------------------------------IIIz",
		"gpu_name_of_thirty_two_characters:1", NULL
	};
	char err[128];
	size_t n;

	for (int i = 0; bad[i]; i++) {
		err[0] = '\0';
		assert_null(gres_specs_parse(bad[i], &n, err, sizeof(err)));
		assert_non_null(strstr(err, "invalid GRES"));
	}
}

static void test_specs(void **st)
{
	char err[128];
	size_t n;
	gres_spec_t *v = gres_specs_parse("gpu:2,gpu:tesla:1,mps:1K,nic",
					  &n, err, sizeof(err));

	assert_non_null(v);
	assert_int_equal(n, 4);
	assert_string_equal(v[0].name, "gpu");
	assert_null(v[0].type);
	assert_int_equal(v[0].count, 2);
	assert_string_equal(v[1].type, "tesla");
	assert_int_equal(v[2].count, 1024);
	assert_int_equal(v[3].count, 1);
	assert_int_equal(gres_specs_count(v, n, "gpu", NULL), 3);
	assert_int_equal(gres_specs_count(v, n, "gpu", "tesla"), 1);
	gres_specs_free(v, n);
	v = gres_specs_parse("gres/gpu:4", &n, err, sizeof(err));
	assert_int_equal(n, 1);
	assert_int_equal(v[0].count, 4);
	gres_specs_free(v, n);
	v = gres_specs_parse(NULL, &n, err, sizeof(err));
	assert_non_null(v);
	assert_int_equal(n, 0);
	gres_specs_free(v, n);
}

static void test_bad_conf(void **st)
{
	static const struct { const char *text, *err; } bad[] = {
		{ "Name=gpu Colour=red\n", "line 1: unknown key" },
		{ "\n\nCount=2\n", "line 3: a line without Name=" },
		{ "Name=gpu Count=two\n", "invalid value \"two\" for Count" },
		{ "Name=gpu Count=3 File=/dev/nvidia[0-1]\n",
		  "does not match 2 File=" },
		{ "Name=gpu File=/dev/nvidia[1-0]\n", "line 1:" },
		{ "Name=gpu junk\n", "expected Key=Value" },
		{ "NodeName=n[1- Name=gpu\n", "line 1:" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_null(gres_conf_parse(bad[i].text, NULL, err, sizeof(err)));
		if (!strstr(err, bad[i].err))
			fail_msg("%s: got \"%s\"", bad[i].text, err);
	}
}

static void test_conf(void **st)
{
	const char *text =
		"# GPUs\n"
		"AutoDetect=off\n"
		"NodeName=n[1-2] Name=gpu Type=tesla File=/dev/nvidia[0-1]\n"
		"NodeName=n3 Name=gpu File=/dev/nvidia[2,5]  # two\n"
		"Name=mps Count=100\n";
	char err[256];
	uint32_t dev[8];
	gres_conf_t *g = gres_conf_parse(text, "n2", err, sizeof(err));

	assert_non_null(g);
	assert_int_equal(g->cnt, 2);
	assert_string_equal(g->v[0].type, "tesla");
	assert_int_equal(g->v[0].count, 2);
	assert_string_equal(g->v[0].files[1], "/dev/nvidia1");
	assert_int_equal(g->v[1].count, 100);
	assert_int_equal(gres_conf_gpu_devices(g, dev, 8), 2);
	assert_int_equal(dev[1], 1);
	gres_conf_destroy(g);
	g = gres_conf_parse(text, "n3", err, sizeof(err));
	assert_int_equal(gres_conf_gpu_devices(g, dev, 8), 2);
	assert_int_equal(dev[0], 2);
	assert_int_equal(dev[1], 5);
	gres_conf_destroy(g);
	/* Count= without files: indexes are the device numbers */
	g = gres_conf_parse("Name=gpu Count=3", "x", err, sizeof(err));
	assert_int_equal(gres_conf_gpu_devices(g, dev, 8), 3);
	assert_int_equal(dev[2], 2);
	gres_conf_destroy(g);
	/* a missing file is an empty config */
	g = gres_conf_load("/nonexistent/gres.conf", "n1", err, sizeof(err));
	assert_non_null(g);
	assert_int_equal(g->cnt, 0);
	gres_conf_destroy(g);
}

/* AutoDetect= alone, or for some nodes; bad values fail with the line */
static void test_autodetect(void **st)
{
	char err[256];
	gres_conf_t *g;

	(void) st;
	g = gres_conf_parse("AutoDetect=nvml\nName=gpu File=/dev/nvidia0\n",
			    "n1", err, sizeof(err));
	assert_non_null(g);
	assert_string_equal(g->autodetect, "nvml");
	assert_int_equal(g->cnt, 1);
	gres_conf_destroy(g);
	g = gres_conf_parse("NodeName=n2 AutoDetect=off\n", "n1", err,
			    sizeof(err));
	assert_non_null(g);
	assert_null(g->autodetect);
	gres_conf_destroy(g);
	assert_null(gres_conf_parse("\nAutoDetect=cuda\n", "n1", err,
				    sizeof(err)));
	assert_string_equal(err, "line 2: invalid value \"cuda\" for "
			    "AutoDetect");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_specs),
		cmocka_unit_test(test_specs),
		cmocka_unit_test(test_bad_conf),
		cmocka_unit_test(test_conf),
		cmocka_unit_test(test_autodetect),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
