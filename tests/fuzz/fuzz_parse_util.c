/* fuzz_parse_util.c — arbitrary text into the duration, size, number and
 * time parsers, and bitmap_from_str() (the other small string parser of the
 * common library).  What parses must print and parse back to the same value.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bitmap.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void check_durations(const char *s)
{
	uint32_t sec, min, back;
	char buf[64];

	if (parse_duration_sec(s, &sec) == 0 && sec != INFINITE32) {
		fmt_elapsed(sec, buf, sizeof(buf));
		if (parse_duration_sec(buf, &back) || back != sec)
			abort();
	}
	if (parse_duration_min(s, &min) == 0) {
		fmt_time_limit(min, buf, sizeof(buf));
		if (parse_duration_min(buf, &back) || back != min)
			abort();
		fmt_time_limit_short(min, true, buf, sizeof(buf));
		if (parse_duration_min(buf, &back) || back != min)
			abort();
	}
}

static void check_mem(const char *s)
{
	uint64_t mb, back;
	char buf[64];

	if (parse_mem_mb(s, &mb))
		return;
	fmt_mem_mb(mb, buf, sizeof(buf));
	if (parse_mem_mb(buf, &back) || back != mb)
		abort();
}

static void check_numbers(const char *s)
{
	uint32_t u;
	uint64_t w;
	bool b;
	char buf[32];

	if (parse_u64(s, &w) == 0) {
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)w);
		if (parse_u64(buf, &w) || (parse_u32(s, &u) == 0 && u != w))
			abort();
	}
	(void)parse_bool(s, &b);
}

static void check_time(const char *s)
{
	time_t t;
	char buf[64];

	if (parse_time(s, (time_t)1795351548, &t) == 0)
		fmt_time(t, buf, sizeof(buf));
}

static void check_bitmap(const char *s)
{
	bitmap_t *b = bitmap_from_str(s, 200), *again;
	char *str;

	if (!b)
		return;
	str = bitmap_to_str(b);
	again = bitmap_from_str(str, 200);
	if (!again || !bitmap_equal(b, again))
		abort();
	bitmap_destroy(again);
	bitmap_destroy(b);
	xfree(str);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *)data, size);

	check_durations(s);
	check_mem(s);
	check_numbers(s);
	check_time(s);
	check_bitmap(s);
	xfree(s);
	return 0;
}
