// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat serve's HTTP side on a loopback socket: the two paths, the
 * format a scraper asks for, and what a careless or hostile client
 * gets (other methods and paths, oversized requests, a stalled peer).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <event2/event.h>
#include "tap.h"
#include "serve/http.h"
#include "serve/listen.h"

static struct event_base *base;
static volatile int done, fail_next, scrapes, big_next;
static in_port_t port;

static int stub(void *arg, FILE *f, bool openmetrics)
{
	scrapes++;
	if (fail_next) {
		fail_next = 0;
		return -EIO;
	}
	if (big_next) {
		/* 8 MB: more than a socket takes at once, so writes go on after a hang-up. */
		for (int i = 0; i < 8 << 16; i++)
			fprintf(f, "gupstat_test_%07d 1\n", i);
		return 0;
	}
	fprintf(f, "gupstat_test_total 1\n%s", openmetrics ? "# EOF\n" : "");
	return 0;
}

static void tick(evutil_socket_t fd, short what, void *arg)
{
	if (done)
		event_base_loopbreak(base);
}

static void *loop(void *arg)
{
	event_base_dispatch(base);
	return NULL;
}

static int dial(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = port,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Send @req whole, read the answer until the server closes: into @out. */
static int ask(const char *req, size_t len, char *out, size_t max)
{
	int fd = dial();
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (len) {
		n = send(fd, req, len, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		req += n;
		len -= n;
	}
	while (got < max - 1 && (n = recv(fd, out + got, max - 1 - got, 0)) > 0)
		got += n;
	out[got] = '\0';
	close(fd);
	return 0;
}

static char out[1 << 16];

static const char *get(const char *req)
{
	if (ask(req, strlen(req), out, sizeof(out)))
		return "";
	return out;
}

static int status(const char *resp)
{
	int code = 0;

	sscanf(resp, "HTTP/1.%*d %d", &code);
	return code;
}

static void check_paths(void)
{
	const char *r;

	r = get("GET /metrics HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 200, "GET /metrics: 200 (%d)", status(r));
	CHECK(strstr(r, "Content-Type: text/plain; version=0.0.4; charset=utf-8") != NULL,
	      "the 0.0.4 text format by default");
	CHECK(strstr(r, "\r\n\r\ngupstat_test_total 1\n") != NULL, "the scrape's text is the body");
	r = get("GET /metrics HTTP/1.0\r\nAccept: application/openmetrics-text;version=1.0.0,"
		"text/plain;version=0.0.4;q=0.5\r\n\r\n");
	CHECK(strstr(r, "Content-Type: application/openmetrics-text; version=1.0.0") != NULL &&
	      strstr(r, "# EOF\n"), "OpenMetrics when asked, as Prometheus asks");
	r = get("GET / HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 200 && strstr(r, "href=\"/metrics\""), "GET /: a page linking /metrics");
	r = get("GET /metrics?x=1 HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 200, "a query string is ignored (%d)", status(r));
	r = get("GET /nope HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 404, "another path: 404 (%d)", status(r));
	r = get("HEAD /metrics HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 200 && !strstr(r, "gupstat_test_total") &&
	      strstr(r, "Content-Length: 21\r\n"), "HEAD: 200, the length, no body");
	fail_next = 1;
	r = get("GET /metrics HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 500, "a scrape that fails: 500 (%d)", status(r));
}

static void check_refusals(void)
{
	static char big[64 * 1024];
	const char *r;
	int before;

	r = get("POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
	CHECK(status(r) >= 400 && status(r) < 600, "POST: refused (%d)", status(r));
	r = get("DELETE / HTTP/1.0\r\n\r\n");
	CHECK(status(r) >= 400 && status(r) < 600, "DELETE: refused (%d)", status(r));
	before = scrapes;
	snprintf(big, sizeof(big), "GET /metrics HTTP/1.0\r\nX-Big: ");
	memset(big + strlen(big), 'a', sizeof(big) - strlen(big) - 5);
	memcpy(big + sizeof(big) - 5, "\r\n\r\n", 4);
	ask(big, sizeof(big) - 1, out, sizeof(out));
	CHECK(scrapes == before && status(out) != 200,
	      "64 kB of headers: not served (%d)", status(out));
	r = get("GET /metrics HTTP/1.0\r\nContent-Length: 100000\r\n\r\n");
	CHECK(scrapes == before && status(r) != 200, "a GET with a body: not served (%d)",
	      status(r));
	r = get("garbage\r\n\r\n");
	CHECK(status(r) != 200, "not HTTP: not served (%d)", status(r));
}

/* Peers that hang up before the answer is out: the server goes on. */
static void check_hangups(void)
{
	const char *req = "GET /metrics HTTP/1.0\r\n\r\n";
	struct linger rst = { .l_onoff = 1, .l_linger = 0 };
	int i, fd;

	big_next = 1;
	for (i = 0; i < 5; i++) {
		fd = dial();
		if (fd < 0)
			continue;
		send(fd, req, strlen(req), MSG_NOSIGNAL);
		usleep(50000);
		/* A reset, so that the server's next write fails (EPIPE). */
		setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
		close(fd);
	}
	usleep(200000);
	big_next = 0;
	CHECK(status(get("GET /metrics HTTP/1.0\r\n\r\n")) == 200,
	      "five peers that hung up mid-answer: still serving");
}

/* A peer that connects and says nothing holds no one else up. */
static void check_stalled(void)
{
	int idle = dial();
	const char *r = get("GET /metrics HTTP/1.0\r\n\r\n");

	CHECK(idle >= 0 && status(r) == 200, "a scrape is answered while another peer stalls");
	if (idle >= 0)
		close(idle);
	r = get("GET /metrics HTTP/1.0\r\n\r\n");
	CHECK(status(r) == 200, "still serving after all of it");
}

int main(void)
{
	struct listen_addr a;
	struct sockaddr_in *in = (struct sockaddr_in *)&a.ss;
	struct timeval tv = { .tv_usec = 20000 };
	socklen_t len = sizeof(*in);
	struct event *t;
	struct http *h;
	pthread_t th;
	const char *why;
	int fd;

	CHECK(!listen_parse("127.0.0.1:1", &a, &why), "parse a loopback address");
	in->sin_port = 0;	/* any free port */
	fd = listen_open(&a);
	CHECK(fd >= 0, "listen on 127.0.0.1");
	if (fd < 0)
		return check_done();
	getsockname(fd, (struct sockaddr *)in, &len);
	port = in->sin_port;
	CHECK(listen_open(&a) == -EADDRINUSE, "a port in use is refused: EADDRINUSE");
	base = event_base_new();
	t = event_new(base, -1, EV_PERSIST, tick, NULL);
	event_add(t, &tv);
	h = http_start(base, fd, stub, NULL);
	CHECK(h != NULL, "http_start");
	pthread_create(&th, NULL, loop, NULL);
	check_paths();
	check_refusals();
	/* As gupstat serve does: a hang-up is the loop's to notice. */
	signal(SIGPIPE, SIG_IGN);
	check_hangups();
	check_stalled();
	done = 1;
	pthread_join(th, NULL);
	http_stop(h);
	event_free(t);
	event_base_free(base);
	return check_done();
}
