/* fuzz_conf_files.c — outside input of configless and dynamic nodes:
 * the first byte picks the parser, the rest is its input.
 *   0: a DNS answer into the SRV parser (conf_files_srv_parse): NULL or
 *      "host:port[,host:port...]" with every port non-zero.
 *   1: a NodeName line (slurmd -Z, scontrol create) into conf_node_line:
 *      NULL with an error, or nodes each with a name and a port.
 *   2: NUL-separated "name\0text\0..." as a files message
 *      (conf_files_check): accepted names are plain file names.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/conf.h"
#include "common/conf_files.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static void srv(const uint8_t *d, size_t n)
{
	char *s = conf_files_srv_parse(d, n);
	char **v;

	if (!s)
		return;
	v = xstrsplit(s, ",", NULL);
	for (size_t i = 0; v[i]; i++) {
		char *c = strrchr(v[i], ':');

		if (!c || c == v[i] || !atoi(c + 1))
			abort();
	}
	xstrarray_free(v);
	xfree(s);
}

static void node_line(const uint8_t *d, size_t n)
{
	char *s = xstrndup((const char *) d, n), err[256] = "";
	size_t cnt = 0;
	conf_node_t *v = conf_node_line(NULL, s, &cnt, err, sizeof(err));

	if (!v && (cnt || !err[0]))
		abort();
	for (size_t i = 0; v && i < cnt; i++)
		if (!v[i].name || !*v[i].name || !v[i].port)
			abort();
	conf_node_line_free(v, cnt);
	xfree(s);
}

static void files(const uint8_t *d, size_t n)
{
	config_files_msg_t m = { 0 };
	char err[256] = "", *buf = xmalloc(n + 1), *p;
	size_t k = 0;
	char **names = xcalloc(n + 2, sizeof(char *));
	char **texts = xcalloc(n + 2, sizeof(char *));

	memcpy(buf, d, n);
	buf[n] = '\0';
	p = buf;
	while (p < buf + n) {
		names[k] = p;
		p += strlen(p) + 1;
		texts[k++] = p < buf + n ? p : NULL;
		if (p < buf + n)
			p += strlen(p) + 1;
	}
	m.names = names;
	m.texts = texts;
	if (conf_files_check(&m, err, sizeof(err)) == 0) {
		for (size_t i = 0; names[i]; i++)
			if (strchr(names[i], '/') || !texts[i])
				abort();
	} else if (!err[0]) {
		abort();
	}
	xfree(names);
	xfree(texts);
	xfree(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		srv(data + 1, size - 1);
		break;
	case 1:
		node_line(data + 1, size - 1);
		break;
	default:
		files(data + 1, size - 1);
	}
	return 0;
}
