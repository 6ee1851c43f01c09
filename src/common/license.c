/* license.c — license lists (license.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/license.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static bool _name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	       c == '@' || c == '+' || c == '/';
}

void lic_list_free(lic_list_t *l)
{
	for (size_t i = 0; i < l->cnt; i++)
		xfree(l->items[i].name);
	xfree(l->items);
	l->cnt = 0;
	l->any = false;
}

const lic_item_t *lic_list_find(const lic_list_t *l, const char *name)
{
	for (size_t i = 0; i < l->cnt; i++)
		if (!strcmp(l->items[i].name, name))
			return &l->items[i];
	return NULL;
}

/* One "name[:count]" of len bytes at s. */
static int _item(const char *s, size_t len, uint32_t min, lic_item_t *it,
		 char *err, size_t errlen)
{
	const char *colon = memchr(s, ':', len);
	size_t nlen = colon ? (size_t) (colon - s) : len;
	unsigned long long v = 1;

	if (!nlen) {
		snprintf(err, errlen, "empty license name");
		return -1;
	}
	if (nlen > LIC_NAME_MAX) {
		snprintf(err, errlen, "license name too long");
		return -1;
	}
	for (size_t i = 0; i < nlen; i++)
		if (!_name_char(s[i])) {
			snprintf(err, errlen, "invalid character '%c' in "
				 "license name", s[i]);
			return -1;
		}
	if (colon) {
		const char *p = colon + 1, *end = s + len;
		char *stop;
		char num[16];

		if (p == end || (size_t) (end - p) >= sizeof(num)) {
			snprintf(err, errlen, "invalid license count");
			return -1;
		}
		for (const char *q = p; q < end; q++)
			if (*q < '0' || *q > '9') {
				snprintf(err, errlen, "invalid license count");
				return -1;
			}
		memcpy(num, p, (size_t) (end - p));
		num[end - p] = '\0';
		errno = 0;
		v = strtoull(num, &stop, 10);
		if (errno || *stop) {
			snprintf(err, errlen, "invalid license count");
			return -1;
		}
	}
	if (v < min || v > LIC_COUNT_MAX) {
		snprintf(err, errlen, "license count out of range");
		return -1;
	}
	it->name = xstrndup(s, nlen);
	it->count = (uint32_t) v;
	return 0;
}

/* Split s on sep; conf: distinct names, counts from 0; else a request. */
static int _parse(const char *s, char sep, bool conf, lic_list_t *l,
		  char *err, size_t errlen)
{
	const char *p = s;

	for (;;) {
		const char *e = strchr(p, sep);
		size_t len = e ? (size_t) (e - p) : strlen(p);
		lic_item_t it;
		lic_item_t *dup;

		if (_item(p, len, conf ? 0 : 1, &it, err, errlen) < 0)
			goto fail;
		dup = (lic_item_t *) lic_list_find(l, it.name);
		if (dup && (conf || l->any)) {
			snprintf(err, errlen, "license %s given twice",
				 it.name);
			xfree(it.name);
			goto fail;
		}
		if (dup) {
			if (dup->count + (uint64_t) it.count > LIC_COUNT_MAX) {
				snprintf(err, errlen,
					 "license count out of range");
				xfree(it.name);
				goto fail;
			}
			dup->count += it.count;
			xfree(it.name);
		} else {
			l->items = xrealloc(l->items,
					    (l->cnt + 1) * sizeof(*l->items));
			l->items[l->cnt++] = it;
		}
		if (!e)
			return 0;
		p = e + 1;
	}
fail:
	lic_list_free(l);
	return -1;
}

int lic_conf_parse(const char *s, lic_list_t *l, char *err, size_t errlen)
{
	memset(l, 0, sizeof(*l));
	if (!s || !*s)
		return 0;
	return _parse(s, ',', true, l, err, errlen);
}

int lic_req_parse(const char *s, lic_list_t *l, char *err, size_t errlen)
{
	bool comma, bar;

	memset(l, 0, sizeof(*l));
	if (!s || !*s) {
		snprintf(err, errlen, "empty license specification");
		return -1;
	}
	comma = strchr(s, ',') != NULL;
	bar = strchr(s, '|') != NULL;
	if (comma && bar) {
		snprintf(err, errlen, "',' and '|' cannot be mixed");
		return -1;
	}
	l->any = bar;
	return _parse(s, bar ? '|' : ',', false, l, err, errlen);
}

char *lic_list_string(const lic_list_t *l)
{
	char *out = NULL;

	for (size_t i = 0; i < l->cnt; i++)
		xstrfmtcat(&out, "%s%s:%u", i ? (l->any ? "|" : ",") : "",
			   l->items[i].name, l->items[i].count);
	return out;
}
