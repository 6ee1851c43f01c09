/* test_proto.c — protocol versions (proto_version.h) as a property of the
 * message table (fields.h): the window of versions a daemon serves, the
 * header check, and for every message type and every pair of supported
 * versions a round trip at the lower one that carries that version's
 * fields and gives the others their defaults; every truncation at every
 * version is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "common/job_info.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/node_info.h"
#include "common/proto_version.h"
#include "common/resv_info.h"
#include "common/xmalloc.h"
#include "common/xstring.h"
#include "slurm/slurm_errno.h"

/* Every version this build knows, oldest first; the supported ones are
 * the last PROTO_SUPPORTED. */
static const uint16_t known[] = {
	PROTO_24_05, PROTO_24_11, PROTO_25_05,
#ifdef SLUICE_PROTO_NEXT
	PROTO_25_11,
#endif
};
#define N_KNOWN (sizeof(known) / sizeof(known[0]))
static size_t first_supported(void)
{
	return N_KNOWN - PROTO_SUPPORTED;
}
#define FIRST_SUPPORTED first_supported()

/* ---- the window ---- */

static void test_window(void **state)
{
	char s[16];

	assert_int_equal(MSG_PROTOCOL_VERSION, known[N_KNOWN - 1]);
	for (size_t i = 0; i < N_KNOWN; i++)
		assert_int_equal(proto_supported(known[i]),
				 i >= FIRST_SUPPORTED);
	assert_false(proto_supported(0));
	assert_false(proto_supported(PROTO_OWN + 1));
	assert_false(proto_supported(0x2611));
	assert_false(proto_supported(0x2311));
	assert_int_equal(proto_oldest(), known[FIRST_SUPPORTED]);
	assert_int_equal(proto_for_peer(0), PROTO_OWN);
	assert_int_equal(proto_for_peer(known[FIRST_SUPPORTED]),
			 known[FIRST_SUPPORTED]);
	assert_int_equal(proto_for_peer(0x2611), PROTO_OWN);
	assert_string_equal(proto_str(PROTO_25_05, s, sizeof(s)), "25.05");
	assert_string_equal(proto_str(PROTO_24_11, s, sizeof(s)), "24.11");
	/* a refusal answers an older peer at its version, a newer at ours */
	assert_int_equal(msg_version_reply_to(0x2311), 0x2311);
	assert_int_equal(msg_version_reply_to(0x2611), PROTO_OWN);
}

static void put_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

static int parse_at(uint16_t version, msg_header_t *h)
{
	uint8_t raw[MSG_HEADER_LEN];

	put_be32(raw, MSG_MAGIC);
	put_be16(raw + 4, version);
	put_be16(raw + 6, REQUEST_PING);
	put_be16(raw + 8, 0);
	put_be32(raw + 10, 0);
	put_be32(raw + 14, 0);
	memset(h, 0, sizeof(*h));
	return msg_header_parse(raw, h);
}

/* Too old and too new are refused before anything else is read, and the
 * header says which version the peer spoke (for the log and the reply). */
static void test_header_versions(void **state)
{
	msg_header_t h;

	assert_int_equal(parse_at(0x2311, &h), SLURM_PROTOCOL_VERSION_ERROR);
	assert_int_equal(h.version, 0x2311);
	assert_int_equal(parse_at(0x2611, &h), SLURM_PROTOCOL_VERSION_ERROR);
	assert_int_equal(h.version, 0x2611);
	assert_int_equal(parse_at(0, &h), SLURM_PROTOCOL_VERSION_ERROR);
	for (size_t i = 0; i < N_KNOWN; i++) {
		int rc = parse_at(known[i], &h);

		assert_int_equal(rc, i >= FIRST_SUPPORTED ? SLURM_SUCCESS :
				 SLURM_PROTOCOL_VERSION_ERROR);
		assert_int_equal(h.version, known[i]);
	}
}

/* A body packed for an older peer says so in its header. */
static void test_encoded_header_carries_body_version(void **state)
{
	buf_t *body = buf_create(16), *out = NULL;
	msg_header_t h;
	uint16_t old = known[FIRST_SUPPORTED];

	buf_set_proto(body, old);
	assert_int_equal(msg_body_pack(REQUEST_PING, NULL, body), 0);
	assert_int_equal(msg_encode_prefix_peer(REQUEST_PING, body, &out), 0);
	assert_int_equal(msg_header_parse(buf_data(out), &h), 0);
	assert_int_equal(h.version, old);
	buf_destroy(out);
	buf_set_proto(body, 0);
	assert_int_equal(msg_encode_prefix_peer(REQUEST_PING, body, &out), 0);
	assert_int_equal(msg_header_parse(buf_data(out), &h), 0);
	assert_int_equal(h.version, PROTO_OWN);
	buf_destroy(out);
	buf_destroy(body);
}

