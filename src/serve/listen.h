/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_LISTEN_H
#define __GUPSTAT_SERVE_LISTEN_H

#include <stdbool.h>
#include <sys/socket.h>

/*
 * Prometheus' list of exporter ports has given out all of 9100-9999
 * (9435 is ebpf_exporter's): 10435 is outside it, in no /etc/services.
 */
#define LISTEN_DEFAULT	"127.0.0.1:10435"

/* Where gupstat serve listens: a numeric address and a port. */
struct listen_addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/*
 * Parse "ADDR:PORT": a numeric IPv4 address, "[IPv6]", or "localhost"
 * (127.0.0.1); PORT 1 to 65535. 0, or -EINVAL with @why set to what is
 * wrong, in words.
 */
int listen_parse(const char *s, struct listen_addr *a, const char **why);
/* 127.0.0.0/8, ::1 or ::ffff:127.0.0.0/104: other hosts cannot reach it. */
bool listen_is_loopback(const struct listen_addr *a);
/*
 * A listening, non-blocking socket bound to @a, or -errno. Bound before
 * anything attaches, so that a port in use is the first thing said.
 */
int listen_open(const struct listen_addr *a);

#endif /* __GUPSTAT_SERVE_LISTEN_H */
