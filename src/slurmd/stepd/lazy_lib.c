/* lazy_lib.c — open a library on first use (lazy_lib.h). */
#include "slurmd/stepd/lazy_lib.h"

#include <dlfcn.h>
#include <stddef.h>

#include "common/log.h"

int lazy_lib_load(lazy_lib_t *l)
{
	void *h;

	if (l->state)
		return l->state > 0 ? 0 : -1;
	l->state = -1;
	/* GLOBAL: the library's own modules resolve against it */
	if (!(h = dlopen(l->path, RTLD_NOW | RTLD_GLOBAL))) {
		error("%s: cannot load %s: %s", l->what, l->path, dlerror());
		return -1;
	}
	for (const lazy_sym_t *s = l->syms; s->name; s++) {
		if (!(*s->addr = dlsym(h, s->name))) {
			error("%s: %s has no %s", l->what, l->path, s->name);
			return -1;
		}
	}
	l->state = 1;
	return 0;
}
