// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat serve: the live view's, and where to listen. */
#include "serve/options.h"
#include "util/options.h"

static const char doc[] =
"Serve the live view's histograms and counters over HTTP, as Prometheus "
"metrics at /metrics (the text exposition format, or OpenMetrics when the "
"scraper asks for it): cumulative buckets, times in seconds, counters that "
"only grow while it runs. With COMMAND, count it and its children alone, "
"and keep serving after it exits until Ctrl-C, SIGTERM or -d."
"\v"
"examples:\n"
"  sudo gupstat serve                            # 127.0.0.1:9435, all tasks\n"
"  sudo gupstat serve --listen [::1]:9500 -e none\n"
"  sudo gupstat serve --listen 192.0.2.7:9435 --allow-remote\n"
"  sudo gupstat serve -P --max-procs 20          # and a series per process\n"
"  curl -s localhost:9435/metrics | promtool check metrics";

enum { OPT_LISTEN = 256, OPT_ALLOW_REMOTE, OPT_MAX_PROCS };

static const struct argp_option options[] = {
	{ "listen", OPT_LISTEN, "ADDR:PORT", 0, "listen here (default: " LISTEN_DEFAULT
	  "; [IPv6]:PORT for IPv6)", 0 },
	{ "allow-remote", OPT_ALLOW_REMOTE, NULL, 0,
	  "let --listen take an address other hosts can reach", 0 },
	{ "max-procs", OPT_MAX_PROCS, "N", 0, "with -P, a series for the first N processes "
	  "seen, the others counted as dropped (default: 100)", 0 },
	{}
};

static const struct argp_child children[] = {
	{ .argp = &live_count_argp },
	{}
};

static error_t end(struct serve_opts *o, struct argp_state *state)
{
	const char *why;

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
	case ARGP_KEY_INIT: state->child_inputs[0] = &o->live; return 0;
	case OPT_LISTEN: o->listen = arg; return 0;
	case OPT_ALLOW_REMOTE: o->allow_remote = true; return 0;
	case OPT_MAX_PROCS: return opts_uint(state, key, arg, 1, 100000, &o->max_procs);
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
				  .max_procs = SERVE_MAX_PROCS_DEFAULT };
	return opts_parse(&cmd, argc, argv, o, &OPTS_SHARED_ALL(&o->live));
}
