/* net_int.h — socket helpers shared by net.c (clients) and net_server.c. */
#ifndef SLUICE_NET_INT_H
#define SLUICE_NET_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* "1.2.3.4:6817", "[::1]:6817", "unix" or "unknown". */
void net_sockaddr_str(const struct sockaddr *sa, char *out, size_t len);
void net_set_nodelay(int fd);
int  net_set_blocking(int fd, bool blocking);

#endif
