/* fname.c — output file name patterns (see fname.h). */
#include "common/fname.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define FNAME_MAX_PAD 10

static char *strip_backslashes(const char *pattern)
{
	char *out = xstrdup("");

	for (const char *p = pattern; *p; p++) {
		if (*p != '\\')
			xstrcatc(&out, *p);
	}
	return out;
}

static void add_num(char **out, uint64_t v, int width)
{
	xstrfmtcat(out, "%0*llu", width, (unsigned long long) v);
}

static void add_step(char **out, uint32_t step_id, int width)
{
	if (step_id == FNAME_BATCH_STEP)
		xstrcat(out, "batch");
	else
		add_num(out, step_id, width);
}

static uint32_t master_id(const fname_ctx_t *c)
{
	return c->array_job_id ? c->array_job_id : c->job_id;
}

/* Append the value of one symbol; false if the letter is unknown. */
static bool add_symbol(char **out, char letter, int width,
		       const fname_ctx_t *c)
{
	switch (letter) {
	case '%':
		xstrcatc(out, '%');
		break;
	case 'A':
		add_num(out, master_id(c), width);
		break;
	case 'a':
		add_num(out, c->array_task_id, width);
		break;
	case 'b':
		add_num(out, c->array_task_id % 10, width);
		break;
	case 'j':
		add_num(out, c->job_id, width);
		break;
	case 'J':
		add_num(out, c->job_id, width);
		xstrcatc(out, '.');
		add_step(out, c->step_id, width);
		break;
	case 's':
		add_step(out, c->step_id, width);
		break;
	case 'n':
		add_num(out, c->node_id, width);
		break;
	case 't':
		add_num(out, c->task_id, width);
		break;
	case 'r':
		add_num(out, c->restart_cnt, width);
		break;
	case 'N':
		xstrcat(out, c->node_name ? c->node_name : "");
		break;
	case 'u':
		xstrcat(out, c->user_name ? c->user_name : "");
		break;
	case 'x':
		xstrcat(out, c->job_name ? c->job_name : "");
		break;
	default:
		return false;
	}
	return true;
}

char *fname_expand(const char *pattern, const fname_ctx_t *ctx)
{
	char *out;
	const char *p = pattern;

	if (!pattern)
		return NULL;
	if (strchr(pattern, '\\'))
		return strip_backslashes(pattern);

	out = xstrdup("");
	while (*p) {
		const char *start = p;
		int width = 0;

		if (*p != '%') {
			xstrcatc(&out, *p++);
			continue;
		}
		p++;
		while (isdigit((unsigned char) *p)) {
			if (width <= FNAME_MAX_PAD)
				width = width * 10 + (*p - '0');
			p++;
		}
		if (width > FNAME_MAX_PAD)
			width = FNAME_MAX_PAD;
		if (!*p || !add_symbol(&out, *p, width, ctx)) {
			/* unknown or missing letter: keep it as written */
			xstrncat(&out, start, (size_t) (p - start) + (*p ? 1 : 0));
			if (!*p)
				break;
		}
		p++;
	}
	return out;
}

const char *fname_default_batch(uint32_t array_job_id)
{
	return array_job_id ? "slurm-%A_%a.out" : "slurm-%j.out";
}
