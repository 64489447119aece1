// SPDX-License-Identifier: GPL-2.0
/* Command-line options of the live view, in bcc libbpf-tools' shape. */
#include <string.h>
#include "live/options.h"
#include "util/options.h"

static const char doc[] =
"Histograms of the get_user_pages() slow path, aggregated in the kernel: "
"pages per follow_page_pte() call (the batch size), PTE-lock hold time, "
"refs per try_grab_folio(), __get_user_pages() pages and latency, pages "
"and latency per unpin, gup_fill_pages() where the kernel has it, and a "
"perf counter per GUP and unpin call. With COMMAND, run it and count it "
"and its children alone."
"\v"
"Every PTE-lock hold to a file instead: 'gupstat trace -o FILE', read with "
"'gupstat report FILE'. The unpin claim, per kernel: 'gupstat validate "
"unpin -o FILE', two kernels side by side: 'gupstat compare A B' (see their "
"--help).\n"
"\n"
"examples:\n"
"  sudo gupstat                      # all tasks, until Ctrl-C\n"
"  sudo gupstat -i 1 -T              # a report every second\n"
"  sudo gupstat -p 1234 -d 10        # one process for ten seconds\n"
"  sudo gupstat -j -- ./my_workload  # one command, as NDJSON";

static const struct argp_child children[] = {
	{ .argp = &view_count_argp },
	{}
};

enum { OPT_DRY_RUN = 256 };

static const struct argp_option options[] = {
	{ "interval", 'i', "SEC", 0, "print every SEC seconds (default: once, at the end)", 0 },
	{ "timestamp", 'T', NULL, 0, "print a timestamp with each report", 0 },
	{ "json", 'j', NULL, 0, "print NDJSON: {\"type\":...,\"data\":...} per line", 0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0, "list what would attach, and how, then exit", 0 },
	{}
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct live_opts *o = state->input;

	switch (key) {
	case ARGP_KEY_INIT: state->child_inputs[0] = &o->v; return 0;
	case 'i': return opts_seconds(state, key, arg, &o->interval);
	case 'T': o->timestamps = true; return 0;
	case 'j': o->json = true; return 0;
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case ARGP_KEY_END:
		/* --dry-run would exit before the command ever ran. */
		return o->dry_run && o->v.cmd ? opts_conflict(state, OPT_DRY_RUN, OPTS_KEY_COMMAND) : 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "[-- COMMAND [ARG]...]", .children = children },
	.shared = OPTS_TARGET | OPTS_PROBES,
};

int live_opts_parse(struct live_opts *o, int argc, char **argv)
{
	*o = (struct live_opts){};
	return opts_parse(&cmd, argc, argv, o, &OPTS_SHARED_ALL(&o->v));
}
