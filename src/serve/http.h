/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_HTTP_H
#define __GUPSTAT_SERVE_HTTP_H

#include <stdbool.h>
#include <stdio.h>

struct event_base;
struct http;

/* Write the exposition to @f; 0, or -errno for a 500. */
typedef int (*http_metrics_fn)(void *arg, FILE *f, bool openmetrics);

/*
 * Answer GET (and HEAD) /metrics with @fn's text and / with a page that
 * links to it, on the listening socket @fd, from @base's loop: the
 * HTTP side is libevent's evhttp. Anything else is refused by status.
 */
struct http *http_start(struct event_base *base, int fd, http_metrics_fn fn, void *arg);
void http_stop(struct http *h);

#endif /* __GUPSTAT_SERVE_HTTP_H */
