/* fuzz_sacctmgr_load.c — arbitrary bytes as the flat file "sacctmgr
 * load" reads (acct_flatfile.c): parsed; a file that parses has a
 * Cluster line first, names and settings in the forms slurmdbd takes, and
 * every operation built from it survives ff_encode/ff_decode unchanged. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/acct_flatfile.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void same_list(char **a, char **b)
{
	size_t n = xstrarray_len(a);

	if (n != xstrarray_len(b))
		__builtin_trap();
	for (size_t i = 0; i < n; i++)
		if (strcmp(a[i], b[i]))
			__builtin_trap();
}

static void round_trip(unsigned line, uint16_t op, char *name, char **set)
{
	char *names[2] = { name, NULL };
	dbd_acct_msg_t m = { .op = op, .entity = DBD_ENT_ACCOUNT,
			     .names = names, .set = set }, back;
	unsigned l2;
	char *enc = ff_encode(line, &m);

	if (ff_decode(enc, &l2, &back) < 0 || l2 != line ||
	    back.op != op || back.entity != DBD_ENT_ACCOUNT)
		__builtin_trap();
	same_list(m.names, back.names);
	same_list(m.set, back.set);
	xstrarray_free(back.names);
	xstrarray_free(back.where);
	xstrarray_free(back.set);
	xfree(enc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ff_file_t f;
	unsigned line;
	char err[512];
	dbd_acct_msg_t m;

	if (ff_parse((const char *)data, size, &f, &line, err,
		     sizeof(err)) == 0) {
		if (!f.n || f.e[0].kind != FF_CLUSTER)
			__builtin_trap();
		for (size_t i = 0; i < f.n; i++) {
			const ff_entry_t *e = &f.e[i];

			if (!e->name[0] || strchr(e->name, '\x1f') ||
			    (i && e->kind == FF_CLUSTER))
				__builtin_trap();
			for (size_t k = 0; e->assoc_set && e->assoc_set[k];
			     k++)
				if (!strchr(e->assoc_set[k], '=') ||
				    strchr(e->assoc_set[k], '\x1f'))
					__builtin_trap();
			round_trip(e->line, DBD_OP_ADD, e->name,
				   e->assoc_set);
		}
		ff_free(&f);
	} else if (!err[0]) {
		__builtin_trap();          /* refused without a reason */
	}
	/* the decoder takes outside bytes too (slurmdbd receives them) */
	{
		char *s = xstrndup((const char *)data, size);

		if (ff_decode(s, &line, &m) == 0) {
			xstrarray_free(m.names);
			xstrarray_free(m.where);
			xstrarray_free(m.set);
		}
		xfree(s);
	}
	return 0;
}
