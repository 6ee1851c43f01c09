/* fuzz_journal.c — arbitrary bytes as the controller's state on disk:
 * the snapshot (ctld_state) and a journal file, read by recover_state()
 * into real node and job tables, as slurmctld does at start.  Input: a
 * big-endian u16 n, then the snapshot (the first n & 0x7fff bytes of the
 * rest, at most all of it), then the journal file.  With n's top bit set
 * the checksums are made right first, so that the record parsers behind
 * them (job records, node states, job files) see the mutated bytes.
 * Nothing may crash or leak.  The journal file is named after the
 * generation its header gives (so a real state directory is a seed:
 * tests/fuzz/corpus/fuzz_journal holds tests/unit/data/state-fmt2 and the
 * same state as this controller writes it); its records are also scanned
 * one by one, and the payload of each job record is read as both job
 * record formats (positional format 1, tagged format 2) directly, and
 * the payload of each reservation record (JREC_RESV, also the snapshot's
 * section from format 4) as the reservation table, and of each trigger
 * record (JREC_TRIGGERS, the snapshot's section from format 5) as the
 * trigger table, and of each crontab record (JREC_CRONTAB, the
 * snapshot's section from format 7) as the crontab table.
 *
 * Build: CC=clang cmake -DSLUICE_FUZZ=ON
 *        -DCMAKE_C_FLAGS=-fsanitize=fuzzer-no-link,address,undefined ...
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The controller's modules, with the loop and daemons stubbed out. */
#include "../unit/ctld_world.h"

static char dir[] = "/tmp/fuzz_journal.XXXXXX";
static char *state_dir;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	log_options_t quiet = { LOG_LEVEL_QUIET, LOG_LEVEL_QUIET, false, false };
	char path[256], err[512];
	FILE *f;

	log_init("fuzz_journal", quiet, NULL);
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/slurm.conf", dir);
	f = fopen(path, "w");
	fprintf(f, "ClusterName=sluice\nSlurmctldHost=localhost\n"
		"StateSaveLocation=%s/state\n"
		"NodeName=n[1-4] NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000\n"
		"PartitionName=debug Nodes=ALL Default=YES\n", dir);
	fclose(f);
	conf = conf_load(path, err, sizeof(err));
	if (!conf || state_save_init(conf->state_save_location, "sluice", err,
				     sizeof(err)))
		abort();
	state_dir = conf->state_save_location;
	return 0;
}

static void _put(const char *name, const uint8_t *d, size_t n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", state_dir, name);
	if (!d) {
		unlink(path);
		return;
	}
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (n && fwrite(d, 1, n, f) != n)
		abort();
	fclose(f);
}

static void _scan_image(const uint8_t *d, size_t n)
{
	size_t off = JOURNAL_HDR_LEN;
	journal_rec_t r;
	uint64_t gen, a, b;
	char why[256];

	if (journal_check_header(d, n, &gen, why, sizeof(why)) < 0)
		off = 0;
	while (journal_next(d, n, &off, &r, why, sizeof(why)) == JOURNAL_REC) {
		if (r.data + r.len > d + n)
			abort();
		if (r.type == JREC_RESV) {
			buf_t *p = buf_view(r.data, r.len);

			resv_mgr_unpack_state(p, r.version);
			if (buf_offset(p) > r.len)
				abort();
			buf_destroy(p);
			resv_mgr_fini();
			continue;
		}
		if (r.type == JREC_TRIGGERS) {
			buf_t *p = buf_view(r.data, r.len);

			trigger_unpack_state(p, r.version);
			if (buf_offset(p) > r.len)
				abort();
			buf_destroy(p);
			trigger_fini();
			continue;
		}
		if (r.type == JREC_CRONTAB) {
			buf_t *p = buf_view(r.data, r.len);

			crontab_unpack_state(p, r.version);
			if (buf_offset(p) > r.len)
				abort();
			buf_destroy(p);
			crontab_fini();
			continue;
		}
		if (r.type != JREC_JOB)
			continue;
		for (uint16_t v = 1; v <= JOB_REC_VERSION; v++) {
			buf_t *p = buf_view(r.data, r.len);
			job_record_t *j = job_rec_unpack(p, v);

			if (buf_offset(p) > r.len)
				abort();
			if (j)
				job_mgr_free_job(j);
			buf_destroy(p);
		}
	}
	journal_count_after(d, n, off, &a, &b);
}

/* The journal file's name: the generation in its header, if any. */
static void _journal_name(const uint8_t *d, size_t n, char *name,
			  size_t len)
{
	uint64_t gen = 1;
	char why[256];

	if (journal_check_header(d, n, &gen, why, sizeof(why)) < 0 ||
	    !gen || gen > 1000000)
		gen = 1;
	snprintf(name, len, "ctld_journal.%llu", (unsigned long long) gen);
}

/* Right checksums: every record of the journal image (framed by its
 * length field) and the snapshot's trailing CRC. */
static void _fix_crcs(uint8_t *snap, size_t sn, uint8_t *j, size_t jn)
{
	size_t off = JOURNAL_HDR_LEN;

	if (sn >= 4)
		_put32(snap + sn - 4, crc32c(0, snap, sn - 4));
	if (jn >= JOURNAL_HDR_LEN)
		_put32(j + 20, crc32c(0, j, 20));
	while (off + JOURNAL_REC_HDR_LEN <= jn) {
		uint32_t n = _get32(j + off + 16), crc;

		if (n > jn - off - JOURNAL_REC_HDR_LEN)
			break;
		crc = crc32c(0, j + off + 4, 16);
		crc = crc32c(crc, j + off + JOURNAL_REC_HDR_LEN, n);
		_put32(j + off + 20, crc);
		off += JOURNAL_REC_HDR_LEN + n;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	char err[512], jname[64];
	size_t snap;
	recover_t r;
	uint8_t *data;
	bool fix;

	if (size < 2)
		return 0;
	snap = (size_t) (in[0] & 0x7f) << 8 | in[1];
	fix = in[0] & 0x80;
	size -= 2;
	data = xmalloc(size + 1);
	memcpy(data, in + 2, size);
	if (snap > size)
		snap = size;
	if (fix)
		_fix_crcs(data, snap, data + snap, size - snap);
	_journal_name(data + snap, size - snap, jname, sizeof(jname));
	_put("ctld_state", snap ? data : NULL, snap);
	_put(jname, data + snap, size - snap);
	node_mgr_init(conf);
	part_mgr_init(conf, err, sizeof(err));
	job_mgr_init();
	_scan_image(data + snap, size - snap);
	recover_state(state_dir, &r, err, sizeof(err));
	_put(jname, NULL, 0);
	resv_mgr_fini();
	trigger_fini();
	crontab_fini();
	job_mgr_fini();
	part_mgr_fini();
	node_mgr_fini();
	xfree(data);
	return 0;
}
