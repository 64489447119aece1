// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat serve's HTTP side, on libevent's evhttp: two paths, GET and
 * HEAD only, small requests, idle connections closed. Each scrape is
 * written whole into memory first, so a slow reader holds a buffer, not
 * the loop, and never the BPF side (which only ever writes per-CPU maps).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include "serve/http.h"
#include "serve/metrics.h"

/* A scrape request is one line and a few headers. */
#define HTTP_MAX_HEADERS	8192
#define HTTP_MAX_BODY		0
/* Seconds a connection may take to send its request or read the answer. */
#define HTTP_TIMEOUT		10

struct http {
	struct evhttp *ev;
	http_metrics_fn fn;
	void *arg;
};

static const char index_page[] =
	"<!DOCTYPE html>\n<html><head><title>gupstat</title></head><body>\n"
	"<h1>gupstat serve</h1>\n"
	"<p>The get_user_pages() slow path, as Prometheus metrics: "
	"<a href=\"/metrics\">/metrics</a></p>\n</body></html>\n";

/* Prometheus asks for OpenMetrics first; anything else gets the 0.0.4 text. */
static bool wants_openmetrics(struct evhttp_request *req)
{
	const char *accept = evhttp_find_header(evhttp_request_get_input_headers(req), "Accept");

	return accept && strstr(accept, "application/openmetrics-text");
}

static void reply(struct evhttp_request *req, int code, const char *reason,
		  const char *type, const char *body, size_t len)
{
	struct evkeyvalq *h = evhttp_request_get_output_headers(req);
	struct evbuffer *b = evbuffer_new();

	if (!b) {
		evhttp_send_error(req, 500, NULL);
		return;
	}
	evhttp_add_header(h, "Content-Type", type);
	evhttp_add_header(h, "Cache-Control", "no-store");
	/* evhttp 2.1 would send a HEAD answer's body: the length alone, then. */
	if (evhttp_request_get_command(req) == EVHTTP_REQ_HEAD) {
		char n[24];

		snprintf(n, sizeof(n), "%zu", len);
		evhttp_add_header(h, "Content-Length", n);
	} else {
		evbuffer_add(b, body, len);
	}
	evhttp_send_reply(req, code, reason, b);
	evbuffer_free(b);
}

static void metrics(struct http *h, struct evhttp_request *req)
{
	bool om = wants_openmetrics(req);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int err;

	if (!f) {
		evhttp_send_error(req, 500, "Out of memory");
		return;
	}
	err = h->fn(h->arg, f, om);
	if (fclose(f) && !err)
		err = -ENOMEM;
	if (err) {
		const char *why = strerror(-err);

		reply(req, 500, "Internal Server Error", "text/plain; charset=utf-8",
		      why, strlen(why));
	} else {
		reply(req, 200, "OK", metrics_content_type(om), buf, len);
	}
	free(buf);
}

static void route(struct evhttp_request *req, void *arg)
{
	const struct evhttp_uri *uri = evhttp_request_get_evhttp_uri(req);
	const char *path = uri ? evhttp_uri_get_path(uri) : NULL;

	if (path && !strcmp(path, "/metrics"))
		metrics(arg, req);
	else if (path && !strcmp(path, "/"))
		reply(req, 200, "OK", "text/html; charset=utf-8", index_page,
		      sizeof(index_page) - 1);
	else
		evhttp_send_error(req, 404, NULL);
}

struct http *http_start(struct event_base *base, int fd, http_metrics_fn fn, void *arg)
{
	struct http *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->fn = fn;
	h->arg = arg;
	h->ev = evhttp_new(base);
	if (!h->ev || evhttp_accept_socket(h->ev, fd)) {
		http_stop(h);
		return NULL;
	}
	evhttp_set_allowed_methods(h->ev, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD);
	evhttp_set_max_headers_size(h->ev, HTTP_MAX_HEADERS);
	evhttp_set_max_body_size(h->ev, HTTP_MAX_BODY);
	evhttp_set_timeout(h->ev, HTTP_TIMEOUT);
	evhttp_set_gencb(h->ev, route, h);
	return h;
}

void http_stop(struct http *h)
{
	if (!h)
		return;
	if (h->ev)
		evhttp_free(h->ev);
	free(h);
}
