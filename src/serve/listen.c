// SPDX-License-Identifier: GPL-2.0
/* The address gupstat serve listens on: parsed, checked, bound. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <unistd.h>
#include "serve/listen.h"
#include "util/parse.h"

static int parse_port(const char *s, in_port_t *port)
{
	unsigned int v;

	if (parse_uint(s, 1, 65535, &v))
		return -EINVAL;
	*port = htons(v);
	return 0;
}

/* "[::1]:10435" or "127.0.0.1:10435": split at the last colon outside brackets. */
static int split(const char *s, char *host, size_t len, const char **port)
{
	const char *colon;
	size_t n;

	if (*s == '[') {
		const char *close = strchr(s, ']');

		if (!close || close[1] != ':')
			return -EINVAL;
		s++;
		n = close - s;
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || memchr(s, ':', colon - s))
			return -EINVAL;
		n = colon - s;
	}
	if (!n || n >= len)
		return -EINVAL;
	memcpy(host, s, n);
	host[n] = '\0';
	*port = colon + 1;
	return 0;
}

int listen_parse(const char *s, struct listen_addr *a, const char **why)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&a->ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->ss;
	char host[INET6_ADDRSTRLEN + 1];
	const char *port;
	in_port_t p;

	memset(a, 0, sizeof(*a));
	*why = "not ADDR:PORT (like 127.0.0.1:10435 or [::1]:10435)";
	if (split(s, host, sizeof(host), &port))
		return -EINVAL;
	*why = "not a port from 1 to 65535";
	if (parse_port(port, &p))
		return -EINVAL;
	if (!strcmp(host, "localhost"))
		strcpy(host, "127.0.0.1");
	if (inet_pton(AF_INET, host, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = p;
		a->len = sizeof(*in);
		return 0;
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = p;
		a->len = sizeof(*in6);
		return 0;
	}
	*why = "not a numeric IPv4 address, [IPv6] address or localhost";
	return -EINVAL;
}

bool listen_is_loopback(const struct listen_addr *a)
{
	const struct sockaddr_in *in = (const struct sockaddr_in *)&a->ss;
	const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->ss;

	if (a->ss.ss_family == AF_INET)
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr))
		return in6->sin6_addr.s6_addr[12] == 127;
	return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
}

int listen_open(const struct listen_addr *a)
{
	int fd, one = 1, err;

	fd = socket(a->ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A restart binds at once, not after TIME_WAIT; a live listener still refuses. */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    bind(fd, (const struct sockaddr *)&a->ss, a->len) || listen(fd, 16)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}
