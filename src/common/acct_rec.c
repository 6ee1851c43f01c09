/* acct_rec.c — accounting record tables and the outbox frame format
 * (acct_rec.h). */
#define _GNU_SOURCE     /* program_invocation_short_name */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/acct_rec.h"
#include "common/pack.h"
#include "common/parse_util.h"
#include "common/xmalloc.h"

#define F(st, m, t) FIELD(st, m, t)

#define CL(m, t) F(acct_cluster_rec_t, m, t)
const field_desc_t acct_cluster_rec_fields[] = {
	CL(control_host, FT_STR), CL(control_port, FT_U32),
	CL(registered, FT_TIME),
	FIELD_END
};
#undef CL

#define J(m, t) F(acct_job_rec_t, m, t)
const field_desc_t acct_job_rec_fields[] = {
	J(job_id, FT_U32), J(array_job_id, FT_U32), J(array_task_id, FT_U32),
	J(name, FT_STR), J(uid, FT_U32), J(gid, FT_U32), J(account, FT_STR),
	J(partition, FT_STR), J(qos, FT_STR), J(state, FT_U32),
	J(reason, FT_U32), J(requid, FT_U32), J(exit_code, FT_U32),
	J(derived_ec, FT_U32), J(submit, FT_TIME), J(eligible, FT_TIME),
	J(start, FT_TIME), J(end, FT_TIME), J(time_limit, FT_U32),
	J(nodes, FT_STR), J(num_nodes, FT_U32), J(num_cpus, FT_U32),
	J(req_cpus, FT_U32), J(tres_alloc, FT_STR), J(tres_req, FT_STR),
	J(req_mem, FT_U64), J(mem_per_cpu, FT_BOOL), J(work_dir, FT_STR),
	J(comment, FT_STR), J(submit_line, FT_STR), J(constraints, FT_STR),
	J(restart_cnt, FT_U32), J(priority, FT_U32), J(cluster, FT_STR),
	J(array_task_str, FT_STR),
	/* records of older controllers end before these (job_rec_old) */
	J(container, FT_STR),
	J(wckey, FT_STR), J(wckey_id, FT_U32), J(resv_id, FT_U32),
	J(het_job_id, FT_U32), J(het_job_offset, FT_U32),
	J(time_suspended, FT_TIME),
#ifdef SLUICE_PROTO_NEXT
	FIELD_SINCE(acct_job_rec_t, proto_next, FT_U32, PROTO_25_11, NO_VAL32),
#endif
	FIELD_END
};
#undef J

#define S(m, t) F(acct_step_rec_t, m, t)
const field_desc_t acct_step_rec_fields[] = {
	S(job_id, FT_U32), S(submit, FT_TIME), S(step_id, FT_U32),
	S(name, FT_STR), S(start, FT_TIME), S(end, FT_TIME),
	S(state, FT_U32), S(exit_code, FT_U32), S(requid, FT_U32),
	S(nodes, FT_STR), S(num_nodes, FT_U32), S(ntasks, FT_U32),
	S(num_cpus, FT_U32), S(tres_alloc, FT_STR), S(user_usec, FT_U64),
	S(sys_usec, FT_U64), S(max_rss_kb, FT_U64), S(max_vsize_kb, FT_U64),
	S(ave_rss_kb, FT_U64), S(ave_vsize_kb, FT_U64),
	/* records of older controllers end before these (step_rec_old) */
	S(consumed_energy, FT_U64), S(container, FT_STR),
	FIELD_END
};
#undef S

#define E(m, t) F(acct_event_rec_t, m, t)
const field_desc_t acct_event_rec_fields[] = {
	E(node_name, FT_STR), E(state, FT_U32), E(reason, FT_STR),
	E(reason_uid, FT_U32), E(start, FT_TIME), E(end, FT_TIME),
	E(tres, FT_STR),
	FIELD_END
};
#undef E

#define RV(m, t) F(acct_resv_rec_t, m, t)
const field_desc_t acct_resv_rec_fields[] = {
	RV(resv_id, FT_U32), RV(name, FT_STR), RV(time_start, FT_TIME),
	RV(time_end, FT_TIME), RV(nodes, FT_STR), RV(tres, FT_STR),
	RV(flags, FT_U64), RV(users, FT_STR), RV(accounts, FT_STR),
	RV(deleted, FT_BOOL), RV(time_start_prev, FT_TIME),
	RV(cluster, FT_STR),
	FIELD_END
};
#undef RV

