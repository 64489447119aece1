// SPDX-License-Identifier: GPL-2.0
/* gupstat: observe the get_user_pages() slow path. */
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
#include "util/output.h"
#include "util/stdfds.h"

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

/* Subcommands; anything else (options, or nothing) is the live view. */
static const struct command commands[] = {
	{ "live", cmd_live },
	{ "serve", cmd_serve },		/* the same as Prometheus metrics */
	{ "trace", cmd_trace },		/* every PTE-lock hold to a file */
	{ "report", cmd_report },	/* read such a file */
	{ "validate", cmd_validate },	/* measure a claim on this kernel */
	{ "compare", cmd_compare },	/* two kernels' validate results */
};

static const struct command *find(int argc, char **argv)
{
	size_t i;

	for (i = 0; argc > 1 && i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return &commands[i];
	return NULL;
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
	c = find(argc, argv);
	atexit(close_stdout_at_exit);
	if (c) {
		msg_set_cmd(c->name);
		ret = c->run(argc - 1, argv + 1);
	} else if (argc > 1 && argv[1][0] != '-') {
		msg_say("gupstat", "unknown command '%s' (try 'gupstat --help')\n", argv[1]);
		ret = 2;
	} else {
		ret = cmd_live(argc, argv);
	}
	/*
	 * Output that did not get out is a failure, whatever the command did;
	 * files are put in place only now, once all of it succeeded.
	 */
	stdout_closed = true;
	return output_finish(ret, !output_close_stdout());
}
