/* cpu_bind.c — parsing --cpu-bind (see cpu_bind.h). */
#define _GNU_SOURCE
#include "common/cpu_bind.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

void cpu_bind_free(cpu_bind_t *b)
{
	xfree(b->list);
	xfree(b->list_text);
	memset(b, 0, sizeof(*b));
}

/* "0,2,0x3" (map) or "0x1,2,f" (mask: always hex). */
static int parse_list(const char *s, bool mask, cpu_bind_t *out)
{
	const char *p = s;

	if (!*s)
		return -1;
	out->list = xcalloc(CPU_BIND_MAX_LIST, sizeof(uint64_t));
	while (*p) {
		char *end;
		unsigned long long v;

		if (out->cnt == CPU_BIND_MAX_LIST || !isxdigit((unsigned char) *p))
			return -1;
		errno = 0;
		v = strtoull(p, &end, mask ? 16 : 0);
		if (end == p || errno || (!mask && v > 4095) || (mask && !v))
			return -1;
		out->list[out->cnt++] = v;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return -1;
	}
	return 0;
}

static int set_type(cpu_bind_t *out, cpu_bind_type_t t)
{
	/* one binding type only, as Slurm */
	if (out->type != CPU_BIND_DEFAULT && out->type != t)
		return -1;
	out->type = t;
	return 0;
}

int cpu_bind_parse(const char *s, cpu_bind_t *out, char *err, size_t errlen)
{
	char *copy = xstrdup(s ? s : ""), *tok = copy, *next;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!*copy)
		rc = -1;
	while (!rc && tok && *tok) {
		const char *list = NULL;
		cpu_bind_type_t t = CPU_BIND_DEFAULT;

		if (!strncasecmp(tok, "map_cpu:", 8) ||
		    !strncasecmp(tok, "mask_cpu:", 9)) {
			/* the list runs to the end */
			bool mask = !strncasecmp(tok, "mask", 4);

			list = tok + (mask ? 9 : 8);
			out->list_text = xstrdup(list);
			if (set_type(out, mask ? CPU_BIND_MASK : CPU_BIND_MAP) < 0 ||
			    parse_list(list, mask, out) < 0) {
				snprintf(err, errlen, "bad list for \"--cpu-bind=%s\"",
					 tok);
				rc = -1;
			}
			break;
		}
		if ((next = strchr(tok, ',')))
			*next++ = '\0';
		if (!strcasecmp(tok, "verbose") || !strcasecmp(tok, "v"))
			out->verbose = true;
		else if (!strcasecmp(tok, "quiet") || !strcasecmp(tok, "q"))
			out->verbose = false;
		else if (!strcasecmp(tok, "none") || !strcasecmp(tok, "no"))
			t = CPU_BIND_NONE;
		else if (!strcasecmp(tok, "cores"))
			t = CPU_BIND_CORES;
		else if (!strcasecmp(tok, "threads"))
			t = CPU_BIND_THREADS;
		else if (!strcasecmp(tok, "sockets") ||
			 !strcasecmp(tok, "ldoms"))
			t = CPU_BIND_SOCKETS;
		else if (!strcasecmp(tok, "rank"))
			t = CPU_BIND_RANK;
		else {
			snprintf(err, errlen,
				 "unrecognized --cpu-bind argument \"%s\"", tok);
			rc = -1;
		}
		if (!rc && t != CPU_BIND_DEFAULT && set_type(out, t) < 0) {
			snprintf(err, errlen, "--cpu-bind: more than one binding type in \"%s\"",
				 s);
			rc = -1;
		}
		tok = next;
	}
	if (rc && !*copy)
		snprintf(err, errlen, "unrecognized --cpu-bind argument \"\"");
	xfree(copy);
	if (rc)
		cpu_bind_free(out);
	return rc;
}
