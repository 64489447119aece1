// SPDX-License-Identifier: GPL-2.0
/*
 * The environment variables that would change how gupstat's libraries
 * behave in ways gupstat does not support (env.h): taken out of its own
 * environment at start, given back to the traced COMMAND.
 */
#include <stdlib.h>
#include <string.h>
#include "util/env.h"

/*
 * ARGP_HELP_FMT: glibc's argp takes its columns from it unchecked;
 * rmargin=0 makes --help loop for ever, opt-doc-col=1000 makes it die of
 * SIGSEGV (glibc 2.36, measured). POSIXLY_CORRECT: getopt would stop at
 * the first operand, so "report T.gt -n 5" would take -n for a file.
 */
static const char *const cleared[] = { "ARGP_HELP_FMT", "POSIXLY_CORRECT" };

#define NR_CLEARED	(sizeof(cleared) / sizeof(cleared[0]))

static char *saved[NR_CLEARED];

void env_clear(void)
{
	const char *v;
	size_t i;

	for (i = 0; i < NR_CLEARED; i++) {
		v = getenv(cleared[i]);
		free(saved[i]);
		/* Not kept if out of memory: the COMMAND then runs without it. */
		saved[i] = v ? strdup(v) : NULL;
		unsetenv(cleared[i]);
	}
}

void env_restore(void)
{
	size_t i;

	for (i = 0; i < NR_CLEARED; i++)
		if (saved[i])
			setenv(cleared[i], saved[i], 1);
}
