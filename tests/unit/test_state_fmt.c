/* test_state_fmt.c — the controller's on-disk records: a state directory
 * written by the format-2 controller (tests/unit/data/state-fmt2, see
 * gen.py there) is recovered by this one; tagged records skip fields they
 * do not know, default the ones they lack, convert integer widths. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "ctld_world.h"

static char dir[] = "/tmp/test_state_fmt.XXXXXX";
static char state[300];

static void _world(void)
{
	char err[256];

	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
}

static void _unworld(void)
{
	job_mgr_fini();
	part_mgr_fini();
	node_mgr_fini();
}

static int setup(void **st)
{
	char path[400], err[512];
	FILE *f;

	(void) st;
	if (!mkdtemp(dir))
		return -1;
	snprintf(state, sizeof(state), "%s/state", dir);
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fprintf(f, "ClusterName=sluice\nSlurmctldHost=localhost\n"
		"StateSaveLocation=%s\n"
		"NodeName=n[1-4] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000\n"
		"PartitionName=debug Nodes=ALL Default=YES\n", state);
	fclose(f);
	conf = conf_load(path, err, sizeof(err));
	if (!conf) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **st)
{
	char cmd[400];

	(void) st;
	conf_destroy(conf);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A fresh copy of the fixture as StateSaveLocation. */
static void _copy_fixture(void)
{
	const char *data = getenv("SLUICE_TEST_DATA");
	char cmd[1200];

	assert_non_null(data);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && cp -a '%s/state-fmt2/state' "
		 "'%s'", state, data, state);
	assert_int_equal(system(cmd), 0);
}

static uint32_t base(uint32_t id)
{
	job_record_t *j = job_mgr_find(id);

	assert_non_null(j);
	return j->info.job_state & JOB_STATE_BASE;
}

/* What gen.py made: done=1 held=2 run=3 arr=4 (task 1 is JobId 5)
 * canc=6 late=7; n4 drained before the snapshot, n1 after.  "held" was
 * released after the snapshot and ran before the hold that followed. */
static void _check_fixture(void)
{
	job_record_t *j;
	char *script = NULL, **env = NULL;
	node_record_t *n;

	assert_int_equal(job_mgr_count(), 7);
	assert_int_equal(job_mgr_next_id(), 8);

	j = job_mgr_find(1);
	assert_non_null(j);
	assert_int_equal(base(1), JOB_COMPLETE);
	assert_string_equal(j->info.name, "done");
	assert_string_equal(j->info.user_name, "sluice_u1");

	j = job_mgr_find(2);
	/* held at the snapshot, released in the journal: it ran at once */
	assert_int_equal(base(2), JOB_COMPLETE);
	assert_string_equal(j->info.comment, "fixture comment");
	assert_int_equal(j->info.time_limit, 7);
	assert_string_equal(j->info.nodes, "n1");

	j = job_mgr_find(3);
	assert_int_equal(base(3), JOB_RUNNING);
	assert_string_equal(j->info.name, "runner");
	assert_string_equal(j->info.nodes, "n2");
	assert_int_equal(j->info.requeue, 1);
	assert_int_equal(j->alloc_cnt, 1);
	assert_true(bitmap_test(j->node_bitmap, node_mgr_find("n2")->index));
	assert_int_equal(j->node_cpus[0], 1);
	assert_true(node_mgr_find("n2")->info.alloc_cpus >= 1);

	j = job_mgr_find(4);
	assert_int_equal(base(4), JOB_PENDING);
	assert_non_null(j->array);
	assert_ptr_equal(j->array->meta, j);
	assert_int_equal(j->info.array_job_id, 4);
	j = job_mgr_find(5);
	assert_int_equal(base(5), JOB_RUNNING);
	assert_int_equal(j->info.array_job_id, 4);
	assert_int_equal(j->info.array_task_id, 1);
	assert_ptr_equal(j->array, job_mgr_find(4)->array);
	assert_string_equal(j->info.nodes, "n3");

	assert_int_equal(base(6), JOB_CANCELLED);

	j = job_mgr_find(7);               /* journal only */
	assert_int_equal(base(7), JOB_PENDING);
	assert_string_equal(j->info.name, "late");
	assert_string_equal(j->info.user_name, "sluice_u2");
	assert_int_equal(j->info.num_nodes, 2);

	n = node_mgr_find("n4");
	assert_true(n->info.node_state & NODE_STATE_DRAIN);
	assert_string_equal(n->info.reason, "fixture drain");
	n = node_mgr_find("n1");
	assert_true(n->info.node_state & NODE_STATE_DRAIN);
	assert_string_equal(n->info.reason, "late drain");
	assert_false(node_mgr_find("n3")->info.node_state & NODE_STATE_DRAIN);

	assert_int_equal(job_files_read(state, 7, &script, &env), 0);
	assert_non_null(strstr(script, "true"));
	assert_non_null(env);
	xfree(script);
	xstrarray_free(env);
}

