/* log.c — daemon and command logging with Slurm's levels.
 *
 * Every message is formatted into one buffer and written with a single
 * write(), so lines from several threads never interleave.  The log file
 * descriptor is guarded by a reader/writer lock only so log_reopen() can
 * swap it while other threads keep logging.
 */
#define _GNU_SOURCE
#include "common/log.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "common/xmalloc.h"
#include "common/xstring.h"

#define LOG_LINE_MAX 8192

static struct {
	char prog[64];
	log_options_t opts;
	char *path;
	int fd;
	bool init;
} log_state = {
	.opts = { LOG_LEVEL_INFO, LOG_LEVEL_QUIET, false, true },
	.fd = -1,
};

static pthread_rwlock_t log_fd_lock = PTHREAD_RWLOCK_INITIALIZER;

static const char *const level_names[] = {
	[LOG_LEVEL_QUIET] = "quiet",	[LOG_LEVEL_FATAL] = "fatal",
	[LOG_LEVEL_ERROR] = "error",	[LOG_LEVEL_INFO] = "info",
	[LOG_LEVEL_VERBOSE] = "verbose", [LOG_LEVEL_DEBUG] = "debug",
	[LOG_LEVEL_DEBUG2] = "debug2",	[LOG_LEVEL_DEBUG3] = "debug3",
	[LOG_LEVEL_DEBUG4] = "debug4",	[LOG_LEVEL_DEBUG5] = "debug5",
};

/* What Slurm puts before the message at each level. */
static const char *const level_tags[] = {
	[LOG_LEVEL_QUIET] = "",		 [LOG_LEVEL_FATAL] = "fatal: ",
	[LOG_LEVEL_ERROR] = "error: ",	 [LOG_LEVEL_INFO] = "",
	[LOG_LEVEL_VERBOSE] = "",	 [LOG_LEVEL_DEBUG] = "debug:  ",
	[LOG_LEVEL_DEBUG2] = "debug2: ", [LOG_LEVEL_DEBUG3] = "debug3: ",
	[LOG_LEVEL_DEBUG4] = "debug4: ", [LOG_LEVEL_DEBUG5] = "debug5: ",
};

static const char *log_prog(void)
{
	if (log_state.prog[0])
		return log_state.prog;
	return program_invocation_short_name;
}

static int log_open_file(const char *path)
{
	return open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0640);
}

int log_init(const char *prog, log_options_t opts, const char *logfile)
{
	int fd = -1, rc = 0;

	if (prog) {
		const char *slash = strrchr(prog, '/');

		snprintf(log_state.prog, sizeof(log_state.prog), "%s",
			 slash ? slash + 1 : prog);
	}
	log_state.opts = opts;
	log_state.init = true;
	if (logfile && (fd = log_open_file(logfile)) < 0)
		rc = -1;

	pthread_rwlock_wrlock(&log_fd_lock);
	if (log_state.fd >= 0)
		close(log_state.fd);
	log_state.fd = fd;
	xfree(log_state.path);
	log_state.path = xstrdup(logfile);
	pthread_rwlock_unlock(&log_fd_lock);
	return rc;
}

int log_reopen(const char *logfile)
{
	const char *path = logfile ? logfile : log_state.path;
	char *copy;
	int fd;

	if (!path)
		return 0;
	if ((fd = log_open_file(path)) < 0)
		return -1;
	copy = xstrdup(path);
	pthread_rwlock_wrlock(&log_fd_lock);
	if (log_state.fd >= 0)
		close(log_state.fd);
	log_state.fd = fd;
	xfree(log_state.path);
	log_state.path = copy;
	pthread_rwlock_unlock(&log_fd_lock);
	return 0;
}

void log_set_levels(log_level_t stderr_level, log_level_t file_level)
{
	log_state.opts.stderr_level = stderr_level;
	log_state.opts.file_level = file_level;
}

log_level_t log_get_level(void)
{
	log_level_t l = log_state.opts.stderr_level;

	if (log_state.fd >= 0 && log_state.opts.file_level > l)
		l = log_state.opts.file_level;
	return l;
}

void log_fini(void)
{
	pthread_rwlock_wrlock(&log_fd_lock);
	if (log_state.fd >= 0)
		close(log_state.fd);
	log_state.fd = -1;
	xfree(log_state.path);
	pthread_rwlock_unlock(&log_fd_lock);
}

