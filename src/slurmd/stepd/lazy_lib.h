/* lazy_lib.h — libraries a step needs only sometimes (libpmix for
 * --mpi=pmix, libhwloc for task/affinity), opened on first use instead of
 * at every slurmstepd's start: with them linked in, each job's stepd
 * mapped and relocated them (and what they pull in) for nothing. */
#ifndef SLUICE_LAZY_LIB_H
#define SLUICE_LAZY_LIB_H

typedef struct {
	const char *name;
	void      **addr;     /* where the symbol's address goes */
} lazy_sym_t;

typedef struct {
	const char       *what;   /* for messages: "mpi/pmix" */
	const char       *path;   /* file name or path for dlopen */
	const lazy_sym_t *syms;   /* ends with a NULL name */
	int               state;  /* 0 not tried, 1 loaded, -1 failed */
} lazy_lib_t;

/* Open the library and resolve every symbol, once; 0, or -1 (logged,
 * and every later call fails the same way). */
int lazy_lib_load(lazy_lib_t *l);

#endif
