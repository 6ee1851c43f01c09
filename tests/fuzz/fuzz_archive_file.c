/* fuzz_archive_file.c — libFuzzer harness for the archive file reader
 * (sacctmgr archive load reads files slurmdbd's host holds): each input
 * is read as a file, event by event, to its end or its first error.  The
 * reader is built into slurmdbd only, so it is compiled in here. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dbd/dbd_archive_file.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	archive_reader_t r;
	archive_event_t ev;
	char err[512];

	if (!f)
		return 0;
	if (archive_reader_open(&r, f, err, sizeof(err)) == 0) {
		while (archive_reader_next(&r, &ev, err, sizeof(err)) > 0)
			if (ev == ARCHIVE_EV_ROW)
				for (uint32_t i = 0; i < r.ncells; i++)
					(void)(r.cells[i] && r.cells[i][0]);
		archive_reader_close(&r);
	}
	fclose(f);
	return 0;
}
