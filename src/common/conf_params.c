/* conf_params.c — see conf_params.h. */
#include "common/conf_params.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

int conf_parse_private_data(const char *val, uint32_t *out, char *err,
			    size_t errlen)
{
	static const struct { const char *word; uint32_t bit; } words[] = {
		{ "jobs", PRIVATE_DATA_JOBS }, { "nodes", PRIVATE_DATA_NODES },
		{ "partitions", PRIVATE_DATA_PARTITIONS },
		{ "usage", PRIVATE_DATA_USAGE }, { "users", PRIVATE_DATA_USERS },
		{ "accounts", PRIVATE_DATA_ACCOUNTS },
		{ "reservations", PRIVATE_DATA_RESERVATIONS },
		{ "events", PRIVATE_DATA_EVENTS },
	};
	char *copy, *save = NULL, *tok;
	int rc = 0;

	*out = 0;
	if (!val || !strcasecmp(val, "none"))
		return 0;
	copy = xstrdup(val);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i, n = sizeof(words) / sizeof(words[0]);

		if (!strcasecmp(tok, "all")) {
			*out = ~0u;
			continue;
		}
		for (i = 0; i < n && strcasecmp(tok, words[i].word); i++)
			;
		if (i == n) {
			snprintf(err, errlen, "PrivateData: unknown value \"%s\"", tok);
			rc = -1;
		} else {
			*out |= words[i].bit;
		}
	}
	xfree(copy);
	return rc;
}

static int parse_u32(const char *key, const char *val, uint32_t min,
		     uint32_t *out, char *err, size_t errlen)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = val ? strtoul(val, &end, 10) : 0;
	if (!val || !*val || *end || errno || v < min || v > UINT32_MAX) {
		snprintf(err, errlen,
			 "SlurmctldParameters: invalid %s value \"%s\"", key,
			 val ? val : "");
		return -1;
	}
	*out = (uint32_t) v;
	return 0;
}

int conf_parse_rl(const char *params, rl_conf_t *out, char *err,
		  size_t errlen)
{
	char *copy, *save = NULL, *tok;
	int rc = 0;

	*out = (rl_conf_t) { .bucket_size = 30, .refill_rate = 10,
			     .refill_period = 1, .table_size = 8192,
			     .log_freq = 0 };
	if (!params)
		return 0;
	copy = xstrdup(params);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		char *val = strchr(tok, '=');

		if (val)
			*val++ = '\0';
		if (!strcasecmp(tok, "rl_enable")) {
			out->enable = true;
		} else if (!strcasecmp(tok, "rl_bucket_size")) {
			rc = parse_u32(tok, val, 1, &out->bucket_size, err, errlen);
		} else if (!strcasecmp(tok, "rl_refill_rate")) {
			rc = parse_u32(tok, val, 1, &out->refill_rate, err, errlen);
		} else if (!strcasecmp(tok, "rl_refill_period")) {
			rc = parse_u32(tok, val, 1, &out->refill_period, err, errlen);
		} else if (!strcasecmp(tok, "rl_table_size")) {
			rc = parse_u32(tok, val, 1, &out->table_size, err, errlen);
			if (!rc && out->table_size > (1u << 24)) {
				snprintf(err, errlen, "SlurmctldParameters: rl_table_size %u is too large",
					 out->table_size);
				rc = -1;
			}
		} else if (!strcasecmp(tok, "rl_log_freq")) {
			char *end;
			long v = val ? strtol(val, &end, 10) : 0;

			if (!val || !*val || *end || v < -1 || v > INT32_MAX) {
				snprintf(err, errlen,
					 "SlurmctldParameters: invalid rl_log_freq value \"%s\"",
					 val ? val : "");
				rc = -1;
			} else {
				out->log_freq = (int32_t) v;
			}
		}
	}
	xfree(copy);
	return rc;
}

int conf_parse_acct_enforce(const char *s, uint32_t *flags, char *err,
			    size_t errlen)
{
	static const struct { const char *name; uint32_t bits; } words[] = {
		{ "associations", ACCT_ENFORCE_ASSOCS },
		{ "limits", ACCT_ENFORCE_LIMITS | ACCT_ENFORCE_ASSOCS },
		{ "qos", ACCT_ENFORCE_QOS | ACCT_ENFORCE_ASSOCS },
		{ "safe", ACCT_ENFORCE_SAFE | ACCT_ENFORCE_LIMITS |
			  ACCT_ENFORCE_ASSOCS },
		{ "wckeys", ACCT_ENFORCE_WCKEYS | ACCT_ENFORCE_ASSOCS },
		{ "nojobs", ACCT_ENFORCE_NOJOBS | ACCT_ENFORCE_NOSTEPS },
		{ "nosteps", ACCT_ENFORCE_NOSTEPS },
		{ "all", ACCT_ENFORCE_ASSOCS | ACCT_ENFORCE_LIMITS |
			 ACCT_ENFORCE_QOS | ACCT_ENFORCE_SAFE |
			 ACCT_ENFORCE_WCKEYS },
		{ "none", 0 }, { "0", 0 },
	};
	char **v;
	int rc = 0;

	*flags = 0;
	if (!s || !*s)
		return 0;
	v = xstrsplit(s, ",", NULL);
	for (size_t i = 0; v[i] && rc == 0; i++) {
		size_t k, n = sizeof(words) / sizeof(words[0]);

		for (k = 0; k < n; k++)
			if (!xstrcasecmp(v[i], words[k].name))
				break;
		if (k == n) {
			snprintf(err, errlen, "AccountingStorageEnforce: bad "
				 "value '%s'", v[i]);
			rc = -1;
		} else {
			*flags |= words[k].bits;
		}
	}
	xstrarray_free(v);
	return rc;
}

