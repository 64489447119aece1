// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat report. */
#include <string.h>
#include "report/options.h"
#include "util/options.h"

static const char doc[] =
"Summarise a trace written by 'gupstat trace -o FILE': hold-time "
"percentiles and distribution, pages per hold, how much of the holds the "
"pages fill took, and the longest holds with their kernel stacks. A trace "
"that did not end cleanly (killed, or its disk full) has no trailer: its "
"whole records are read, and it says so.";

enum { OPT_PERFETTO = 256, OPT_PLOT, OPT_STRICT };

static const struct argp_option options[] = {
	{ "top", 'n', "N", 0, "show the N longest holds (default 10, 0 for none)", 0 },
	{ "perfetto", OPT_PERFETTO, "OUT", 0, "write a timeline, trace-event JSON: one slice "
	  "per hold with its stack, at the kernel's time on the trace's clock (open in "
	  "ui.perfetto.dev or chrome://tracing)", 0 },
	{ "plot", OPT_PLOT, "OUT", 0, "write the hold-time distribution as an SVG image", 0 },
	{ "strict", OPT_STRICT, NULL, 0, "refuse a trace that did not end cleanly (no trailer) "
	  "rather than read the holds it has", 0 },
	{}
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;

	switch (key) {
	case 'n': return opts_uint(state, key, arg, 0, 100000, &o->top);
	case OPT_PERFETTO: o->perfetto = arg; return 0;
	case OPT_PLOT: o->plot = arg; return 0;
	case OPT_STRICT: o->strict = true; return 0;
	case ARGP_KEY_ARG:
		if (o->path)
			return opts_usage(state, "one trace file at a time: '%s'", arg);
		o->path = arg;
		return 0;
	case ARGP_KEY_NO_ARGS: return opts_usage(state, "no trace file given");
	case ARGP_KEY_END:
		if (o->plot && o->perfetto && !strcmp(o->plot, o->perfetto))
			return opts_bad_value(state, OPT_PLOT, "the file --perfetto writes", o->plot);
		/* An output over the input is refused by output_open(), by inode. */
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat report",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "FILE" },
};

int report_opts_parse(struct report_opts *o, int argc, char **argv)
{
	*o = (struct report_opts){ .top = 10 };
	return opts_parse(&cmd, argc, argv, o, NULL);
}