/* ---- a synthetic table: added, removed, defaults ---- */

typedef struct {
	uint32_t a;
	char    *s;
	uint32_t gone;          /* on the wire until 25.05 */
	uint16_t added;         /* since 24.11 */
	char    *added_s;       /* since 25.05 */
	double   added_d;       /* since 25.05 */
} syn_t;

static const field_desc_t syn_fields[] = {
	FIELD(syn_t, a, FT_U32), FIELD(syn_t, s, FT_STR),
	FIELD_RANGE(syn_t, gone, FT_U32, 0, PROTO_25_05, 77),
	FIELD_SINCE(syn_t, added, FT_U16, PROTO_24_11, 0xfffe),
	FIELD_SINCE(syn_t, added_s, FT_STR, PROTO_25_05, 0),
	FIELD_SINCE(syn_t, added_d, FT_DOUBLE, PROTO_25_05, 3),
	FIELD_END
};

static size_t syn_round_trip(uint16_t v, syn_t *out)
{
	syn_t in = { 5, "five", 6, 7, "seven", 0.5 };
	buf_t *b = buf_create(64), *r;
	size_t len;

	buf_set_proto(b, v);
	fields_pack(b, syn_fields, &in);
	len = buf_len(b);
	for (size_t cut = 0; cut < len; cut++) {
		syn_t t = { 0 };

		r = buf_view(buf_data(b), cut);
		buf_set_proto(r, v);
		assert_int_equal(fields_unpack(r, syn_fields, &t), -1);
		assert_null(t.s);
		assert_null(t.added_s);
		buf_destroy(r);
	}
	r = buf_view(buf_data(b), len);
	buf_set_proto(r, v);
	memset(out, 0, sizeof(*out));
	assert_int_equal(fields_unpack(r, syn_fields, out), 0);
	assert_int_equal(buf_remaining(r), 0);
	buf_destroy(r);
	buf_destroy(b);
	assert_int_equal(out->a, 5);
	assert_string_equal(out->s, "five");
	return len;
}

static void test_synthetic_table(void **state)
{
	syn_t o;
	size_t l2405, l2411, l2505;

	l2405 = syn_round_trip(PROTO_24_05, &o);
	assert_int_equal(o.gone, 6);
	assert_int_equal(o.added, 0xfffe);       /* its default */
	assert_null(o.added_s);
	assert_true(o.added_d == 3);
	fields_free(syn_fields, &o);

	l2411 = syn_round_trip(PROTO_24_11, &o);
	assert_int_equal(o.gone, 6);
	assert_int_equal(o.added, 7);
	assert_null(o.added_s);
	fields_free(syn_fields, &o);

	l2505 = syn_round_trip(PROTO_25_05, &o);
	assert_int_equal(o.gone, 77);            /* removed: its default */
	assert_int_equal(o.added, 7);
	assert_string_equal(o.added_s, "seven");
	assert_true(o.added_d == 0.5);
	fields_free(syn_fields, &o);

	assert_int_equal(l2411, l2405 + 2);
	assert_int_equal(l2505, l2411 - 4 + 4 + 6 + 8);
	assert_true(fields_on_wire(&syn_fields[2], PROTO_24_11));
	assert_false(fields_on_wire(&syn_fields[2], PROTO_25_05));
	assert_false(fields_on_wire(&syn_fields[3], PROTO_24_05));
}

/* A selection naming a field the version lacks packs nothing for it. */
static void test_selection_at_old_version(void **state)
{
	syn_t in = { 5, "five", 6, 7, "seven", 0.5 }, out = { 0 };
	fields_sel_t sel = { { 0 } };
	buf_t *b = buf_create(16), *r;

	assert_int_equal(fields_sel_add_list(&sel, syn_fields, "a,added_s"),
			 0);
	buf_set_proto(b, PROTO_24_11);
	fields_pack_sel(b, syn_fields, &in, &sel);
	assert_int_equal(buf_len(b), 4);
	r = buf_view(buf_data(b), buf_len(b));
	buf_set_proto(r, PROTO_24_11);
	assert_int_equal(fields_unpack_sel(r, syn_fields, &out, &sel), 0);
	assert_int_equal(out.a, 5);
	assert_null(out.added_s);
	buf_destroy(r);
	buf_destroy(b);
}