#define SC(m, t) F(acct_script_rec_t, m, t)
const field_desc_t acct_script_rec_fields[] = {
	SC(job_id, FT_U32), SC(submit, FT_TIME), SC(script, FT_STR),
	SC(env, FT_STR),
	FIELD_END
};
#undef SC
#define TR(m, t) F(acct_track_rec_t, m, t)
const field_desc_t acct_track_rec_fields[] = {
	TR(job_id, FT_U32), TR(submit, FT_TIME), TR(kind, FT_U16),
	TR(name, FT_STR), TR(step, FT_U64), TR(value, FT_DOUBLE),
	TR(text, FT_STR), TR(time, FT_TIME), TR(array_job_id, FT_U32),
	TR(array_task_id, FT_U32), TR(cluster, FT_STR),
	FIELD_END
};
#undef TR

#define PR(m, t) F(acct_profile_rec_t, m, t)
const field_desc_t acct_profile_rec_fields[] = {
	PR(job_id, FT_U32), PR(submit, FT_TIME), PR(step_id, FT_U32),
	PR(node, FT_STR), PR(time, FT_TIME), PR(ntasks, FT_U32),
	PR(cpu_usec, FT_U64), PR(cpu_util, FT_DOUBLE), PR(rss_kb, FT_U64),
	PR(vsize_kb, FT_U64), PR(read_bytes, FT_U64),
	PR(write_bytes, FT_U64), PR(energy_j, FT_U64),
	PR(array_job_id, FT_U32), PR(array_task_id, FT_U32),
	PR(cluster, FT_STR),
	FIELD_END
};
#undef PR

const char *track_kind_name(uint16_t kind)
{
	static const char *const names[] = {
		[TRACK_METRIC] = "metric", [TRACK_PARAM] = "param",
		[TRACK_ARTIFACT] = "artifact", [TRACK_EVENT] = "event",
	};

	return kind && kind < TRACK_KIND_END ? names[kind] : NULL;
}

const field_desc_t *acct_rec_fields(uint16_t kind, size_t *size)
{
	switch (kind) {
	case ACCT_REC_CLUSTER:
		*size = sizeof(acct_cluster_rec_t);
		return acct_cluster_rec_fields;
	case ACCT_REC_JOB:
		*size = sizeof(acct_job_rec_t);
		return acct_job_rec_fields;
	case ACCT_REC_STEP:
		*size = sizeof(acct_step_rec_t);
		return acct_step_rec_fields;
	case ACCT_REC_NODE_EVENT:
		*size = sizeof(acct_event_rec_t);
		return acct_event_rec_fields;
	case ACCT_REC_RESV:
		*size = sizeof(acct_resv_rec_t);
		return acct_resv_rec_fields;
	case ACCT_REC_JOB_SCRIPT:
		*size = sizeof(acct_script_rec_t);
		return acct_script_rec_fields;
	case ACCT_REC_TRACK:
		*size = sizeof(acct_track_rec_t);
		return acct_track_rec_fields;
	case ACCT_REC_PROFILE:
		*size = sizeof(acct_profile_rec_t);
		return acct_profile_rec_fields;
	}
	*size = 0;
	return NULL;
}

/* ---- CRC-32 (IEEE, reflected) ---- */

uint32_t acct_crc32(const void *data, size_t len)
{
	static uint32_t table[256];
	static bool ready;
	const uint8_t *p = data;
	uint32_t crc = 0xffffffffu;

	if (!ready) {          /* idempotent: a race writes the same values */
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t c = i;

			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		ready = true;
	}
	for (size_t i = 0; i < len; i++)
		crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
	return crc ^ 0xffffffffu;
}

/* ---- big-endian helpers for the file framing ---- */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, (uint32_t)v);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

void acct_outbox_header(uint8_t *out, uint64_t epoch)
{
	memcpy(out, ACCT_OUTBOX_MAGIC, 8);
	put32(out + 8, ACCT_OUTBOX_VERSION);
	put64(out + 12, epoch);
}