static void test_fixture_fmt2(void **st)
{
	char err[256];
	recover_t r;

	(void) st;
	_copy_fixture();
	_world();
	if (recover_state(state, &r, err, sizeof(err)) != 0)
		fail_msg("recover: %s", err);
	assert_true(r.replayed > 0);          /* some came from the journal */
	assert_int_equal(r.damaged_gen, 0);
	_check_fixture();

	/* the same state written as this controller writes it, read back */
	{
		buf_t *b = state_save_pack(r.seq, r.next_gen);
		const uint8_t *d = buf_data(b);

		assert_int_equal(d[4 + sizeof("SLUICE_CTLD_STATE")] << 8 |
				 d[5 + sizeof("SLUICE_CTLD_STATE")],
				 STATE_SAVE_VERSION);
		assert_int_equal(state_save_write(state, b), 0);
		buf_destroy(b);
	}
	_unworld();
	_world();
	assert_int_equal(recover_state(state, &r, err, sizeof(err)), 0);
	assert_int_equal(r.replayed, 0);
	_check_fixture();
	_unworld();
}

/* Job files: names of hash.N entries; the old layout (the fixture's
 * hash.N/job.N/{script,environment}) read and removed; the new one
 * written by the writer thread, read from memory before and from disk
 * after; a damaged file refused. */
static void test_job_files(void **st)
{
	static const struct { const char *name; uint32_t id; } names[] = {
		{ "job.", 0 }, { "job.0", 0 }, { "job.07", 0 }, { "job.7x", 0 },
		{ "job.7.file", 0 }, { "job.4294967296", 0 }, { "jobs.7", 0 },
		{ "job.-1", 0 }, { "job.7", 7 }, { "job.7.files", 7 },
		{ "job.4294967295.files", 4294967295u },
	};
	char *env_in[] = { "A=1", "B=two words", NULL };
	char path[400], err[256], *script, **env, *data, *hit;
	size_t len;
	recover_t r;
	FILE *f;

	(void) st;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(job_files_entry_id(names[i].name), names[i].id);

	_copy_fixture();
	_world();
	assert_int_equal(recover_state(state, &r, err, sizeof(err)), 0);
	assert_int_equal(job_files_read(state, 2, &script, &env), 0);
	assert_non_null(strstr(script, "#!"));
	assert_non_null(env);
	xfree(script);
	xstrarray_free(env);
	job_files_remove(state, 2);
	snprintf(path, sizeof(path), "%s/hash.2/job.2", state);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(job_files_read(state, 2, &script, &env), -1);

	assert_int_equal(job_files_start(state), 0);
	job_files_save(state, 12, "#!/bin/sh\necho twelve\n", env_in);
	/* from memory or from disk, the same */
	assert_int_equal(job_files_read(state, 12, &script, &env), 0);
	assert_string_equal(script, "#!/bin/sh\necho twelve\n");
	assert_string_equal(env[0], "A=1");
	assert_string_equal(env[1], "B=two words");
	assert_null(env[2]);
	xfree(script);
	xstrarray_free(env);
	assert_int_equal(job_files_flush(), 0);
	/* in a segment, not a file of its own */
	snprintf(path, sizeof(path), "%s/hash.2/job.12.files", state);
	assert_int_not_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/job_files.1", state);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(job_seg_count(), 1);
	assert_int_equal(job_files_read(state, 12, &script, &env), 0);
	assert_string_equal(script, "#!/bin/sh\necho twelve\n");
	assert_string_equal(env[1], "B=two words");
	xfree(script);
	xstrarray_free(env);
	/* one byte of its script changed: the CRC says so (the segment also
	 * holds the scripts the journal replayed) */
	data = state_save_read_file(path, &len);
	assert_non_null(data);
	hit = memmem(data, len, "echo twelve", 11);
	assert_non_null(hit);
	f = fopen(path, "r+b");
	assert_non_null(f);
	assert_int_equal(fseek(f, hit - data, SEEK_SET), 0);
	fputc('e' ^ 0x20, f);
	fclose(f);
	xfree(data);
	assert_int_equal(job_files_read(state, 12, &script, &env), -1);
	job_files_remove(state, 12);
	assert_int_equal(job_files_flush(), 0);
	assert_int_equal(job_files_read(state, 12, &script, &env), -1);
	job_files_stop();
	/* the segment also holds the replayed scripts of the recovered jobs:
	 * once no job uses its records, it goes at the next start */
	job_mgr_fini();
	job_mgr_init();
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(job_files_start(state), 0);
	assert_int_not_equal(access(path, F_OK), 0);
	assert_int_equal(job_seg_count(), 0);
	job_files_stop();
	state_save_changes_reset();
	_unworld();
}