int log_level_from_string(const char *s)
{
	char *end;
	long v;

	if (!s || !*s)
		return -1;
	for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if (!strcasecmp(s, level_names[i]))
			return (int)i;
	v = strtol(s, &end, 10);
	if (*end || v < LOG_LEVEL_QUIET || v > LOG_LEVEL_DEBUG5)
		return -1;
	return (int)v;
}

const char *log_level_to_string(log_level_t l)
{
	if ((int)l < 0 || l > LOG_LEVEL_DEBUG5)
		return "unknown";
	return level_names[l];
}

/* "[2026-11-23T09:16:55.123] " */
static size_t log_timestamp(char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	size_t n;

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	n = strftime(buf, len, "[%Y-%m-%dT%H:%M:%S", &tm);
	n += (size_t)snprintf(buf + n, len - n, ".%03d] ",
			      (int)(tv.tv_usec / 1000));
	return n;
}

/* Put msg after head into buf, ending with exactly one newline. */
static size_t log_compose(char *buf, size_t len, const char *head,
			  const char *tag, const char *msg)
{
	int n = snprintf(buf, len - 1, "%s%s%s", head, tag, msg);
	size_t used = n < 0 ? 0 : (size_t)n;

	if (used > len - 2)
		used = len - 2;
	buf[used++] = '\n';
	return used;
}

static void log_write_all(int fd, const char *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	(void)n;	/* nowhere left to report a failed log write */
}

static void log_to_stderr(log_level_t level, const char *msg)
{
	char head[128] = "";
	char buf[LOG_LINE_MAX];
	size_t n = 0;

	if (log_state.opts.stderr_timestamps)
		n = log_timestamp(head, sizeof(head));
	if (log_state.opts.stderr_prefix)
		snprintf(head + n, sizeof(head) - n, "%s: ", log_prog());
	n = log_compose(buf, sizeof(buf), head, level_tags[level], msg);
	log_write_all(STDERR_FILENO, buf, n);
}

static void log_to_file(log_level_t level, const char *msg)
{
	char head[64];
	char buf[LOG_LINE_MAX];
	size_t n;

	log_timestamp(head, sizeof(head));
	n = log_compose(buf, sizeof(buf), head, level_tags[level], msg);
	pthread_rwlock_rdlock(&log_fd_lock);
	if (log_state.fd >= 0)
		log_write_all(log_state.fd, buf, n);
	pthread_rwlock_unlock(&log_fd_lock);
}

static bool log_wanted(log_level_t level)
{
	return level <= log_state.opts.stderr_level ||
	       (log_state.fd >= 0 && level <= log_state.opts.file_level);
}

static void log_vmsg(log_level_t level, const char *suffix, const char *fmt,
		     va_list ap)
{
	int saved = errno;
	char msg[LOG_LINE_MAX];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (suffix) {
		size_t n = strlen(msg);

		snprintf(msg + n, sizeof(msg) - n, ": %s", suffix);
	}
	if (level <= log_state.opts.stderr_level)
		log_to_stderr(level, msg);
	if (log_state.fd >= 0 && level <= log_state.opts.file_level)
		log_to_file(level, msg);
	errno = saved;
}

#define LOG_FUNC(name, level)					\
	void name(const char *fmt, ...)				\
	{							\
		va_list ap;					\
								\
		if (!log_wanted(level))				\
			return;					\
		va_start(ap, fmt);				\
		log_vmsg(level, NULL, fmt, ap);			\
		va_end(ap);					\
	}

LOG_FUNC(error, LOG_LEVEL_ERROR)
LOG_FUNC(info, LOG_LEVEL_INFO)
LOG_FUNC(verbose, LOG_LEVEL_VERBOSE)
LOG_FUNC(debug, LOG_LEVEL_DEBUG)
LOG_FUNC(debug2, LOG_LEVEL_DEBUG2)
LOG_FUNC(debug3, LOG_LEVEL_DEBUG3)
LOG_FUNC(debug4, LOG_LEVEL_DEBUG4)
LOG_FUNC(debug5, LOG_LEVEL_DEBUG5)

void error_errno(const char *fmt, ...)
{
	const char *why = strerror(errno);
	va_list ap;

	if (!log_wanted(LOG_LEVEL_ERROR))
		return;
	va_start(ap, fmt);
	log_vmsg(LOG_LEVEL_ERROR, why, fmt, ap);
	va_end(ap);
}

void fatal(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vmsg(LOG_LEVEL_FATAL, NULL, fmt, ap);
	va_end(ap);
	exit(1);
}
