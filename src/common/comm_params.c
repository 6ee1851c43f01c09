/* comm_params.c — CommunicationParameters and JobAcctGatherParams words
 * (comm_params.h). */
#include "common/comm_params.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

/* "keepalivetime=30": seconds in 0..86400*/
static int secs(const char *word, const char *v, int *out, char *err,
		size_t errlen)
{
	char *end = NULL;
	long n;

	n = v && *v ? strtol(v, &end, 10) : -1;
	if (!v || !*v || *end || n < 0 || n > 86400) {
		snprintf(err, errlen, "CommunicationParameters: invalid value "
			 "in %s (seconds from 0 to 86400)", word);
		return -1;
	}
	*out = (int) n;
	return 0;
}

int comm_params_parse(const char *val, comm_params_t *p, char *err,
		      size_t errlen)
{
	comm_params_t d = { -1, -1, -1, false, false };
	char **words = xstrsplit(val ? val : "", ",", NULL);
	int rc = 0;

	*p = d;
	for (size_t i = 0; words[i] && !rc; i++) {
		char *w = xstrtrim(words[i]), *eq = strchr(w, '=');
		const char *v = eq ? eq + 1 : NULL;
		size_t n = eq ? (size_t) (eq - w) : strlen(w);

		if (n == 13 && !strncasecmp(w, "keepalivetime", n))
			rc = secs(w, v, &d.keepalive_time, err, errlen);
		else if (n == 17 && !strncasecmp(w, "keepaliveinterval", n))
			rc = secs(w, v, &d.keepalive_intvl, err, errlen);
		else if (n == 15 && !strncasecmp(w, "keepaliveprobes", n))
			rc = secs(w, v, &d.keepalive_probes, err, errlen);
		else if (!strcasecmp(w, "NoCtldInAddrAny"))
			d.no_ctld_in_addr_any = true;
		else if (!strcasecmp(w, "NoInAddrAny"))
			d.no_in_addr_any = d.no_ctld_in_addr_any = true;
	}
	xstrarray_free(words);
	if (!rc)
		*p = d;
	return rc;
}

unsigned jag_params_parse(const char *val)
{
	char **words = xstrsplit(val ? val : "", ",", NULL);
	unsigned f = 0;

	for (size_t i = 0; words[i]; i++) {
		const char *w = xstrtrim(words[i]);

		if (!strcasecmp(w, "NoShared"))
			f |= JAG_PARAM_NO_SHARED;
		else if (!strcasecmp(w, "UsePss"))
			f |= JAG_PARAM_USE_PSS;
		else if (!strcasecmp(w, "OverMemoryKill"))
			f |= JAG_PARAM_OVER_MEMORY_KILL;
	}
	xstrarray_free(words);
	return f;
}

int mpi_params_ports(const char *val, uint16_t *lo, uint16_t *hi,
		     char *err, size_t errlen)
{
	char **words = xstrsplit(val ? val : "", ",", NULL);
	unsigned long a = 0, b = 0;
	int rc = 0;

	for (size_t i = 0; words[i] && !rc; i++) {
		char *w = xstrtrim(words[i]), *end = NULL;

		if (!*w)
			continue;
		if (strncasecmp(w, "ports=", 6)) {
			rc = -1;
			break;
		}
		w += 6;
		a = strtoul(w, &end, 10);
		if (end == w || *end != '-') {
			rc = -1;
			break;
		}
		w = end + 1;
		b = strtoul(w, &end, 10);
		if (end == w || *end || !a || a > b || b > 65535)
			rc = -1;
	}
	xstrarray_free(words);
	if (rc) {
		snprintf(err, errlen, "MpiParams=%s: not supported: only "
			 "ports=low-high (1 to 65535) is", val);
		return -1;
	}
	*lo = (uint16_t) a;
	*hi = (uint16_t) b;
	return 0;
}
