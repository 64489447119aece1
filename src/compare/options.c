// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat compare. */
#include <string.h>
#include "compare/options.h"
#include "util/options.h"

static const char doc[] =
"Compare two 'gupstat validate unpin' results: pin and unpin times (median "
"[p25-p75] of the repeats), counters per call, the census of grabs and "
"puts, and a verdict per claim. A quantity counts as changed only when "
"the medians are 10% or more apart and the interquartile ranges do not "
"overlap.";

enum { OPT_PLOT = 256 };

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "print one JSON document instead of the text "
	  "(" GUPSTAT_SCHEMADIR "/compare.schema.json)", 0 },
	{ "plot", OPT_PLOT, "FILE.svg", 0, "also draw the unpin times as an SVG", 0 },
	{}
};

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct compare_opts *o = state->input;

	switch (key) {
	case 'j': o->json = true; return 0;
	case OPT_PLOT: o->plot = arg; return 0;
	case ARGP_KEY_ARG:
		if (state->arg_num >= 2)
			return opts_usage(state, "unexpected argument '%s'", arg);
		*(state->arg_num ? &o->other : &o->base) = arg;
		return 0;
	case ARGP_KEY_END:
		if (!o->other)
			return opts_usage(state, "need two results files, BASE.json OTHER.json");
		/* --plot over an input is refused by output_open(), by inode. */
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat compare",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "BASE.json OTHER.json" },
};

int compare_opts_parse(struct compare_opts *o, int argc, char **argv)
{
	*o = (struct compare_opts){};
	return opts_parse(&cmd, argc, argv, o, NULL);
}