int acct_outbox_header_parse(const uint8_t *in, size_t len, uint64_t *epoch,
			     uint32_t *format)
{
	if (len < ACCT_OUTBOX_HDR_LEN || memcmp(in, ACCT_OUTBOX_MAGIC, 8))
		return -1;
	*format = get32(in + 8);
	if (*format > ACCT_OUTBOX_VERSION)
		return -2;
	if (*format < ACCT_OUTBOX_V1)
		return -1;
	*epoch = get64(in + 12);
	return 0;
}

/* ---- frames ---- */

void acct_frame_build_at(acct_frame_t *f, uint64_t seq, uint16_t kind,
			 const void *rec, uint16_t v)
{
	size_t size;
	const field_desc_t *fields = acct_rec_fields(kind, &size);
	buf_t *b = buf_create(256);
	size_t len;

	buf_set_proto(b, v);
	fields_pack(b, fields, rec);
	f->seq = seq;
	f->kind = kind;
	f->version = v;
	f->data = buf_steal(b, &len);
	f->len = (uint32_t)len;
	buf_destroy(b);
}

void acct_frame_build(acct_frame_t *f, uint64_t seq, uint16_t kind,
		      const void *rec)
{
	acct_frame_build_at(f, seq, kind, rec, PROTO_OWN);
}

/* Body on disk: seq (8), kind (2), version (2), data. */
uint8_t *acct_frame_encode(const acct_frame_t *f, size_t *len)
{
	uint32_t body = ACCT_FRAME_FIXED + f->len;
	uint8_t *out = xmalloc(ACCT_FRAME_HDR_LEN + body);
	uint8_t *p = out + ACCT_FRAME_HDR_LEN;

	put64(p, f->seq);
	p[8] = f->kind >> 8;
	p[9] = (uint8_t)f->kind;
	p[10] = f->version >> 8;
	p[11] = (uint8_t)f->version;
	if (f->len)
		memcpy(p + ACCT_FRAME_FIXED, f->data, f->len);
	put32(out, body);
	put32(out + 4, acct_crc32(p, body));
	*len = ACCT_FRAME_HDR_LEN + body;
	return out;
}

size_t acct_frame_decode(const uint8_t *in, size_t len, uint32_t format,
			 acct_frame_t *f)
{
	uint32_t body, fixed = format == ACCT_OUTBOX_V1 ? 10 : ACCT_FRAME_FIXED;
	const uint8_t *p = in + ACCT_FRAME_HDR_LEN;

	memset(f, 0, sizeof(*f));
	if (len < ACCT_FRAME_HDR_LEN || format < ACCT_OUTBOX_V1 ||
	    format > ACCT_OUTBOX_VERSION)
		return 0;
	body = get32(in);
	if (body < fixed || body > ACCT_FRAME_MAX_BODY ||
	    body > len - ACCT_FRAME_HDR_LEN ||
	    acct_crc32(p, body) != get32(in + 4))
		return 0;
	f->seq = get64(p);
	f->kind = (uint16_t)(p[8] << 8 | p[9]);
	f->version = fixed > 10 ? (uint16_t)(p[10] << 8 | p[11])
				: ACCT_REC_UNVERSIONED;
	f->len = body - fixed;
	f->data = xmalloc(f->len + 1);
	memcpy(f->data, p + fixed, f->len);
	return ACCT_FRAME_HDR_LEN + body;
}

void acct_frame_free_members(acct_frame_t *f)
{
	xfree(f->data);
	f->len = 0;
}

/* A record from an outbox written before the last fields of its table
 * existed (job: array_task_str, then container/wckey/wckey_id/resv_id,
 * then het_job_id/het_job_offset, then time_suspended; step:
 * consumed_energy, then container). */
static void *rec_v1(const field_desc_t *v1, size_t size, const uint8_t *data,
		    uint32_t len, uint16_t version)
{
	buf_t *b = buf_view(data, len);
	void *rec = xmalloc(size);

	buf_set_proto(b, version == ACCT_REC_UNVERSIONED ? PROTO_25_05
							  : version);
	if (fields_unpack(b, v1, rec) < 0 || buf_remaining(b)) {
		fields_free(v1, rec);
		xfree(rec);
	}
	buf_destroy(b);
	return rec;
}

#define NFIELDS(t) (sizeof(t) / sizeof((t)[0]))

/* Rows of the base (25.05), before any a later version added. */
static size_t base_rows(const field_desc_t *f)
{
	size_t n = 0;

	while (f[n].name && !f[n].since)
		n++;
	return n;
}

