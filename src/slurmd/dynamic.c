/* dynamic.c — slurmd -Z's NodeName line (dynamic.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurmd/dynamic.h"

static const char *const topo_keys[] = {
	"CPUs", "Procs", "Boards", "SocketsPerBoard", "Sockets",
	"CoresPerSocket", "ThreadsPerCore", NULL
};

static bool _key_is(const char *word, const char *key)
{
	size_t n = strlen(key);

	return !strncasecmp(word, key, n) && word[n] == '=';
}

char *dynamic_node_line(const char *name, const hwinfo_t *hw,
			const char *conf, char *err, size_t errlen)
{
	char **w = xstrsplit(conf ? conf : "", " \t", NULL);
	bool topo = false, mem = false;
	char *line;

	for (size_t i = 0; w[i]; i++) {
		if (!*w[i])
			continue;
		if (_key_is(w[i], "NodeName")) {
			snprintf(err, errlen, "--conf: NodeName is not "
				 "supported (use -N)");
			xstrarray_free(w);
			return NULL;
		}
		if (!strchr(w[i], '=')) {
			snprintf(err, errlen, "--conf: \"%s\" is not "
				 "Key=Value", w[i]);
			xstrarray_free(w);
			return NULL;
		}
		for (size_t k = 0; topo_keys[k]; k++)
			topo |= _key_is(w[i], topo_keys[k]);
		mem |= _key_is(w[i], "RealMemory");
	}
	line = xstrdup_printf("NodeName=%s", name);
	if (!topo)
		xstrfmtcat(&line, " CPUs=%u Boards=%u SocketsPerBoard=%u "
			   "CoresPerSocket=%u ThreadsPerCore=%u", hw->cpus,
			   hw->boards ? hw->boards : 1,
			   hw->sockets / (hw->boards ? hw->boards : 1),
			   hw->cores, hw->threads);
	if (!mem)
		xstrfmtcat(&line, " RealMemory=%llu",
			   (unsigned long long) hw->real_memory);
	for (size_t i = 0; w[i]; i++)
		if (*w[i])
			xstrfmtcat(&line, " %s", w[i]);
	xstrarray_free(w);
	return line;
}

conf_node_t *dynamic_node_parse(const slurm_conf_t *c, const char *line,
				char *err, size_t errlen)
{
	size_t cnt = 0;
	conf_node_t *n = conf_node_line(c, line, &cnt, err, errlen);

	if (n && cnt != 1) {
		snprintf(err, errlen, "a dynamic node line names one node");
		conf_node_line_free(n, cnt);
		return NULL;
	}
	return n;
}
