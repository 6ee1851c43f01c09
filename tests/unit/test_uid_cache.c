/* test_uid_cache.c — passwd lookups through the cache agree with getpwnam()
 * and getpwuid() (group names with getgrgid()), unknown users and groups
 * fail without touching the outputs, and a name longer than the caller's
 * buffer is cut, not overrun. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/uid_cache.h"

static void test_unknown(void **state)
{
	uid_t uid = 12345;
	gid_t gid = 678;
	char buf[16] = "keep";

	assert_int_equal(uid_cache_by_name("no-such-user-sluice", &uid, &gid),
			 -1);
	assert_int_equal(uid, 12345);
	assert_int_equal(gid, 678);
	assert_int_equal(uid_cache_by_name("", &uid, NULL), -1);
	assert_int_equal(uid_cache_by_name(NULL, &uid, NULL), -1);
	assert_int_equal(uid_cache_name((uid_t)4000000000u, buf, sizeof(buf)),
			 -1);
	assert_string_equal(buf, "keep");
}

/* Twice each: the second answer comes from the cache. */
static void test_root_by_name_and_uid(void **state)
{
	for (int i = 0; i < 2; i++) {
		uid_t uid = 99;
		gid_t gid = 99;
		char name[64];

		assert_int_equal(uid_cache_by_name("root", &uid, &gid), 0);
		assert_int_equal(uid, 0);
		assert_int_equal(gid, 0);
		assert_int_equal(uid_cache_name(0, name, sizeof(name)), 0);
		assert_string_equal(name, "root");
	}
}

static void test_self_matches_getpwuid(void **state)
{
	struct passwd *pw = getpwuid(getuid());
	char name[256];
	uid_t uid;
	gid_t gid;

	if (!pw)
		skip();
	assert_int_equal(uid_cache_name(getuid(), name, sizeof(name)), 0);
	assert_string_equal(name, pw->pw_name);
	assert_int_equal(uid_cache_by_name(pw->pw_name, &uid, &gid), 0);
	assert_int_equal(uid, pw->pw_uid);
	assert_int_equal(gid, pw->pw_gid);
}

static void test_short_buffer(void **state)
{
	char name[3];

	assert_int_equal(uid_cache_name(0, name, sizeof(name)), 0);
	assert_string_equal(name, "ro");
}

/* More users than slots: every answer stays right as entries are reused. */
static void test_many_users(void **state)
{
	struct passwd *pw;
	uid_t uids[32];
	char names[32][64];
	int n = 0;

	setpwent();
	while (n < 32 && (pw = getpwent())) {
		if (strlen(pw->pw_name) >= sizeof(names[0]))
			continue;
		uids[n] = pw->pw_uid;
		strcpy(names[n], pw->pw_name);
		n++;
	}
	endpwent();
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < n; i++) {
			char got[64];
			uid_t uid;

			assert_int_equal(uid_cache_by_name(names[i], &uid,
							   NULL), 0);
			assert_int_equal(uid, uids[i]);
			/* several names may share a uid: getpwuid's answer,
			 * not the name just looked up */
			assert_int_equal(uid_cache_name(uids[i], got,
							sizeof(got)), 0);
			assert_string_equal(got, getpwuid(uids[i])->pw_name);
		}
}

/* Every group, twice (more groups than slots): getgrgid's name each time;
 * unknown gids fail and leave buf alone. */
static void test_groups(void **state)
{
	struct group *gr;
	gid_t gids[32];
	char names[32][64], buf[16] = "keep", two[3];
	int n = 0;

	setgrent();
	while (n < 32 && (gr = getgrent())) {
		if (strlen(gr->gr_name) >= sizeof(names[0]))
			continue;
		gids[n] = gr->gr_gid;
		strcpy(names[n], gr->gr_name);
		n++;
	}
	endgrent();
	assert_true(n > 0);
	for (int round = 0; round < 2; round++)
		for (int i = 0; i < n; i++) {
			char got[64];

			assert_int_equal(gid_cache_name(gids[i], got,
							sizeof(got)), 0);
			assert_string_equal(got, getgrgid(gids[i])->gr_name);
		}
	assert_int_equal(gid_cache_name((gid_t)4000000000u, buf, sizeof(buf)),
			 -1);
	assert_string_equal(buf, "keep");
	assert_int_equal(gid_cache_name(0, two, sizeof(two)), 0);
	assert_string_equal(two, "ro");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_root_by_name_and_uid),
		cmocka_unit_test(test_self_matches_getpwuid),
		cmocka_unit_test(test_short_buffer),
		cmocka_unit_test(test_many_users),
		cmocka_unit_test(test_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
