/* fuzz_part_words.c — arbitrary words into conf_part_apply, the parser
 * of scontrol create/update PartitionName= (the controller runs it on
 * the words a request carries).  Input: words separated by NUL or
 * newline.  A refused set leaves the partition exactly as it was, with
 * a message; an accepted one applied again changes nothing more.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/conf.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void same(const conf_part_t *a, const conf_part_t *b)
{
	if (a->max_time != b->max_time || a->default_time != b->default_time ||
	    a->max_nodes != b->max_nodes || a->min_nodes != b->min_nodes ||
	    a->is_default != b->is_default || a->hidden != b->hidden ||
	    a->priority_tier != b->priority_tier ||
	    a->priority_job_factor != b->priority_job_factor ||
	    a->max_mem_per_cpu != b->max_mem_per_cpu ||
	    a->grace_time != b->grace_time ||
	    xstrcmp(a->nodes, b->nodes) || xstrcmp(a->state, b->state) ||
	    xstrcmp(a->oversubscribe, b->oversubscribe) ||
	    xstrcmp(a->preempt_mode, b->preempt_mode) ||
	    xstrcmp(a->allow_accounts, b->allow_accounts) ||
	    xstrcmp(a->qos, b->qos))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);
	char **words = NULL;
	conf_part_t p, before;
	char err[1024];
	size_t bad = 0;
	int rc;

	memcpy(s, data, size);
	for (size_t i = 0; i < size; i++)
		if (s[i] == '\n')
			s[i] = '\0';
	for (size_t off = 0; off < size; off += strlen(s + off) + 1)
		words = xstrarray_append(words, s + off);
	conf_part_init_named(&p, "fuzz");
	conf_part_copy(&before, &p);
	err[0] = '\0';
	rc = conf_part_apply(&p, words, &bad, err, sizeof(err));
	if (rc) {
		if (!err[0] || !words || bad >= xstrarray_len(words))
			abort();
		same(&p, &before);
	} else {
		conf_part_t again;

		conf_part_copy(&again, &p);
		if (conf_part_apply(&again, words, NULL, err, sizeof(err)))
			abort();
		same(&p, &again);
		conf_part_free(&again);
	}
	conf_part_free(&before);
	conf_part_free(&p);
	xstrarray_free(words);
	xfree(s);
	return 0;
}
