/* fd.c — see fd.h. */
#include "common/fd.h"

#include <errno.h>
#include <unistd.h>

int fd_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t) n;
	}
	return 0;
}
