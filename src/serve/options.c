// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat serve: the live view's, and where to listen. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "serve/options.h"
#include "util/options.h"
#include "util/parse.h"

static const char doc[] =
"Serve the live view's histograms and counters over HTTP, as Prometheus "
"metrics at /metrics (the text exposition format, or OpenMetrics when the "
"scraper asks for it): cumulative buckets, times in seconds, counters that "
"only grow while it runs. With '-- COMMAND' (never a bare word), count it and "
"its children alone, and keep serving after it exits until Ctrl-C, SIGTERM or -d."
"\v"
"examples:\n"
"  sudo gupstat serve                            # 127.0.0.1:10435, all tasks\n"
"  sudo gupstat serve --listen [::1]:9500 -e none\n"
"  sudo gupstat serve --listen 192.0.2.7:10435 --allow-remote\n"
"  sudo gupstat serve --per-cgroup               # and a series per cgroup\n"
"  sudo gupstat serve -P --max-series 20         # and per process, 20 at most\n"
"  curl -s localhost:10435/metrics | promtool check metrics";

enum { OPT_LISTEN = 256, OPT_ALLOW_REMOTE, OPT_MAX_SERIES, OPT_SERIES_IDLE, OPT_BUCKETS_NS };

static const struct argp_option options[] = {
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0, "listen here (default: " LISTEN_DEFAULT
	  "; [IPv6]:PORT for IPv6)", 0 },
	{ "allow-remote", OPT_ALLOW_REMOTE, NULL, 0,
	  "let --listen take an address other hosts can reach", 0 },
	{ "max-series", OPT_MAX_SERIES, "N", 0, "with -P or --per-cgroup, at most N series "
	  "of each; others are counted as dropped (default: 100, at most 4096)", 0 },
	{ "max-procs", OPT_MAX_SERIES, "N", OPTION_ALIAS | OPTION_HIDDEN, NULL, 0 },
	{ "series-idle", OPT_SERIES_IDLE, "SEC", 0, "a per-process or per-cgroup series whose "
	  "counters have not moved for SEC seconds is removed, unless it holds pins "
	  "(default: 900)", 0 },
	{ "buckets-ns", OPT_BUCKETS_NS, "MIN:MAX", 0, "time histograms' buckets cover MIN to MAX "
	  "nanoseconds, in the kernel's log2 bounds (default: " SERVE_BUCKETS_NS_DEFAULT
	  ": 63 ns to 1.07 s)", 0 },
	{}
};

static const struct argp_child children[] = {
	{ .argp = &view_count_argp },
	{}
};

/* The first log2 slot whose upper bound, 2^i - 1, is at least @v. */
static unsigned int slot_covering(__u64 v)
{
	unsigned int i = 0;

	while (i < 63 && (1ULL << i) - 1 < v)
		i++;
	return i;
}

int serve_buckets_parse(const char *s, unsigned int *first, unsigned int *last,
			const char **why)
{
	const char *colon = strchr(s, ':');
	__u64 min, max;
	char buf[32];
	int err;

	*why = "not MIN:MAX nanoseconds";
	if (!colon || (size_t)(colon - s) >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, colon - s);
	buf[colon - s] = 0;
	err = parse_u64(buf, 1, SERVE_BUCKETS_NS_MAX, &min) ?:
	      parse_u64(colon + 1, 1, SERVE_BUCKETS_NS_MAX, &max);
	if (err == -ERANGE)
		*why = "each bound from 1 to 1099511627776 (2^40 ns, 18 minutes)";
	else if (!err && min > max)
		*why = "MIN is above MAX";
	else if (!err && min == max)
		*why = "an empty range: MIN equals MAX";
	if (err || min >= max)
		return -EINVAL;
	/* From the bucket just below MIN: 64 gives le = 63 ns, 2^6 - 1. */
	*first = slot_covering(min - 1);
	*last = slot_covering(max);
	return 0;
}

static error_t end(struct serve_opts *o, struct argp_state *state)
{
	const char *why;

	if (serve_buckets_parse(o->buckets_ns, &o->ns_first_slot, &o->ns_last_slot, &why))
		return opts_bad_value(state, OPT_BUCKETS_NS, why, o->buckets_ns);
	if (listen_parse(o->listen, &o->addr, &why))
		return opts_bad_value(state, OPT_LISTEN, why, o->listen);
	if (!o->allow_remote && !listen_is_loopback(&o->addr))
		return opts_error(state, "--listen %s is not a loopback address: add "
				  "--allow-remote to serve other hosts", o->listen);
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct serve_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT: state->child_inputs[0] = &o->view; return 0;
	case OPT_LISTEN: o->listen = arg; return 0;
	case OPT_ALLOW_REMOTE: o->allow_remote = true; return 0;
	case OPT_MAX_SERIES: return opts_uint(state, key, arg, 1, 4096, &o->max_series);
	case OPT_SERIES_IDLE: return opts_seconds(state, key, arg, &o->series_idle);
	case OPT_BUCKETS_NS: o->buckets_ns = arg; return 0;
	case ARGP_KEY_END: return end(o, state);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat serve",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "[-- COMMAND [ARG]...]", .children = children },
	.shared = OPTS_TARGET | OPTS_PROBES,
};

int serve_opts_parse(struct serve_opts *o, int argc, char **argv)
{
	*o = (struct serve_opts){ .listen = LISTEN_DEFAULT,
				  .max_series = SERVE_MAX_SERIES_DEFAULT,
				  .series_idle = SERVE_SERIES_IDLE_DEFAULT,
				  .buckets_ns = SERVE_BUCKETS_NS_DEFAULT };
	return opts_parse(&cmd, argc, argv, o, &OPTS_SHARED_ALL(&o->view));
}
