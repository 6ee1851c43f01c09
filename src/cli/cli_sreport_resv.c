/* cli_sreport_resv.c — sreport reservation Utilization (cli_sreport.h):
 * one line per reservation (per occurrence) in the window with the CPU
 * time its jobs used in it (Allocated) and the rest of what it held
 * (Idle). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli_sreport_int.h"
#include "common/log.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

static const sr_field_t resv_fields[] = {
	SR_F("Allocated", "Allocated", 20, true),
	SR_F("Associations", "Associations", 15, false),
	SR_F("Cluster", "Cluster", 9, false),
	SR_F("End", "End", 19, false),
	SR_F("Flags", "Flags", 10, false),
	SR_F("Idle", "Idle", 20, true),
	SR_F("Name", "Name", 9, false),
	SR_F("Nodes", "Nodes", 15, false),
	SR_F("ReservationId", "Id", 9, false),
	SR_F("Start", "Start", 19, false),
	SR_F("TotalTime", "TotalTime", 13, false),
	SR_F("TresCount", "TRES count", 10, false),
	SR_F("TresName", "TRES Name", 14, false),
	SR_F("TresTime", "TRES Time", 20, true),
	SR_F(NULL, NULL, 0, false)
};
static const char *const resv_default[] = {
	"Cluster", "Name", "Start", "End", "TresName", "Allocated", "Idle",
	NULL
};

static int col(const table_resp_msg_t *r, const char *name)
{
	for (int i = 0; r->cols && r->cols[i]; i++)
		if (!strcmp(r->cols[i], name))
			return i;
	return -1;
}

static void put_time(sr_table_t *t, const char *c, const char *epoch)
{
	time_t v = (time_t)strtoll(epoch, NULL, 10);
	char buf[32] = "Unknown";
	struct tm tm;

	if (v > 0 && localtime_r(&v, &tm))
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	sr_table_str(t, c, buf);
}

/* [D-]HH:MM:SS */
static void put_duration(sr_table_t *t, const char *c, uint64_t s)
{
	char buf[48];

	if (s >= 86400)
		snprintf(buf, sizeof(buf), "%" PRIu64 "-%02u:%02u:%02u",
			 s / 86400, (unsigned)(s % 86400 / 3600),
			 (unsigned)(s % 3600 / 60), (unsigned)(s % 60));
	else
		snprintf(buf, sizeof(buf), "%02u:%02u:%02u",
			 (unsigned)(s / 3600), (unsigned)(s % 3600 / 60),
			 (unsigned)(s % 60));
	sr_table_str(t, c, buf);
}

int sr_resv_util(const sreport_t *o, const table_resp_msg_t *r)
{
	static const char *const need[] = { "kind", "id", "name", "start",
		"end", "nodes", "flags", "assocs", "cpus", "alloc", "total",
		"secs" };
	int c[12];
	size_t ncols = xstrarray_len(r->cols);
	size_t rows = ncols ? xstrarray_len(r->cells) / ncols : 0;
	sr_table_t t = { 0 };
	char *title;
	char units[128];
	int rc;

	for (size_t i = 0; i < 12; i++)
		if ((c[i] = col(r, need[i])) < 0) {
			error("Unexpected answer from slurmdbd");
			return -1;
		}
	rc = sr_table_cols(&t, resv_fields, resv_default, o->format);
	title = sr_window(o, "Reservation Utilization", false);
	snprintf(units, sizeof(units), "Usage reported in %s%s",
		 o->tf == SR_TIME_PERCENT ? "" : "TRES ",
		 sr_time_units(o->tf, false));
	sr_banner(o, title, units);
	xfree(title);
	for (size_t i = 0; i < rows; i++) {
		char *const *row = r->cells + i * ncols;
		uint64_t total = strtoull(row[c[10]], NULL, 10);
		uint64_t alloc = strtoull(row[c[9]], NULL, 10);

		if (strcmp(row[c[0]], "resv"))
			continue;
		t.total += total;
		sr_table_row(&t);
		sr_table_str(&t, "Cluster", o->cluster);
		sr_table_str(&t, "Name", row[c[2]]);
		sr_table_str(&t, "ReservationId", row[c[1]]);
		put_time(&t, "Start", row[c[3]]);
		put_time(&t, "End", row[c[4]]);
		sr_table_str(&t, "Nodes", row[c[5]]);
		sr_table_str(&t, "Flags", row[c[6]]);
		sr_table_str(&t, "Associations", row[c[7]]);
		sr_table_str(&t, "TresCount", row[c[8]]);
		sr_table_str(&t, "TresName", "cpu");
		sr_table_secs(&t, "Allocated", alloc < total ? alloc : total);
		sr_table_secs(&t, "Idle", alloc < total ? total - alloc : 0);
		sr_table_secs(&t, "TresTime", total);
		put_duration(&t, "TotalTime",
			     strtoull(row[c[11]], NULL, 10));
	}
	sr_table_print(o, &t);
	sr_table_free(&t);
	return rc;
}
