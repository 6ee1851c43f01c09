/* io_frame.c — srun <-> slurmstepd frame headers (io_frame.h). */
#include "common/io_frame.h"

static void _put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t) (v >> 8);
	p[1] = (uint8_t) v;
}

static void _put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t) (v >> 24);
	p[1] = (uint8_t) (v >> 16);
	p[2] = (uint8_t) (v >> 8);
	p[3] = (uint8_t) v;
}

static uint32_t _get32(const uint8_t *p)
{
	return (uint32_t) p[0] << 24 | (uint32_t) p[1] << 16 |
	       (uint32_t) p[2] << 8 | p[3];
}

void io_frame_put(uint8_t out[IO_FRAME_HDR], const io_frame_t *f)
{
	_put16(out, f->type);
	_put16(out + 2, f->flags);
	_put32(out + 4, f->task);
	_put32(out + 8, f->len);
}

int io_frame_get(const uint8_t in[IO_FRAME_HDR], io_frame_t *f)
{
	f->type = (uint16_t) (in[0] << 8 | in[1]);
	f->flags = (uint16_t) (in[2] << 8 | in[3]);
	f->task = _get32(in + 4);
	f->len = _get32(in + 8);
	if (f->type >= IO_TYPE_END || f->len > IO_FRAME_MAX)
		return -1;
	return 0;
}
