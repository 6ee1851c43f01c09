/* cli_show.c — scontrol show job|node|partition|reservation|step and the --json/--yaml
 * documents, both walking the field tables of cli_fields_*.c. */
#include <time.h>

#include "cli/cli_common.h"
#include "cli/cli_fields.h"
#include "cli/cli_output.h"
#include "cli/cli_show.h"

cli_ctx_t cli_show_ctx(void)
{
	const slurm_conf_t *conf = cli_conf();
	cli_ctx_t ctx = { .now = time(NULL) };

	ctx.slurmd_port = conf ? conf->slurmd_port : 6818;
	cli_output_set_cluster(conf ? conf->cluster_name : NULL);
	return ctx;
}

void cli_show_job(FILE *out, const job_info_t *j, bool one_liner, bool detail)
{
	cli_ctx_t ctx = cli_show_ctx();

	cli_fields_show(out, cli_job_fields, j, &ctx, one_liner, detail,
			"\n   \n\n", " \n");
}

void cli_show_node(FILE *out, const node_info_t *n, bool one_liner,
		   bool detail)
{
	cli_ctx_t ctx = cli_show_ctx();

	cli_fields_show(out, cli_node_fields, n, &ctx, one_liner, detail,
			"\n\n", "\n");
}

void cli_show_part(FILE *out, const part_info_t *p, bool one_liner)
{
	cli_ctx_t ctx = cli_show_ctx();

	cli_fields_show(out, cli_part_fields, p, &ctx, one_liner, false,
			"\n\n", "\n");
}

void cli_show_resv(FILE *out, const resv_info_t *r, bool one_liner)
{
	cli_ctx_t ctx = cli_show_ctx();

	cli_fields_show(out, cli_resv_fields, r, &ctx, one_liner, false,
			"\n\n", "\n");
}

void cli_show_step(FILE *out, const job_step_info_t *s, bool one_liner)
{
	cli_ctx_t ctx = cli_show_ctx();

	cli_fields_show(out, cli_step_info_fields, s, &ctx, one_liner, false,
			"\n\n", "\n\n");
}

/* One list from a record array and a table (the records i with want[i],
 * all if want is NULL), wrapped in the envelope. */
static json_object *some_records_doc(const char *key, const cli_field_t *tab,
				     const void *recs, size_t size,
				     uint32_t cnt, const bool *want,
				     time_t last_update)
{
	cli_ctx_t ctx = cli_show_ctx();
	json_object *list = json_object_new_array();

	for (uint32_t i = 0; i < cnt; i++)
		if (!want || want[i])
			json_object_array_add(list, cli_fields_json(tab,
				(const char *)recs + (size_t)i * size, &ctx));
	return cli_output_doc(key, list, last_update);
}

static json_object *records_doc(const char *key, const cli_field_t *tab,
				const void *recs, size_t size, uint32_t cnt,
				time_t last_update)
{
	return some_records_doc(key, tab, recs, size, cnt, NULL, last_update);
}

json_object *cli_jobs_doc(const job_info_msg_t *m)
{
	json_object *doc = records_doc("jobs", cli_job_fields, m->jobs,
				       sizeof(*m->jobs), m->cnt, m->last_update);

	json_object_object_add(doc, "last_backfill", cli_json_time(0));
	return doc;
}

json_object *cli_nodes_doc(const node_info_msg_t *m)
{
	return records_doc("nodes", cli_node_fields, m->nodes,
			   sizeof(*m->nodes), m->cnt, m->last_update);
}

json_object *cli_parts_doc(const part_info_msg_t *m)
{
	return records_doc("partitions", cli_part_fields, m->parts,
			   sizeof(*m->parts), m->cnt, m->last_update);
}

void cli_print_jobs_json(FILE *out, const job_info_msg_t *m, bool yaml)
{
	cli_output_doc_print(out, cli_jobs_doc(m), yaml);
}

void cli_print_nodes_json(FILE *out, const node_info_msg_t *m, bool yaml)
{
	cli_output_doc_print(out, cli_nodes_doc(m), yaml);
}

void cli_print_parts_json(FILE *out, const part_info_msg_t *m, bool yaml)
{
	cli_output_doc_print(out, cli_parts_doc(m), yaml);
}

json_object *cli_resvs_doc(const resv_info_msg_t *m, const bool *want)
{
	return some_records_doc("reservations", cli_resv_fields, m->resvs,
				sizeof(*m->resvs), m->cnt, want, m->last_update);
}

void cli_print_resvs_json(FILE *out, const resv_info_msg_t *m,
			  const bool *want, bool yaml)
{
	cli_output_doc_print(out, cli_resvs_doc(m, want), yaml);
}

void cli_print_steps_json(FILE *out, const job_step_info_msg_t *m, bool yaml)
{
	cli_output_doc_print(out, records_doc("steps", cli_step_info_fields,
					      m->steps, sizeof(*m->steps),
					      m->cnt, m->last_update), yaml);
}
