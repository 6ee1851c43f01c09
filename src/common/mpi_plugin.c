/* mpi_plugin.c — see mpi_plugin.h. */
#include "common/mpi_plugin.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common/msg_types.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const mpi_ops_t none_ops;
static const mpi_ops_t pmi2_ops = { .launch_flags = LAUNCH_PMI };
static const mpi_ops_t pmix_ops = { .launch_flags = LAUNCH_PMIX };

#define MPI_BUILTIN(var, n, o) \
	static const struct sluice_plugin var = { \
		.type = "mpi", .name = n, .abi_version = SLUICE_PLUGIN_ABI, \
		.ops_version = MPI_OPS_VERSION, .ops = &(o) }

MPI_BUILTIN(mpi_none, "none", none_ops);
MPI_BUILTIN(mpi_pmi2, "pmi2", pmi2_ops);
MPI_BUILTIN(mpi_pmix, "pmix", pmix_ops);
MPI_BUILTIN(mpi_pmix_v4, "pmix_v4", pmix_ops);

static const struct sluice_plugin *const builtins[] = {
	&mpi_none, &mpi_pmi2, &mpi_pmix, &mpi_pmix_v4, NULL,
};
const plugin_type_t mpi_type = {
	.type = "mpi", .key = "MpiDefault", .ops_version = MPI_OPS_VERSION,
	.builtins = builtins,
};
/* the same, named by srun's option in messages */
static const plugin_type_t mpi_option_type = {
	.type = "mpi", .key = "--mpi", .ops_version = MPI_OPS_VERSION,
	.builtins = builtins,
};

int mpi_plugin_flags(const char *name, bool option, const char *plugin_dir,
		     uint16_t *flags, char *err, size_t errlen)
{
	plugin_ctx_t *c;
	const mpi_ops_t *o;

	c = plugin_ctx_create(option ? &mpi_option_type : &mpi_type,
			      name && *name ? name : "none", plugin_dir, NULL,
			      err, errlen);
	if (!c)
		return -1;
	o = plugin_ctx_ops(c, 0);
	*flags = o->launch_flags & (LAUNCH_PMI | LAUNCH_PMIX);
	plugin_ctx_destroy(c);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static void add_name(char ***v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i], name))
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(name);
}

/* mpi_<name>.so files of each directory of the colon-separated list */
static void add_dir_names(char ***v, size_t *n, const char *plugin_dir)
{
	char **dirs = xstrsplit(plugin_dir ? plugin_dir : "", ":", NULL);

	for (size_t i = 0; dirs && dirs[i]; i++) {
		DIR *d = *dirs[i] ? opendir(dirs[i]) : NULL;
		struct dirent *e;

		while (d && (e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len > 7 && !strncmp(e->d_name, "mpi_", 4) &&
			    !strcmp(e->d_name + len - 3, ".so")) {
				char *name = xstrndup(e->d_name + 4, len - 7);

				add_name(v, n, name);
				xfree(name);
			}
		}
		if (d)
			closedir(d);
	}
	xstrarray_free(dirs);
}

char *mpi_plugin_list(const char *plugin_dir)
{
	char **v = NULL, *out = xstrdup("MPI plugin types are...\n");
	char *versions = NULL;
	size_t n = 0;

	for (size_t i = 0; builtins[i]; i++)
		add_name(&v, &n, builtins[i]->name);
	add_dir_names(&v, &n, plugin_dir);
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++) {
		if (!strncmp(v[i], "pmix_", 5))
			xstrfmtcat(&versions, "%s%s", versions ? "," : "",
				   v[i]);
		else
			xstrfmtcat(&out, "\t%s\n", v[i]);
		xfree(v[i]);
	}
	xfree(v);
	if (versions)
		xstrfmtcat(&out, "specific pmix plugin versions available: "
			   "%s\n", versions);
	xfree(versions);
	return out;
}