/* Strings by reference (squeue's big replies): a field off the wire is
 * not read from the buffer either. */
static void test_by_reference_at_old_version(void **state)
{
	syn_t in = { 5, "five", 6, 7, "seven", 0.5 }, out = { 0 };
	buf_t *b = buf_create(16), *r;

	buf_set_proto(b, PROTO_24_11);
	fields_pack(b, syn_fields, &in);
	r = buf_view(buf_data(b), buf_len(b));
	buf_set_proto(r, PROTO_24_11);
	assert_int_equal(fields_unpack_sel_ref(r, syn_fields, &out, NULL), 0);
	assert_int_equal(buf_remaining(r), 0);
	assert_string_equal(out.s, "five");
	assert_null(out.added_s);
	assert_int_equal(out.added, 7);
	fields_free_sel_ref(syn_fields, &out, NULL);
	buf_destroy(r);
	buf_destroy(b);
}

/* ---- every table: rows added later come last ---- */

static void check_order(const char *what, const field_desc_t *f)
{
	uint16_t last = 0;

	for (size_t i = 0; f[i].name; i++) {
		if (f[i].since < last)
			fail_msg("%s: field %s (since %04x) after a field "
				 "added in %04x: fields_sel_t indices would "
				 "move", what, f[i].name, f[i].since, last);
		last = f[i].since;
		if (f[i].until && f[i].since >= f[i].until)
			fail_msg("%s: field %s removed before it was added",
				 what, f[i].name);
	}
}

static const struct {
	const char *name;
	const field_desc_t *f;
	size_t size;
} records[] = {
	{ "job_info_t", job_info_fields, sizeof(job_info_t) },
	{ "job_desc_t", job_desc_fields, sizeof(job_desc_t) },
	{ "node_info_t", node_info_fields, sizeof(node_info_t) },
	{ "part_info_t", part_info_fields, sizeof(part_info_t) },
	{ "resv_info_t", resv_info_fields, sizeof(resv_info_t) },
};
#define N_RECORDS (sizeof(records) / sizeof(records[0]))

static void test_added_rows_come_last(void **state)
{
	for (size_t i = 0; msg_desc_at(i); i++)
		if (msg_desc_at(i)->fields)
			check_order(msg_desc_at(i)->name,
				    msg_desc_at(i)->fields);
	for (size_t i = 0; i < N_RECORDS; i++)
		check_order(records[i].name, records[i].f);
	check_order("synthetic", syn_fields);
}

/* ---- every message type at every pair of versions ---- */

static void fill_fields(const field_desc_t *f, void *rec)
{
	for (int i = 0; f[i].name; i++) {
		char *p = (char *)rec + f[i].offset;

		switch (f[i].type) {
		case FT_U8: *(uint8_t *)p = (uint8_t)(i + 1); break;
		case FT_U16: *(uint16_t *)p = (uint16_t)(1000 + i); break;
		case FT_U32: *(uint32_t *)p = 100000u + i; break;
		case FT_U64: *(uint64_t *)p = 10000000000ull + i; break;
		case FT_BOOL: *(bool *)p = true; break;
		case FT_DOUBLE: *(double *)p = 1.5 + i; break;
		case FT_TIME: *(time_t *)p = 1700000000 + i; break;
		case FT_STR:
			*(char **)p = xstrdup_printf("%s-%d", f[i].name, i);
			break;
		case FT_STRLIST:
			*(char ***)p = xstrarray_append(NULL, "A=1");
			break;
		case FT_BITMAP: {
			bitmap_t *b = bitmap_create(70);

			bitmap_set(b, 69);
			*(bitmap_t **)p = b;
			break;
		}
		}
	}
}

/* out holds in's value for every field on the wire at v, the row's
 * default for the others. */
