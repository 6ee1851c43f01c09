/* stepd_start.c — slurmstepd's start-up chores (stepd_start.h). */
#include "slurmd/stepd/stepd_start.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/debug_flags.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/msg_types.h"
#include "common/xmalloc.h"

static int read_full(int fd, void *p, size_t len)
{
	char *c = p;

	while (len) {
		ssize_t n = read(fd, c, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		c += n;
		len -= (size_t) n;
	}
	return 0;
}

void *stepd_read_launch(int fd, uint16_t type)
{
	uint32_t len;
	uint8_t *body;
	buf_t *b;
	void *data = NULL;

	if (read_full(fd, &len, sizeof(len)) < 0)
		return NULL;
	len = ntohl(len);
	if (len == 0 || len > MSG_MAX_BODY_LEN)
		return NULL;
	body = xmalloc(len);
	if (read_full(fd, body, len) == 0) {
		b = buf_view(body, len);
		if (msg_body_unpack(type, b, &data) < 0)
			data = NULL;
		buf_destroy(b);
	}
	xfree(body);
	return data;
}

int stepd_take_verdict_fd(void)
{
	int vfd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		if (null > STDERR_FILENO)
			close(null);
	}
	return vfd;
}

static char  *title;          /* argv[0]'s string ... */
static size_t title_len;      /* ... to the end of the last argument */

void stepd_title_init(int argc, char **argv)
{
	char *end;

	if (argc < 1 || !argv[0])
		return;
	end = argv[0] + strlen(argv[0]);
	for (int i = 1; i < argc && argv[i] == end + 1; i++)
		end = argv[i] + strlen(argv[i]);
	title = argv[0];
	title_len = (size_t) (end - argv[0]);
}

void stepd_set_title(const char *fmt, ...)
{
	char step[64];
	va_list ap;

	if (!title || title_len < 2)
		return;
	va_start(ap, fmt);
	vsnprintf(step, sizeof(step), fmt, ap);
	va_end(ap);
	memset(title, 0, title_len);
	snprintf(title, title_len, "slurmstepd: [%s]", step);
}

void stepd_send_verdict(int *fd, int32_t rc)
{
	if (*fd < 0)
		return;
	if (write(*fd, &rc, sizeof(rc)) != sizeof(rc))
		error("could not tell slurmd the launch result: %m");
	close(*fd);
	*fd = -1;
}

bool stepd_frees_at_exit(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
	return true;
#endif
#endif
	return false;
}

void stepd_log_setup(const slurm_conf_t *conf, const char *node_name,
		     int verbose)
{
	int level = conf->slurmd_debug + verbose;
	char *file = NULL;
	log_options_t lo = { 0 };

	if (level > LOG_LEVEL_DEBUG5)
		level = LOG_LEVEL_DEBUG5;
	if (conf->slurmd_log_file)
		file = conf_expand_node_path(conf->slurmd_log_file, node_name);
	lo.file_level = level;
	lo.stderr_level = file ? LOG_LEVEL_QUIET : level;
	lo.stderr_timestamps = true;
	log_init("slurmstepd", lo, file);
	xfree(file);
	debug_flags_set_conf(conf->debug_flags);
}
