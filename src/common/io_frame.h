/* io_frame.h — the stream between srun and each node's step slurmstepd.
 *
 * slurmstepd connects to srun (SLURM_SRUN_COMM_HOST:PORT) and sends
 * IO_INIT with the launch's io_key; both sides then exchange frames of a
 * fixed 12-byte header (big-endian u16 type, u16 flags, u32 task id,
 * u32 length) and a payload of at most IO_FRAME_MAX bytes.
 *   stepd -> srun: IO_INIT (task = node id, payload = io_key),
 *                  IO_STDOUT / IO_STDERR (whole lines unless -u),
 *                  IO_EXIT (payload u32 wait status), IO_DONE,
 *                  IO_TASK_PID (payload u32 pid; --debugger-test);
 *   srun -> stepd: IO_STDIN (task or IO_ALL_TASKS; length 0 = EOF),
 *                  IO_SIGNAL (payload u32 signal number).
 * PMI barriers: each stepd sends IO_PMI_FENCE ("key=value\n" pairs put
 * on the node since the last barrier) once all its tasks entered it; srun
 * sends every node's pairs back in one IO_PMI_FENCE_OUT when all nodes
 * did.
 */
#ifndef SLUICE_IO_FRAME_H
#define SLUICE_IO_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define IO_FRAME_HDR   12
#define IO_FRAME_MAX   (4u * 1024 * 1024)
#define IO_ALL_TASKS   0xffffffffu

enum io_frame_type {
	IO_STDIN = 0,
	IO_STDOUT,
	IO_STDERR,
	IO_INIT,
	IO_EXIT,
	IO_DONE,
	IO_SIGNAL,
	IO_PMI_FENCE,       /* stepd -> srun: this node's new PMI pairs */
	IO_PMI_FENCE_OUT,   /* srun -> stepd: every node's, barrier over */
	IO_WINSIZE,         /* srun -> stepd (--pty): u16 rows, u16 cols */
	IO_TASK_PID,        /* stepd -> srun (LAUNCH_DEBUG_STOP): u32 pid of
			     * a task stopped at its exec */
	IO_TYPE_END
};

typedef struct {
	uint16_t type;
	uint16_t flags;
	uint32_t task;
	uint32_t len;
} io_frame_t;

void io_frame_put(uint8_t out[IO_FRAME_HDR], const io_frame_t *f);
/* Parse a header: 0, or -1 if the type is unknown or len > IO_FRAME_MAX. */
int  io_frame_get(const uint8_t in[IO_FRAME_HDR], io_frame_t *f);

#endif
