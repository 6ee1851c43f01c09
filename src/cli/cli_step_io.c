/* cli_step_io.c — see cli_step_io.h. */
#include "cli/cli_step_io.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "common/xmalloc.h"
#include "common/xstring.h"

char *cli_my_addr(void)
{
	const slurm_conf_t *c = cli_conf();
	const char *host = c->ctld_host_cnt && c->ctld_addrs[0] ?
		c->ctld_addrs[0] : "127.0.0.1";
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(c->slurmctld_port) };
	struct sockaddr_in me;
	socklen_t len = sizeof(me);
	char buf[INET_ADDRSTRLEN] = "127.0.0.1";
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd >= 0 && inet_pton(AF_INET, host, &sa.sin_addr) == 1 &&
	    connect(fd, (struct sockaddr *) &sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *) &me, &len) == 0)
		inet_ntop(AF_INET, &me.sin_addr, buf, sizeof(buf));
	if (fd >= 0)
		close(fd);
	return xstrdup(buf);
}

char *cli_io_key(void)
{
	uint8_t raw[16];
	char *key = xmalloc(33);
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read(fd, raw, sizeof(raw)) != sizeof(raw)) {
		for (size_t i = 0; i < sizeof(raw); i++)
			raw[i] = (uint8_t) (rand() ^ getpid());
	}
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(key + 2 * i, 3, "%02x", raw[i]);
	return key;
}