int conf_parse_prolog_flags(const char *val, uint32_t *out, char *err,
			    size_t errlen)
{
	static const struct { const char *word; uint32_t bit; } words[] = {
		{ "Alloc", PROLOG_FLAG_ALLOC },
		{ "Contain", PROLOG_FLAG_CONTAIN | PROLOG_FLAG_ALLOC },
		{ "DeferBatch", PROLOG_FLAG_DEFERBATCH },
		{ "NoHold", PROLOG_FLAG_NOHOLD },
		{ "ForceRequeueOnFail",
		  PROLOG_FLAG_FORCE_REQUEUE_ON_FAIL | PROLOG_FLAG_ALLOC },
		{ "Serial", PROLOG_FLAG_SERIAL },
		{ "X11", PROLOG_FLAG_X11 | PROLOG_FLAG_ALLOC |
			 PROLOG_FLAG_CONTAIN },
	};
	char *copy, *save = NULL, *tok;
	int rc = 0;

	*out = 0;
	if (!val || !*val || !strcasecmp(val, "none"))
		return 0;
	copy = xstrdup(val);
	for (tok = strtok_r(copy, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save)) {
		size_t i, n = sizeof(words) / sizeof(words[0]);

		for (i = 0; i < n && strcasecmp(tok, words[i].word); i++)
			;
		if (i == n) {
			snprintf(err, errlen, "PrologFlags: unknown value \"%s\"",
				 tok);
			rc = -1;
		} else {
			*out |= words[i].bit;
		}
	}
	xfree(copy);
	return rc;
}

int conf_parse_acct_store_flags(const char *val, uint32_t *out, char *err,
				size_t errlen)
{
	static const struct { const char *word; uint32_t bit; } words[] = {
		{ "job_comment", ACCT_STORE_JOB_COMMENT },
		{ "job_env", ACCT_STORE_JOB_ENV },
		{ "job_extra", ACCT_STORE_JOB_EXTRA },
		{ "job_script", ACCT_STORE_JOB_SCRIPT },
		{ "no_stdio", ACCT_STORE_NO_STDIO },
	};
	char **list = xstrsplit(val ? val : "", ",", NULL);
	int rc = 0;

	*out = 0;
	for (size_t k = 0; list && list[k] && !rc; k++) {
		char *w = xstrtrim(list[k]);
		size_t i, n = sizeof(words) / sizeof(words[0]);

		for (i = 0; i < n && strcasecmp(w, words[i].word); i++)
			;
		if (i == n) {
			snprintf(err, errlen, "AccountingStoreFlags: unknown "
				 "value \"%s\"", w);
			rc = -1;
		} else {
			*out |= words[i].bit;
		}
	}
	xstrarray_free(list);
	return rc;
}

static int exit_code(const char *s, const char *end, unsigned *out)
{
	unsigned v = 0;

	if (s == end || end - s > 3)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v > 255)
		return -1;
	*out = v;
	return 0;
}

int conf_parse_exit_list(const char *key, const char *val, uint8_t out[32],
			 char *err, size_t errlen)
{
	uint8_t bits[32] = { 0 };
	const char *p = val;

	while (p && *p) {
		size_t n = strcspn(p, ",");
		const char *dash = memchr(p, '-', n);
		unsigned lo, hi;

		if (dash ? exit_code(p, dash, &lo) < 0 ||
			   exit_code(dash + 1, p + n, &hi) < 0 || hi < lo
			 : exit_code(p, p + n, &lo) < 0) {
			snprintf(err, errlen, "%s: invalid exit code \"%.*s\" "
				 "(a list of 0-255 or ranges as \"1-9,18\")",
				 key, (int)n, p);
			return -1;
		}
		if (!dash)
			hi = lo;
		for (unsigned c = lo; c <= hi; c++)
			bits[c / 8] |= (uint8_t)(1u << (c % 8));
		p += n;
		if (*p == ',' && !*++p) {
			snprintf(err, errlen, "%s: empty exit code after \",\"",
				 key);
			return -1;
		}
	}
	memcpy(out, bits, sizeof(bits));
	return 0;
}
