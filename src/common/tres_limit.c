/* tres_limit.c — TRES limit strings (tres_limit.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/parse_util.h"
#include "common/tres_limit.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

#define TRES_MAX_ITEMS 64

static const char *const known[] = {
	"cpu", "mem", "energy", "node", "billing", "fs/disk", "vmem",
	"pages", NULL
};

typedef struct {
	char     *name;
	uint64_t  value;
	int       rank;    /* index in known[], or 100 for gres/license */
} item_t;

static int rank_of(const char *name)
{
	for (int i = 0; known[i]; i++)
		if (!strcmp(known[i], name))
			return i;
	if ((!strncmp(name, "gres/", 5) && name[5]) ||
	    (!strncmp(name, "license/", 8) && name[8]))
		return 100;
	return -1;
}

static bool name_ok(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("/_-.:", *s))
			return false;
	return true;
}

static int item_cmp(const void *a, const void *b)
{
	const item_t *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

static void fmt_item(char **out, const item_t *it)
{
	char buf[32];

	if (*out && **out)
		xstrcatc(out, ',');
	if (!strcmp(it->name, "mem")) {
		fmt_mem_mb(it->value, buf, sizeof(buf));
		xstrfmtcat(out, "mem=%s", buf);
	} else {
		xstrfmtcat(out, "%s=%llu", it->name,
			   (unsigned long long)it->value);
	}
}

/* Parse one "name=value" into it; -1 on error. value UINT64_MAX = -1. */
static int parse_item(const char *kv, item_t *it)
{
	const char *eq = strchr(kv, '=');
	char *name;

	if (!eq || eq == kv || !eq[1])
		return -1;
	name = xstrndup(kv, eq - kv);
	xstrtolower(name);
	it->name = name;
	it->rank = rank_of(name);
	if (it->rank < 0 || !name_ok(name))
		return -1;
	if (!strcmp(eq + 1, "-1")) {
		it->value = UINT64_MAX;
		return 0;
	}
	if (!strcmp(name, "mem"))
		return parse_mem_mb(eq + 1, &it->value);
	return parse_u64(eq + 1, &it->value);
}

char *tres_limit_canon(const char *s, char *err, size_t errlen)
{
	item_t items[TRES_MAX_ITEMS];
	char **parts;
	size_t n = 0;
	char *out = NULL;
	int bad = -1;

	if (!s)
		s = "";
	parts = xstrsplit(s, ",", NULL);
	for (size_t i = 0; parts[i] && bad < 0; i++) {
		if (n == TRES_MAX_ITEMS) {
			bad = (int)i;
			break;
		}
		memset(&items[n], 0, sizeof(items[n]));
		if (parse_item(parts[i], &items[n]) < 0) {
			xfree(items[n].name);
			bad = (int)i;
			break;
		}
		for (size_t k = 0; k < n; k++)
			if (!strcmp(items[k].name, items[n].name)) {
				items[k].value = items[n].value;
				xfree(items[n].name);
				n--;
				break;
			}
		n++;
	}
	if (bad >= 0) {
		snprintf(err, errlen, "Invalid TRES limit: %s", parts[bad]);
		goto out;
	}
	qsort(items, n, sizeof(items[0]), item_cmp);
	out = xstrdup("");
	for (size_t i = 0; i < n; i++)
		if (items[i].value != UINT64_MAX)
			fmt_item(&out, &items[i]);
out:
	for (size_t i = 0; i < n; i++)
		xfree(items[i].name);
	xstrarray_free(parts);
	return out;
}

void tres_limit_get(const char *canon, uint64_t out[3])
{
	static const char *const names[3] = { "cpu", "mem", "node" };
	char **parts;

	out[0] = out[1] = out[2] = UINT64_MAX;
	if (!canon || !*canon)
		return;
	parts = xstrsplit(canon, ",", NULL);
	for (size_t i = 0; parts[i]; i++) {
		char *eq = strchr(parts[i], '=');
		uint64_t v;

		if (!eq)
			continue;
		*eq = '\0';
		for (int k = 0; k < 3; k++) {
			if (strcmp(parts[i], names[k]))
				continue;
			if (k == 1 ? parse_mem_mb(eq + 1, &v) == 0 :
			    parse_u64(eq + 1, &v) == 0)
				out[k] = v;
		}
	}
	xstrarray_free(parts);
}