/* A replayed script of a job the journal does not keep (purged, or its
 * record lost in a damaged tail) is dropped at start, and a flush still
 * returns: it waited forever for the dropped write before. */
static void test_replayed_files_of_lost_job(void **st)
{
	char *env_in[] = { "A=1", NULL }, rdir[400], *script, **env;
	buf_t *p = buf_create(256);

	(void) st;
	snprintf(rdir, sizeof(rdir), "%s/replay", dir);
	assert_int_equal(mkdir(rdir, 0700), 0);
	_world();
	pack32(p, 99);
	packstr(p, "#!/bin/sh\ntrue\n");
	packstr_list(p, env_in);
	assert_int_equal(job_files_replay(buf_data(p), buf_len(p)), 0);
	buf_destroy(p);
	/* queued for the writer meanwhile: read from memory */
	assert_int_equal(job_files_read(rdir, 99, &script, &env), 0);
	xfree(script);
	xstrarray_free(env);
	alarm(20);                      /* a hang fails the test */
	assert_int_equal(job_files_start(rdir), 0);
	assert_int_equal(job_files_flush(), 0);
	alarm(0);
	/* no job 99: its write was dropped, not made */
	assert_int_equal(job_seg_count(), 0);
	assert_int_equal(job_files_read(rdir, 99, &script, &env), -1);
	job_files_stop();
	state_save_changes_reset();
	_unworld();
}

static bool _even(uint32_t id, void *arg)
{
	(void)arg;
	return !(id % 2);
}

/* Segments: records roll into a new segment past 16 MiB; a segment
 * mostly removed is compacted into the current one and goes; at open,
 * only the records still needed are indexed, a torn tail is ignored and
 * segments with nothing needed go. */