static void check_fields(const char *what, const field_desc_t *f,
			 const void *in, const void *out, uint16_t v)
{
	for (size_t i = 0; f[i].name; i++) {
		const char *pi = (const char *)in + f[i].offset;
		const char *po = (const char *)out + f[i].offset;
		bool on = fields_on_wire(&f[i], v);

		switch (f[i].type) {
		case FT_STR:
			if (on)
				assert_string_equal(*(char *const *)pi,
						    *(char *const *)po);
			else
				assert_null(*(char *const *)po);
			break;
		case FT_STRLIST:
		case FT_BITMAP:
			if (on)
				assert_non_null(*(void *const *)po);
			else
				assert_null(*(void *const *)po);
			break;
		default: {
			size_t sz = fields_size(f[i].type);
			field_desc_t one[2];
			uint8_t dflt[16] = { 0 };
			buf_t *e;

			if (on) {
				if (memcmp(pi, po, sz))
					fail_msg("%s at %04x: %s differs",
						 what, v, f[i].name);
				break;
			}
			/* what an unpack gives a field off the wire */
			memset(one, 0, sizeof(one));
			one[0] = f[i];
			one[0].offset = 0;
			e = buf_create(1);
			buf_set_proto(e, v);
			assert_int_equal(fields_unpack(e, one, dflt), 0);
			buf_destroy(e);
			if (memcmp(dflt, po, sz))
				fail_msg("%s at %04x: %s is not its default",
					 what, v, f[i].name);
			break;
		}
		}
	}
}

/* A sample body of a type with its own functions: the record lists get
 * two filled records, the rest a zeroed body (its counts 0). */
static void *sample(const msg_desc_t *d)
{
	void *body = xmalloc(d->size);

	if (d->fields) {
		fill_fields(d->fields, body);
		return body;
	}
	switch (d->type) {
	case MESSAGE_NODE_REGISTRATION: {
		node_registration_msg_t *m = body;

		m->node_name = xstrdup("n1");
		m->cpus = 2;
		m->job_cnt = 1;
		m->job_ids = xcalloc(1, sizeof(uint32_t));
		m->job_ids[0] = 7;
#ifdef SLUICE_PROTO_NEXT
		m->proto_next = xstrdup("25.11");
#endif
		break;
	}
	case RESPONSE_JOB_INFO: {
		job_info_msg_t *m = body;

		m->cnt = 2;
		m->jobs = xcalloc(2, sizeof(job_info_t));
		fill_fields(job_info_fields, &m->jobs[0]);
		fill_fields(job_info_fields, &m->jobs[1]);
		break;
	}
	case REQUEST_SUBMIT_BATCH_HET_JOB:      /* no component: refused */
	case REQUEST_HET_JOB_ALLOCATION: {
		het_job_desc_msg_t *m = body;

		m->cnt = 2;
		m->desc = xcalloc(2, sizeof(job_desc_t));
		fill_fields(job_desc_fields, &m->desc[0]);
		fill_fields(job_desc_fields, &m->desc[1]);
		break;
	}
	case RESPONSE_NODE_INFO: {
		node_info_msg_t *m = body;

		m->cnt = 1;
		m->nodes = xcalloc(1, sizeof(node_info_t));
		fill_fields(node_info_fields, &m->nodes[0]);
		break;
	}
	default:
		break;
	}
	return body;
}

static buf_t *pack_at(uint16_t type, const void *body, uint16_t v)
{
	buf_t *b = buf_create(64);

	buf_set_proto(b, v);
	assert_int_equal(msg_body_pack(type, body, b), 0);
	return b;
}

static int unpack_at(uint16_t type, const uint8_t *p, size_t len,
		     uint16_t v, void **out)
{
	buf_t *r = buf_view(p, len);
	int rc;

	buf_set_proto(r, v);
	*out = NULL;
	rc = msg_body_unpack(type, r, out);
	buf_destroy(r);
	return rc;
}

static void round_trip_at(const msg_desc_t *d, uint16_t v)
{
	void *body = d->size ? sample(d) : NULL, *out = NULL;
	buf_t *b1 = pack_at(d->type, body, v), *b2;

	if (unpack_at(d->type, buf_data(b1), buf_len(b1), v, &out) < 0)
		fail_msg("%s at %04x does not unpack", d->name, v);
	if (d->fields)
		check_fields(d->name, d->fields, body, out, v);
	/* what came is packed again to the same bytes */
	b2 = pack_at(d->type, out, v);
	if (buf_len(b1) != buf_len(b2) ||
	    memcmp(buf_data(b1), buf_data(b2), buf_len(b1)))
		fail_msg("%s at %04x: packs differently after a round trip",
			 d->name, v);
	/* every strict prefix is refused */
	for (size_t cut = 0; cut < buf_len(b1); cut++) {
		void *t = NULL;

		if (unpack_at(d->type, buf_data(b1), cut, v, &t) != -1)
			fail_msg("%s at %04x: %zu of %zu bytes accepted",
				 d->name, v, cut, buf_len(b1));
		assert_null(t);
	}
	msg_body_free(d->type, body);
	msg_body_free(d->type, out);
	buf_destroy(b1);
	buf_destroy(b2);
}

