/* fuzz_rest_ui.c — arbitrary bytes as a request path for slurmrestd's web
 * view (rest_ui_resolve): whatever it accepts must be a regular file
 * inside the served directory, never the secret beside it or anything a
 * symlink leads to outside.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON ...
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/restd/rest_ui.c"

static char root[PATH_MAX];

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char tmpl[] = "/tmp/fuzz_rest_ui.XXXXXX", top[PATH_MAX], p[PATH_MAX * 2];

	(void)argc;
	(void)argv;
	if (!mkdtemp(tmpl) || !realpath(tmpl, top))
		abort();
	snprintf(root, sizeof(root), "%s/www", top);
	snprintf(p, sizeof(p), "%s/secret", top);
	put(p, "secret");
	if (mkdir(root, 0755))
		abort();
	snprintf(p, sizeof(p), "%s/assets", root);
	if (mkdir(p, 0755))
		abort();
	snprintf(p, sizeof(p), "%s/index.html", root);
	put(p, "index");
	snprintf(p, sizeof(p), "%s/assets/a.js", root);
	put(p, "js");
	snprintf(p, sizeof(p), "%s/out", root);
	if (symlink("../secret", p))
		abort();
	snprintf(p, sizeof(p), "%s/up", root);
	if (symlink("..", p))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = malloc(size + 5), out[PATH_MAX];
	size_t rlen = strlen(root);
	struct stat st;

	/* half the inputs under /ui/, half as they come */
	if (size && (data[0] & 1)) {
		memcpy(path, "/ui/", 4);
		memcpy(path + 4, data + 1, size - 1);
		path[size + 3] = '\0';
	} else {
		memcpy(path, data, size);
		path[size] = '\0';
	}
	if (rest_ui_resolve(root, path, out, sizeof(out)) == 0) {
		if (strncmp(out, root, rlen) || out[rlen] != '/' ||
		    stat(out, &st) || !S_ISREG(st.st_mode) ||
		    strstr(out, "secret"))
			abort();
	}
	(void)rest_ui_content_type(path);
	free(path);
	return 0;
}
