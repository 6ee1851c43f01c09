/* cli_sreport.h — sreport's reports, their columns and their output.
 *
 * sreport.c parses the command line into an sreport_t, asks slurmdbd
 * for the figures (REQUEST_DBD_REPORT) and hands the answer to one of
 * the report builders (cli_sreport_rep.c), which fill an sr_table_t of
 * rows; cli_sreport_out.c prints it as Slurm does: a banner (title,
 * window, units), a header, a dash line, rows, with usage values in the
 * chosen time format and usage columns as wide as their values need.
 */
#ifndef SLUICE_CLI_SREPORT_H
#define SLUICE_CLI_SREPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "cli/cli_table.h"
#include "common/msg_types.h"

/* -t: what a usage value prints as. */
typedef enum {
	SR_TIME_SECS,
	SR_TIME_MINS,
	SR_TIME_HOURS,
	SR_TIME_PERCENT,
	SR_TIME_SECPER,
	SR_TIME_MINPER,
	SR_TIME_HOURPER,
} sr_time_t;

/* "MinPer", "hours", "p"... -> SR_TIME_*; -1 if unknown. */
int         sr_time_parse(const char *s);
/* "CPU Minutes", "Percentage of Total", "CPU Hours/Percentage of Total" */
const char *sr_time_units(sr_time_t tf, bool cpu);

typedef enum {
	SR_CLUSTER_UTIL = 1,
	SR_ACCT_BY_USER,
	SR_USER_BY_ACCT,
	SR_USER_TOP,
	SR_JOB_SIZES,
	SR_USER_BY_WCKEY,          /* cluster UserUtilizationByWckey */
	SR_WCKEY_BY_USER,          /* cluster WCKeyUtilizationByUser */
	SR_ACCT_BY_QOS,            /* cluster AccountUtilizationByQOS */
	SR_JOB_SIZES_WCKEY,        /* job SizesByWckey */
	SR_JOB_SIZES_ACCT_WCKEY,   /* job SizesByAccountAndWckey */
	SR_RESV_UTIL,              /* reservation Utilization */
} sr_kind_t;

#define SR_TRES_MAX 64

/* Everything the command line said. */
typedef struct {
	sr_kind_t  kind;
	sr_time_t  tf;
	int        parsable;       /* 0, 1 (-p), 2 (-P) */
	bool       noheader;
	char      *cluster;
	time_t     start, end;     /* after Slurm's rounding */
	char     **users;          /* uids */
	char     **accounts;
	char     **wckeys;         /* wckeys= (wckey reports) */
	char      *format;         /* format= */
	bool       tree;
	bool       group;
	bool       flat;
	bool       job_count;      /* PrintJobCount */
	uint32_t   top_count;      /* TopCount (10) */
	uint32_t  *grouping;       /* job size bounds, ascending */
	uint32_t   grouping_cnt;
	uint32_t   tres[SR_TRES_MAX]; /* -T: TRES ids (none: cpu, no
				       * TRES Name column) */
	char      *tres_name[SR_TRES_MAX];   /* and their names */
	uint32_t   ntres;
} sreport_t;

/* A column a report offers: its cli_table.h row (format= name, header,
 * default width < 0 left-justified; no getter: the report fills the
 * cells) and whether it holds a usage value (time format, width). */
typedef struct {
	cli_field_t f;
	bool        usage;
} sr_field_t;

#define SR_F(nm, hd, w, use) \
	{ { .name = (nm), .header = (hd), .width = (w) }, (use) }

typedef struct {
	char     *text;            /* not a usage value */
	uint64_t  secs;            /* a usage value */
	uint64_t  total;           /* its percentages' base (0: the
				    * table's) */
} sr_cell_t;

typedef struct {
	cli_table_t        tab;    /* the columns (cli_table.h) */
	uint32_t           ncols;
	sr_cell_t         *cells;  /* rows * ncols */
	uint32_t           rows;
	uint64_t           total;  /* what percentages are of */
} sr_table_t;

/* Choose columns: format (a comma list with optional %width) or the
 * defaults (names, NULL-terminated).  -1 if a name is unknown
 * (printed).  sr_table_add: one more column after those. */
int  sr_table_cols(sr_table_t *t, const sr_field_t *fields,
		   const char *const *defaults, const char *format);
/* Start a new row; then set cells by column name (ignored if the
 * column was not chosen). */
void sr_table_add(sr_table_t *t, const sr_field_t *f, int width);
void sr_table_row(sr_table_t *t);
void sr_table_str(sr_table_t *t, const char *col, const char *v);
void sr_table_secs(sr_table_t *t, const char *col, uint64_t secs);
/* A usage value whose percentage is of total (one TRES's row). */
void sr_table_secs_of(sr_table_t *t, const char *col, uint64_t secs,
		      uint64_t total);
void sr_table_free(sr_table_t *t);

/* The banner: dashes, title, units, dashes (nothing with -n). */
void sr_banner(const sreport_t *o, const char *title, const char *units);
/* Header, dash line and rows. */
void sr_table_print(const sreport_t *o, sr_table_t *t);

/* Build and print report o->kind from slurmdbd's answers: one per
 * TRES of o->tres (one, for cpu, when o->ntres is 0). */
int  sr_report(const sreport_t *o, table_resp_msg_t *const *r, uint32_t n);
/* -T's list ("cpu,gres/gpu", "ALL"; case-insensitive) into o->tres and
 * o->tres_name from slurmdbd's TRES table (cli_sreport_tres.c).  Names
 * not in it are dropped (a warning unless quiet); none left: Slurm's
 * fatal message and -1. */
int         sr_tres_resolve(const char *arg, sreport_t *o, bool quiet);

/* "Cluster Utilization 2026-11-20T10:00:00 - 2026-11-20T11:59:59" */
char *sr_window(const sreport_t *o, const char *what, bool secs);

#endif
