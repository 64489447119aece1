// SPDX-License-Identifier: GPL-2.0
/* gupstat: observe the get_user_pages() slow path. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "live/live.h"
#include "serve/serve.h"
#include "trace/trace.h"
#include "report/report.h"
#include "validate/validate.h"
#include "compare/compare.h"
#include "util/env.h"
#include "util/msg.h"
#include "util/options.h"
#include "util/output.h"
#include "util/stdfds.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *doc;	/* its line in 'gupstat --help' */
};

/* Subcommands; a number or an option is the live view's, as is nothing. */
static const struct command commands[] = {
	{ "live", cmd_live, "the histograms and counters (the default)" },
	{ "serve", cmd_serve, "the same as Prometheus metrics over HTTP" },
	{ "trace", cmd_trace, "every PTE-lock hold to a file" },
	{ "report", cmd_report, "read such a file: summary, plots, exports" },
	{ "validate", cmd_validate, "measure a claim on this kernel" },
	{ "compare", cmd_compare, "two kernels' validate results side by side" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* The table as the top-level --help lists it. */
static void list_commands(void)
{
	static struct opts_subcmd list[NR_COMMANDS + 1];
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		list[i] = (struct opts_subcmd){ commands[i].name, commands[i].doc };
	opts_set_subcmds(list);
}

/* gupstat help [SUBCOMMAND]: that subcommand's --help, or the tool's. */
static int cmd_help(int argc, char **argv)
{
	char help[] = "--help";
	const struct command *c = argc > 1 ? find(argv[1]) : NULL;

	if (argc > 2) {
		msg_say("gupstat help", "unexpected argument '%s' (try 'gupstat help')\n",
			argv[2]);
		return 2;
	}
	if (argc > 1 && !c) {
		msg_say("gupstat help", "unknown subcommand '%s' (try 'gupstat help')\n",
			argv[1]);
		return 2;
	}
	if (!c)
		return cmd_live(2, (char *[]){ "gupstat", help, NULL });
	msg_set_cmd(c->name);
	return c->run(2, (char *[]){ (char *)c->name, help, NULL });
}

/* The live view's: no argument, an option, or its INTERVAL. */
static bool is_live(int argc, char **argv)
{
	return argc < 2 || argv[1][0] == '-' || isdigit((unsigned char)argv[1][0]);
}

static bool stdout_closed;

/*
 * A command that ends in exit() (after --help, say) is checked too; it
 * ended before main() could say it succeeded: its outputs go.
 */
static void close_stdout_at_exit(void)
{
	if (stdout_closed)
		return;
	output_finish(1, true);
	if (output_close_stdout())
		_exit(1);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int ret;

	/* Before anything is opened, and before argp reads its variable. */
	stdfds_guard();
	env_clear();
	list_commands();
	c = argc > 1 ? find(argv[1]) : NULL;
	atexit(close_stdout_at_exit);
	if (c) {
		msg_set_cmd(c->name);
		ret = c->run(argc - 1, argv + 1);
	} else if (argc > 1 && !strcmp(argv[1], "help")) {
		ret = cmd_help(argc - 1, argv + 1);
	} else if (is_live(argc, argv)) {
		ret = cmd_live(argc, argv);
	} else {
		/* A typo for a subcommand, or a command that lacks its "--". */
		msg_say("gupstat", "unknown subcommand '%s' (try 'gupstat help'); a COMMAND "
			"to run goes after '--', as in 'gupstat -- %s'\n", argv[1], argv[1]);
		ret = 2;
	}
	/*
	 * Output that did not get out is a failure, whatever the command did;
	 * files are put in place only now, once all of it succeeded.
	 */
	stdout_closed = true;
	return output_finish(ret, !output_close_stdout());
}