static void test_job_seg(void **st)
{
	char seg_dir[400], path[460], *data;
	size_t len, big = 256 * 1024;
	uint8_t *rec = xmalloc(big);
	FILE *f;

	(void) st;
	snprintf(seg_dir, sizeof(seg_dir), "%s/segs", dir);
	assert_int_equal(mkdir(seg_dir, 0700), 0);
	assert_int_equal(job_seg_open(seg_dir, _even, NULL), 0);
	for (uint32_t id = 1; id <= 80; id++) {         /* 20 MiB */
		memset(rec, (int)id, big);
		assert_int_equal(job_seg_append(id, rec, big), 0);
	}
	assert_int_equal(job_seg_count(), 2);
	assert_int_equal(job_seg_read(3, &data, &len), 0);
	assert_int_equal(len, big);
	assert_int_equal((uint8_t)data[0], 3);
	xfree(data);
	assert_int_equal(job_seg_read(81, &data, &len), 1);
	/* segment 1 holds ids 1..64: remove all but 3 of them (it is
	 * compacted into segment 2 on the way) */
	for (uint32_t id = 1; id <= 61; id++)
		assert_true(job_seg_remove(id));
	assert_false(job_seg_remove(1));
	snprintf(path, sizeof(path), "%s/job_files.1", seg_dir);
	assert_int_not_equal(access(path, F_OK), 0);     /* compacted */
	assert_int_equal(job_seg_read(62, &data, &len), 0);
	assert_int_equal((uint8_t)data[len - 1], 62);
	xfree(data);
	job_seg_close();
	/* a torn tail after the last record of segment 2 */
	snprintf(path, sizeof(path), "%s/job_files.2", seg_dir);
	f = fopen(path, "ab");
	assert_non_null(f);
	fputs("JFIL\x01", f);
	fclose(f);
	assert_int_equal(job_seg_open(seg_dir, _even, NULL), 0);
	assert_int_equal(job_seg_read(62, &data, &len), 0);
	xfree(data);
	assert_int_equal(job_seg_read(63, &data, &len), 1);   /* not needed */
	assert_int_equal(job_seg_read(80, &data, &len), 0);
	assert_int_equal((uint8_t)data[0], 80);
	xfree(data);
	/* a new record goes to a new segment, after the torn one */
	memset(rec, 90, big);
	assert_int_equal(job_seg_append(90, rec, 100), 0);
	assert_int_equal(job_seg_read(90, &data, &len), 0);
	assert_int_equal(len, 100);
	xfree(data);
	job_seg_close();
	xfree(rec);
}

/* Damage in the first journal record: the records after it are not
 * replayed, but the job ids they name are not given out again, and the
 * script of the job lost with them is removed. */