/* Job records of unversioned outbox files (format 1) lost trailing
 * fields at each older layout: 1 (time_suspended), then 2 (the hetjob
 * ids), then 4 (container, wckey, wckey_id, resv_id), then 1 more
 * (array_task_str). */
static void *job_rec_old(const uint8_t *data, uint32_t len)
{
	static const size_t drop[] = { 1, 3, 7, 8 };
	enum { OLD_CNT = sizeof(drop) / sizeof(drop[0]) };
	static field_desc_t old[OLD_CNT][NFIELDS(acct_job_rec_fields)];
	void *rec = NULL;

	for (size_t v = 0; v < OLD_CNT && !rec; v++) {
		if (!old[v][0].name) {
			memcpy(old[v], acct_job_rec_fields, sizeof(old[v]));
			old[v][base_rows(old[v]) - drop[v]] =
				(field_desc_t)FIELD_END;
		}
		rec = rec_v1(old[v], sizeof(acct_job_rec_t), data, len,
			     ACCT_REC_UNVERSIONED);
	}
	return rec;
}

/* Step records of older controllers: without container (any version:
 * a Sluice controller of the same protocol before schema 22), then
 * without consumed_energy too (unversioned outbox files only). */
static void *step_rec_old(const uint8_t *data, uint32_t len, uint16_t version)
{
	static const size_t drop[] = { 1, 2 };
	enum { OLD_CNT = sizeof(drop) / sizeof(drop[0]) };
	static field_desc_t old[OLD_CNT][NFIELDS(acct_step_rec_fields)];
	size_t cnt = version == ACCT_REC_UNVERSIONED ? OLD_CNT : 1;
	void *rec = NULL;

	for (size_t v = 0; v < cnt && !rec; v++) {
		if (!old[v][0].name) {
			memcpy(old[v], acct_step_rec_fields, sizeof(old[v]));
			old[v][base_rows(old[v]) - drop[v]] =
				(field_desc_t)FIELD_END;
		}
		rec = rec_v1(old[v], sizeof(acct_step_rec_t), data, len,
			     version);
	}
	return rec;
}

bool acct_rec_version_ok(uint16_t v, char *why, size_t len)
{
	char rv[16], own[16], old[16];

	if (v == ACCT_REC_UNVERSIONED || proto_supported(v))
		return true;
	if (!why)
		return false;
	proto_str(v, rv, sizeof(rv));
	proto_str(PROTO_OWN, own, sizeof(own));
	proto_str(proto_oldest(), old, sizeof(old));
	if (v > PROTO_OWN)
		snprintf(why, len, "accounting record of protocol version %s, "
			 "newer than this %s's %s (reads %s to %s): slurmdbd "
			 "must be upgraded first", rv,
			 program_invocation_short_name, own, old, own);
	else
		snprintf(why, len, "accounting record of protocol version %s, "
			 "older than the oldest this %s %s reads (%s to %s): "
			 "send it through a slurmdbd of %s to %s first", rv,
			 program_invocation_short_name, own, old, own, rv,
			 old);
	return false;
}

void *acct_rec_unpack(uint16_t kind, uint16_t version, const uint8_t *data,
		      uint32_t len)
{
	size_t size;
	const field_desc_t *fields = acct_rec_fields(kind, &size);
	buf_t *b;
	void *rec;

	if (!fields || !acct_rec_version_ok(version, NULL, 0))
		return NULL;
	b = buf_view(data, len);
	buf_set_proto(b, version == ACCT_REC_UNVERSIONED ? PROTO_25_05
							  : version);
	rec = xmalloc(size);
	if (fields_unpack(b, fields, rec) < 0 || buf_remaining(b)) {
		fields_free(fields, rec);
		xfree(rec);
	}
	buf_destroy(b);
	if (!rec && version == ACCT_REC_UNVERSIONED && kind == ACCT_REC_JOB)
		rec = job_rec_old(data, len);
	if (!rec && kind == ACCT_REC_STEP)
		rec = step_rec_old(data, len, version);
	return rec;
}

void acct_rec_free(uint16_t kind, void *rec)
{
	size_t size;
	const field_desc_t *fields = acct_rec_fields(kind, &size);

	if (!rec)
		return;
	if (fields)
		fields_free(fields, rec);
	xfree(rec);
}
