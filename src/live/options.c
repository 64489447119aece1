// SPDX-License-Identifier: GPL-2.0
/* Command-line options of the live view, in bcc libbpf-tools' shape. */
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include "live/options.h"
#include "util/options.h"
#include "util/parse.h"

static const char doc[] =
"Histograms of the get_user_pages() slow path, aggregated in the kernel: "
"pages per follow_page_pte() call (the batch size), PTE-lock hold time, "
"refs per try_grab_folio(), __get_user_pages() pages and latency, pages "
"and latency per unpin, gup_fill_pages() where the kernel has it, and a "
"perf counter per GUP and unpin call. Printed once at the end, or, as "
"bcc's tools take it, every INTERVAL seconds, COUNT times or until the "
"end. With '-- COMMAND', run it and count it and its children alone: a "
"COMMAND comes after '--' only."
"\v"
"Reports follow one another, as bcc's do (-T stamps each); --clear "
"redraws them on one screen instead. -P is not bcc's histogram per PID "
"but a table of counts, a row per process. Every PTE-lock hold to a "
"file instead: 'gupstat trace -o FILE', read with 'gupstat report FILE'.\n"
"\n"
"examples:\n"
"  sudo gupstat                      # all tasks, until Ctrl-C\n"
"  sudo gupstat 1 10                 # a report a second, ten of them\n"
"  sudo gupstat -T -i 1 --clear      # every second, on one screen\n"
"  sudo gupstat -p 1234 -d 10        # one process for ten seconds\n"
"  sudo gupstat -j -- ./my_workload  # one command, as NDJSON";

static const struct argp_child children[] = {
	{ .argp = &view_count_argp },
	{}
};

enum { OPT_DRY_RUN = 256, OPT_CLEAR };

static const struct argp_option options[] = {
	{ "interval", 'i', "SEC", 0, "print every SEC seconds, as INTERVAL does "
	  "(default: once, at the end)", 0 },
	{ "timestamp", 'T', NULL, 0, "print a timestamp with each report", 0 },
	{ "clear", OPT_CLEAR, NULL, 0, "on a terminal, clear the screen before each report "
	  "(default: one after another)", 0 },
	{ "json", 'j', NULL, 0, "print NDJSON: {\"type\":...,\"data\":...} per line", 0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0, "list what would attach, and how, then exit", 0 },
	{}
};

/* bcc's [INTERVAL [COUNT]]: 'gupstat 1 10' is ten reports a second apart. */
static error_t parse_arg(struct argp_state *state, struct live_opts *o, const char *arg)
{
	/* A COMMAND's, after "--"; a bare word, refused as such by util/options.c. */
	if (opts_arg_quoted(state) || !isdigit((unsigned char)arg[0]))
		return ARGP_ERR_UNKNOWN;
	if (state->arg_num == 0 && parse_seconds(arg, &o->interval_arg))
		return opts_error(state, "INTERVAL: not a number from 1 to %u: '%s'",
				  PARSE_SECONDS_MAX, arg);
	if (state->arg_num == 1 && parse_uint(arg, 1, UINT_MAX, &o->count))
		return opts_error(state, "COUNT: not a number from 1 to %u: '%s'", UINT_MAX, arg);
	if (state->arg_num > 1)
		return opts_usage(state, "unexpected argument '%s': INTERVAL and COUNT at most",
				  arg);
	return 0;
}

static error_t parse_end(struct argp_state *state, struct live_opts *o)
{
	/* --dry-run would exit before the command ever ran. */
	if (o->dry_run && o->v.cmd)
		return opts_conflict(state, OPT_DRY_RUN, OPTS_KEY_COMMAND);
	if (o->clear && o->json)
		return opts_conflict(state, OPT_CLEAR, 'j');
	if (o->interval && o->interval_arg)
		return opts_error(state, "-i and INTERVAL exclude each other");
	if (o->interval_arg)
		o->interval = o->interval_arg;
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct live_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT: state->child_inputs[0] = &o->v; return 0;
	case 'i': return opts_seconds(state, key, arg, &o->interval);
	case 'T': o->timestamps = true; return 0;
	case OPT_CLEAR: o->clear = true; return 0;
	case 'j': o->json = true; return 0;
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case ARGP_KEY_ARG: return parse_arg(state, o, arg);
	case ARGP_KEY_END: return parse_end(state, o);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "[INTERVAL [COUNT]] [-- COMMAND [ARG]...]", .children = children },
	.shared = OPTS_TARGET | OPTS_PROBES,
	.lists_subcmds = true,
};

int live_opts_parse(struct live_opts *o, int argc, char **argv)
{
	*o = (struct live_opts){};
	return opts_parse(&cmd, argc, argv, o, &OPTS_SHARED_ALL(&o->v));
}
