/* fd.h — small helpers on file descriptors. */
#ifndef SLUICE_FD_H
#define SLUICE_FD_H

#include <stddef.h>

/* Write all len bytes to a blocking fd, retrying EINTR and short writes.
 * 0, or -1 with errno set (EIO if write() made no progress). */
int fd_write_all(int fd, const void *buf, size_t len);

#endif