static void test_every_type_every_pair(void **state)
{
	size_t n = 0;

	for (size_t i = 0; msg_desc_at(i); i++) {
		const msg_desc_t *d = msg_desc_at(i);

		for (size_t a = FIRST_SUPPORTED; a < N_KNOWN; a++)
			for (size_t b = FIRST_SUPPORTED; b < N_KNOWN; b++) {
				uint16_t v = known[a] < known[b] ?
					known[a] : known[b];

				round_trip_at(d, v);
				n++;
			}
	}
	assert_int_equal(n, msg_desc_count() * PROTO_SUPPORTED *
			 PROTO_SUPPORTED);
}

/* The records inside the list replies, field by field. */
static void test_records_every_version(void **state)
{
	for (size_t i = 0; i < N_RECORDS; i++) {
		for (size_t k = FIRST_SUPPORTED; k < N_KNOWN; k++) {
			void *in = xmalloc(records[i].size);
			void *out = xmalloc(records[i].size);
			buf_t *b = buf_create(256), *r;

			fill_fields(records[i].f, in);
			buf_set_proto(b, known[k]);
			fields_pack(b, records[i].f, in);
			r = buf_view(buf_data(b), buf_len(b));
			buf_set_proto(r, known[k]);
			assert_int_equal(fields_unpack(r, records[i].f, out),
					 0);
			assert_int_equal(buf_remaining(r), 0);
			check_fields(records[i].name, records[i].f, in, out,
				     known[k]);
			fields_free(records[i].f, in);
			fields_free(records[i].f, out);
			xfree(in);
			xfree(out);
			buf_destroy(r);
			buf_destroy(b);
		}
	}
}

#ifdef SLUICE_PROTO_NEXT
/* The synthetic next release's fields: there at 25.11, defaults from a
 * 25.05 peer. */
static void test_next_fields(void **state)
{
	node_registration_msg_t reg = { 0 }, *got;
	job_desc_t d, dout = { 0 };
	buf_t *b;
	void *out;

	reg.node_name = "n1";
	reg.proto_next = "25.11";
	b = pack_at(MESSAGE_NODE_REGISTRATION, &reg, PROTO_25_05);
	assert_int_equal(unpack_at(MESSAGE_NODE_REGISTRATION, buf_data(b),
				   buf_len(b), PROTO_25_05, &out), 0);
	got = out;
	assert_null(got->proto_next);
	msg_body_free(MESSAGE_NODE_REGISTRATION, out);
	buf_destroy(b);
	b = pack_at(MESSAGE_NODE_REGISTRATION, &reg, PROTO_25_11);
	assert_int_equal(unpack_at(MESSAGE_NODE_REGISTRATION, buf_data(b),
				   buf_len(b), PROTO_25_11, &out), 0);
	got = out;
	assert_string_equal(got->proto_next, "25.11");
	msg_body_free(MESSAGE_NODE_REGISTRATION, out);
	buf_destroy(b);

	job_desc_init(&d);
	assert_int_equal(d.proto_next, PROTO_25_11);
	b = buf_create(64);
	buf_set_proto(b, PROTO_25_05);
	fields_pack(b, job_desc_fields, &d);
	buf_set_offset(b, 0);
	assert_int_equal(fields_unpack(b, job_desc_fields, &dout), 0);
	assert_int_equal(dout.proto_next, NO_VAL32);
	fields_free(job_desc_fields, &dout);
	buf_destroy(b);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_window),
		cmocka_unit_test(test_header_versions),
		cmocka_unit_test(test_encoded_header_carries_body_version),
		cmocka_unit_test(test_synthetic_table),
		cmocka_unit_test(test_selection_at_old_version),
		cmocka_unit_test(test_by_reference_at_old_version),
		cmocka_unit_test(test_added_rows_come_last),
		cmocka_unit_test(test_every_type_every_pair),
		cmocka_unit_test(test_records_every_version),
#ifdef SLUICE_PROTO_NEXT
		cmocka_unit_test(test_next_fields),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
