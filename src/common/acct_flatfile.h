/* acct_flatfile.h — Slurm's association flat file, the one
 * "sacctmgr dump" writes and "sacctmgr load" reads:
 *
 *     # comment
 *     Cluster - 'name':Fairshare=1:QOS='normal'
 *     Parent - 'root'
 *     User - 'root':DefaultAccount='root':AdminLevel='Administrator'
 *     Account - 'a':Description='d':Organization='o':Fairshare=40
 *     Parent - 'a'
 *     User - 'u':DefaultAccount='a':MaxJobs=3:QOS='normal,high'
 *
 * Each line is a title, " - ", a name (optionally quoted) and
 * colon-separated Key=Value options (values optionally in single or
 * double quotes, which may then hold ':').  The Cluster line comes first;
 * a Parent must be root or an account defined above.  The parser checks
 * everything (keys, numbers, times, TRES, names) before anything is
 * changed, and turns the options into slurmdbd's "key=value" settings.
 *
 * ff_encode/ff_decode carry one slurmdbd operation of a load (a
 * dbd_acct_msg_t and the file line it comes from) as one string, so that
 * a whole load travels in one DBD_OP_LOAD request and is applied in one
 * transaction.
 */
#ifndef SLUICE_ACCT_FLATFILE_H
#define SLUICE_ACCT_FLATFILE_H

#include <stddef.h>
#include <stdint.h>

#include "common/msg_types.h"

typedef enum {
	FF_CLUSTER = 1,
	FF_ACCOUNT,
	FF_USER,
} ff_kind_t;

typedef struct {
	ff_kind_t  kind;
	unsigned   line;
	char      *name;        /* lower case */
	char      *parent;      /* accounts and users: the Parent above */
	char     **assoc_set;   /* "fairshare=40", ... for the association */
	char     **entity_set;  /* account: description/organization;
				   user: defaultaccount/adminlevel */
	char     **coords;      /* user: Coordinator accounts */
} ff_entry_t;

typedef struct {
	ff_entry_t *e;          /* e[0] is the Cluster line */
	size_t      n;
} ff_file_t;

/* Parse len bytes of text.  0, or -1 with *line (0 = the file as a
 * whole) and a message in err ("Unknown option: Bogus=3"). */
int  ff_parse(const char *text, size_t len, ff_file_t *f, unsigned *line,
	      char *err, size_t errlen);
void ff_free(ff_file_t *f);

/* One operation as a string (caller frees) / back (0, or -1 if it is not
 * one; free the arrays with xstrarray_free). */
char *ff_encode(unsigned line, const dbd_acct_msg_t *m);
int   ff_decode(const char *s, unsigned *line, dbd_acct_msg_t *m);

#endif
