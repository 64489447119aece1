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

enum { OPT_PERFETTO = 256, OPT_PLOT, OPT_STRICT, OPT_FOLDED, OPT_FOLDED_WEIGHT, OPT_FOLDED_BY,
       OPT_VMLINUX };

static const struct argp_option options[] = {
	{ "top", 'n', "N", 0, "show the N longest holds (default 10, 0 for none)", 0 },
	{ "json", 'j', NULL, 0, "print one JSON document instead of the text "
	  "(" GUPSTAT_SCHEMADIR "/report.schema.json)", 0 },
	{ "perfetto", OPT_PERFETTO, "OUT", 0, "write a timeline, trace-event JSON: one slice "
	  "per hold with its stack, at the kernel's time on the trace's clock (open in "
	  "ui.perfetto.dev or chrome://tracing)", 0 },
	{ "plot", OPT_PLOT, "OUT", 0, "write the hold-time distribution as an SVG image", 0 },
	{ "folded", OPT_FOLDED, "OUT", 0, "write the holds per kernel stack, root first, in the "
	  "folded format flame graph tools read (speedscope, flamegraph.pl, inferno); "
	  "'-': to stdout, instead of the text", 0 },
	{ "folded-weight", OPT_FOLDED_WEIGHT, "WHAT", 0, "what --folded counts per stack: ns "
	  "(hold time, the default), holds, or waits (the waiters' stacks by ns spun, from a "
	  "trace --waits)", 0 },
	{ "folded-by", OPT_FOLDED_BY, "WHAT", 0, "what a --folded frame is: function (the "
	  "default: one function's offsets merge) or address (symbol+0xoffset)", 0 },
	{ "vmlinux", OPT_VMLINUX, "FILE", 0, "the traced kernel's vmlinux with DWARF, to give "
	  "each frame its source file, line and inlined functions (default: the usual places "
	  "for the trace's kernel; its build ID must be the trace's)", 0 },
	{ "strict", OPT_STRICT, NULL, 0, "refuse a trace that did not end cleanly (no trailer) "
	  "rather than read the holds it has", 0 },
	{}
};

static error_t folded_weight(struct argp_state *state, const char *arg, struct report_opts *o)
{
	if (!strcmp(arg, "ns"))
		o->folded_weight = FOLDED_NS;
	else if (!strcmp(arg, "holds"))
		o->folded_weight = FOLDED_HOLDS;
	else if (!strcmp(arg, "waits"))
		o->folded_weight = FOLDED_WAITS;
	else
		return opts_bad_value(state, OPT_FOLDED_WEIGHT, "not ns, holds or waits", arg);
	return 0;
}

static error_t folded_by(struct argp_state *state, const char *arg, struct report_opts *o)
{
	if (strcmp(arg, "function") && strcmp(arg, "address"))
		return opts_bad_value(state, OPT_FOLDED_BY, "not function or address", arg);
	o->folded_by_address = !strcmp(arg, "address");
	return 0;
}

/* Two exports to one file: the second would replace the first. */
static error_t exports_apart(struct argp_state *state, const struct report_opts *o)
{
	const char *paths[] = { o->perfetto, o->plot, o->folded };
	static const int keys[] = { OPT_PERFETTO, OPT_PLOT, OPT_FOLDED };
	static const char *const what[] = { "the file --perfetto writes",
					    "the file --plot writes" };
	size_t i, j;

	for (j = 1; j < sizeof(paths) / sizeof(paths[0]); j++)
		for (i = 0; i < j; i++)
			if (paths[i] && paths[j] && !strcmp(paths[i], paths[j]))
				return opts_bad_value(state, keys[j], what[i], paths[j]);
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct report_opts *o = state->input;

	switch (key) {
	case 'n': return opts_uint(state, key, arg, 0, 100000, &o->top);
	case 'j': o->json = true; return 0;
	case OPT_PERFETTO: o->perfetto = arg; return 0;
	case OPT_PLOT: o->plot = arg; return 0;
	case OPT_STRICT: o->strict = true; return 0;
	case OPT_FOLDED: o->folded = arg; return 0;
	case OPT_FOLDED_WEIGHT: return folded_weight(state, arg, o);
	case OPT_FOLDED_BY: return folded_by(state, arg, o);
	case OPT_VMLINUX: o->vmlinux = arg; return 0;
	case ARGP_KEY_ARG:
		if (o->path)
			return opts_usage(state, "one trace file at a time: '%s'", arg);
		o->path = arg;
		return 0;
	case ARGP_KEY_NO_ARGS: return opts_usage(state, "no trace file given");
	case ARGP_KEY_END:
		/* An output over the input is refused by output_open(), by inode. */
		if (o->json && o->folded && !strcmp(o->folded, "-"))
			return opts_usage(state, "-j and --folded - both write to standard output");
		return exports_apart(state, o);
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