static void test_damage_skips_lost_ids(void **st)
{
	char path[400], err[256];
	recover_t r;
	FILE *f;
	int c;

	(void) st;
	_copy_fixture();
	snprintf(path, sizeof(path), "%s/ctld_journal.2", state);
	f = fopen(path, "r+b");
	assert_non_null(f);
	/* file header 24, record header 24: the first payload (job files of
	 * JobId=7) */
	assert_int_equal(fseek(f, 24 + 24 + 2, SEEK_SET), 0);
	c = fgetc(f);
	assert_int_equal(fseek(f, 24 + 24 + 2, SEEK_SET), 0);
	fputc(c ^ 0x40, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/hash.7/job.7/script", state);
	assert_int_equal(access(path, F_OK), 0);

	_world();
	assert_int_equal(recover_state(state, &r, err, sizeof(err)), 0);
	assert_int_equal(r.replayed, 0);
	assert_int_equal(r.damaged_gen, 2);
	assert_int_equal(job_mgr_count(), 6);          /* the snapshot's */
	assert_null(job_mgr_find(7));
	/* the snapshot says 7, the lost records name JobId=7 and 8 next */
	assert_int_equal(job_mgr_next_id(), 8);
	assert_int_not_equal(access(path, F_OK), 0);   /* orphan removed */
	snprintf(path, sizeof(path), "%s/hash.2/job.2/script", state);
	assert_int_equal(access(path, F_OK), 0);       /* a job's kept */
	_unworld();
}

/* Every file of the state directory, concatenated with its name, for
 * "left untouched". */
static char *_state_image(size_t *len)
{
	char cmd[600], *out = NULL;
	FILE *p;
	size_t n = 0, cap = 0;
	int c;

	snprintf(cmd, sizeof(cmd), "cd '%s' && find . -type f | sort | "
		 "while read f; do echo \"$f\"; cat \"$f\"; done", state);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((c = fgetc(p)) != EOF) {
		if (n == cap) {
			out = xrealloc_sz(out, cap, cap ? cap * 2 : 65536);
			cap = cap ? cap * 2 : 65536;
		}
		out[n++] = (char) c;
	}
	pclose(p);
	*len = n;
	return out;
}

/* A journal record only a newer controller writes (an unknown type, or a
 * known type at a newer record version) after the intact ones: the state
 * is refused with a message and left as it is, not cut as damage (a
 * rollback must not lose what the newer controller journaled). */
static void test_newer_record_refused_untouched(void **st)
{
	static const uint16_t kinds[][2] = { { 200, 1 }, { JREC_JOB, 99 } };
	char err[512];
	recover_t r;

	(void) st;
	for (size_t k = 0; k < 2; k++) {
		uint64_t *gens = NULL, seq;
		size_t cnt = 0, l1, l2;
		char *path, *before, *after;
		buf_t *b = buf_create(64);
		FILE *f;

		_copy_fixture();
		_world();
		assert_int_equal(recover_state(state, &r, err, sizeof(err)), 0);
		seq = r.seq;
		_unworld();
		_copy_fixture();
		assert_int_equal(journal_list(state, &gens, &cnt), 0);
		assert_true(cnt > 0);
		path = journal_path(state, gens[cnt - 1]);
		journal_frame(b, kinds[k][0], kinds[k][1], seq + 1, "x", 1);
		f = fopen(path, "ab");
		assert_non_null(f);
		assert_int_equal(fwrite(buf_data(b), 1, buf_len(b), f),
				 buf_len(b));
		fclose(f);
		before = _state_image(&l1);

		_world();
		assert_int_equal(recover_state(state, &r, err, sizeof(err)), -1);
		assert_non_null(strstr(err, "written by a newer slurmctld?"));
		assert_non_null(strstr(err, "was written by a newer slurmctld "
				       "and is left untouched"));
		_unworld();
		after = _state_image(&l2);
		assert_int_equal(l1, l2);
		assert_memory_equal(before, after, l1);
		xfree(before);
		xfree(after);
		xfree(path);
		xfree(gens);
		buf_destroy(b);
	}
}

/* A record with a field this controller does not know, one it lacks,
 * and integer fields written with another width. */
static void test_tagged_unknown_missing_width(void **st)
{
	job_record_t *j = job_mgr_create(42), *k;
	buf_t *b = buf_create(256), *in;
	size_t at, f;

	(void) st;
	_world();
	j->info.name = xstrdup("tagged");
	j->info.time_limit = 30;
	j->exclusive = true;
	job_rec_pack(b, j);
	in = buf_view(buf_data(b), buf_len(b));
	k = job_rec_unpack(in, JOB_REC_VERSION);
	assert_non_null(k);
	assert_int_equal(buf_remaining(in), 0);
	assert_int_equal(k->info.job_id, 42);
	assert_string_equal(k->info.name, "tagged");
	assert_int_equal(k->info.time_limit, 30);
	assert_true(k->exclusive);
	assert_int_equal(k->info.array_task_id, NO_VAL32);
	job_mgr_free_job(k);
	job_mgr_free_job(j);
	buf_destroy(in);
	buf_destroy(b);

	/* a field equal to a new record's is not written: a fresh record is
	 * its job id alone, and reads back with the same defaults */
	j = job_mgr_create(44);
	b = buf_create(256);
	job_rec_pack(b, j);
	{
		buf_t *body;
		tagrec_field_t f1;

		in = buf_view(buf_data(b), buf_len(b));
		assert_int_equal(tagrec_open(in, 0x4a4f4232u, &body), 0);
		assert_int_equal(tagrec_next(body, &f1), 1);
		assert_int_equal(f1.tag, tagrec_tag("job_id"));
		assert_int_equal(tagrec_next(body, &f1), 0);
		buf_destroy(body);
		buf_destroy(in);
	}
	in = buf_view(buf_data(b), buf_len(b));
	k = job_rec_unpack(in, JOB_REC_VERSION);
	assert_non_null(k);
	assert_int_equal(memcmp(&k->info, &j->info, sizeof(j->info)), 0);
	job_mgr_free_job(k);
	job_mgr_free_job(j);
	buf_destroy(in);
	buf_destroy(b);

	/* by hand: unknown field first, job_id as u16, name, time_limit as
	 * u64, a string where a u32 (priority) should be, and nothing else */
	b = buf_create(256);
	at = tagrec_begin(b, 0x4a4f4232u);
	f = tagrec_field_begin(b, "from_the_future");
	packstr(b, "a value this controller cannot use");
	pack32(b, 7);
	tagrec_field_end(b, f);
	f = tagrec_field_begin(b, "job_id");
	pack16(b, 43);
	tagrec_field_end(b, f);
	f = tagrec_field_begin(b, "name");
	packstr(b, "sparse");
	tagrec_field_end(b, f);
	f = tagrec_field_begin(b, "time_limit");
	pack64(b, 90);
	tagrec_field_end(b, f);
	f = tagrec_field_begin(b, "nice");
	pack64(b, 1ull << 40);                 /* does not fit: default */
	tagrec_field_end(b, f);
	f = tagrec_field_begin(b, "priority");
	packstr(b, "high");
	tagrec_field_end(b, f);
	f = tagrec_field_begin(b, "job.future_blob");
	pack64(b, 1);
	tagrec_field_end(b, f);
	tagrec_end(b, at);
	pack32(b, 0xdeadbeef);                 /* the next record's bytes */

	in = buf_view(buf_data(b), buf_len(b));
	k = job_rec_unpack(in, JOB_REC_VERSION);
	assert_non_null(k);
	assert_int_equal(buf_remaining(in), 4);   /* exactly one record */
	assert_int_equal(k->info.job_id, 43);
	assert_string_equal(k->info.name, "sparse");
	assert_int_equal(k->info.time_limit, 90);
	assert_int_equal(k->info.nice, NICE_OFFSET);      /* default */
	assert_int_equal(k->info.priority, 0);
	assert_int_equal(k->info.array_task_id, NO_VAL32); /* default */
	assert_null(k->argv);
	assert_int_equal(k->alloc_cnt, 0);
	job_mgr_free_job(k);
	buf_destroy(in);

	/* the same record cut short anywhere: refused, no crash, no leak */
	for (size_t len = 0; len < buf_len(b) - 4; len++) {
		in = buf_view(buf_data(b), len);
		assert_null(job_rec_unpack(in, JOB_REC_VERSION));
		assert_int_equal(buf_offset(in), 0);
		buf_destroy(in);
	}
	buf_destroy(b);
	_unworld();
}

/* Every field of a record has its own tag. */
static void test_tags_unique(void **st)
{
	tagrec_table_t *tabs[] = { &info_tab, &extra_tab, NULL };
	uint32_t seen[512];
	size_t n = 0, cnt;

	(void) st;
	for (size_t t = 0; tabs[t]; t++) {
		const uint32_t *tags = tagrec_tags(tabs[t], &cnt);

		for (size_t i = 0; i < cnt; i++)
			seen[n++] = tags[i];
	}
	seen[n++] = tagrec_tag(TAG_ALLOC);
	seen[n++] = tagrec_tag(TAG_ARRAY);
	for (size_t i = 0; i < n; i++)
		for (size_t k = i + 1; k < n; k++)
			assert_int_not_equal(seen[i], seen[k]);
	/* the node and nested records, each on its own */
	tabs[0] = &alloc_tab;
	tabs[1] = &array_tab;
	for (size_t t = 0; t < 3; t++) {
		tagrec_table_t *tab = t == 2 ? &saved_node_tab : tabs[t];
		const uint32_t *tags = tagrec_tags(tab, &cnt);

		for (size_t i = 0; i < cnt; i++)
			for (size_t k = i + 1; k < cnt; k++)
				assert_int_not_equal(tags[i], tags[k]);
	}
	/* the format-1 names all still exist in today's table (a removed
	 * field is fine, but then this list needs a look) */
	for (const field_desc_t *o = job_info_fields_v1; o->name; o++) {
		bool found = false;

		for (const field_desc_t *c = job_info_fields; c->name; c++)
			found |= !strcmp(c->name, o->name) && c->type == o->type;
		assert_true(found);
	}
}

/* Pending and issued reboots are saved node state: a requested reboot
 * (ASAP, drained, NextState) and an issued one (DOWN, its request time)
 * come back; a node with none has none after the load. */
static void test_reboot_state_round_trip(void **st)
{
	node_record_t *a, *b;
	buf_t *buf = buf_create(256), *r;

	(void) st;
	_world();
	a = node_mgr_find("n2");
	a->info.node_state = NODE_STATE_MIXED | NODE_STATE_DRAIN |
			     NODE_STATE_REBOOT_REQUESTED;
	a->info.next_state = NODE_RESUME;
	a->reboot_asap = true;
	a->info.reason = xstrdup("Reboot ASAP");
	b = node_mgr_find("n3");
	b->info.node_state = NODE_STATE_DOWN | NODE_STATE_REBOOT_ISSUED;
	b->boot_req_time = 1700000000;
	b->info.next_state = NODE_STATE_DOWN;
	b->info.reason = xstrdup("fw : reboot issued");
	node_mgr_pack_state(buf);
	_unworld();

	_world();
	r = buf_view(buf_data(buf), buf_len(buf));
	assert_int_equal(node_mgr_unpack_state(r, true, NODE_STATE_VERSION), 0);
	a = node_mgr_find("n2");
	assert_true(a->info.node_state & NODE_STATE_REBOOT_REQUESTED);
	assert_true(a->info.node_state & NODE_STATE_DRAIN);
	assert_false(a->info.node_state & NODE_STATE_REBOOT_ISSUED);
	assert_int_equal(a->info.next_state, NODE_RESUME);
	assert_true(a->reboot_asap);
	assert_string_equal(a->info.reason, "Reboot ASAP");
	b = node_mgr_find("n3");
	assert_int_equal(b->info.node_state & NODE_STATE_BASE, NODE_STATE_DOWN);
	assert_true(b->info.node_state & NODE_STATE_REBOOT_ISSUED);
	assert_int_equal(b->boot_req_time, 1700000000);
	assert_int_equal(b->info.next_state, NODE_STATE_DOWN);
	assert_false(b->reboot_asap);
	assert_false(node_mgr_find("n1")->info.node_state &
		     (NODE_STATE_REBOOT_REQUESTED | NODE_STATE_REBOOT_ISSUED));
	buf_destroy(r);
	buf_destroy(buf);
	_unworld();
}

/* Pending jobs whose priorities do not fall with their id (as
 * multifactor's do not) come back from a snapshot in scheduling order:
 * recovery appends them and sorts once. */
static void test_recover_pending_order(void **st)
{
	char cmd[700], err[256];
	job_record_t *j, *prev = NULL;
	recover_t r;
	buf_t *b;
	uint32_t n = 0;

	(void) st;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", state,
		 state);
	assert_int_equal(system(cmd), 0);
	_world();
	for (uint32_t id = 1; id <= 300; id++) {
		j = job_mgr_create(id);
		j->info.job_state = JOB_PENDING;
		j->info.partition = xstrdup("debug");
		j->info.priority = 1000 + (id * 2654435761u) % 5000;
		job_mgr_attach(j);
	}
	b = state_save_pack(1, 2);
	assert_int_equal(state_save_write(state, b), 0);
	buf_destroy(b);
	_unworld();

	_world();
	assert_int_equal(recover_state(state, &r, err, sizeof(err)), 0);
	assert_int_equal(job_mgr_count(), 300);
	for (j = job_mgr_pending_first(); j; prev = j, j = j->pend_next, n++)
		if (prev)
			assert_true(job_mgr_pending_cmp(prev, j) < 0);
	assert_int_equal(n, 300);
	_unworld();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tags_unique),
		cmocka_unit_test(test_recover_pending_order),
		cmocka_unit_test(test_tagged_unknown_missing_width),
		cmocka_unit_test(test_fixture_fmt2),
		cmocka_unit_test(test_newer_record_refused_untouched),
		cmocka_unit_test(test_reboot_state_round_trip),
		cmocka_unit_test(test_damage_skips_lost_ids),
		cmocka_unit_test(test_job_files),
		cmocka_unit_test(test_replayed_files_of_lost_job),
		cmocka_unit_test(test_job_seg),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
