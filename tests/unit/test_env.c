// SPDX-License-Identifier: GPL-2.0
/*
 * util/env: the variables that break gupstat's libraries are gone from
 * its environment after env_clear(), and the traced COMMAND gets the
 * user's values back from env_restore(); the others are left alone.
 */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "util/env.h"

static int is(const char *name, const char *want)
{
	const char *v = getenv(name);

	return want ? v && !strcmp(v, want) : !v;
}

int main(void)
{
	setenv("ARGP_HELP_FMT", "rmargin=0", 1);
	setenv("POSIXLY_CORRECT", "", 1);
	setenv("TZ", "UTC", 1);
	env_clear();
	CHECK(is("ARGP_HELP_FMT", NULL), "ARGP_HELP_FMT cleared");
	CHECK(is("POSIXLY_CORRECT", NULL), "POSIXLY_CORRECT cleared, even empty");
	CHECK(is("TZ", "UTC"), "TZ left alone");
	env_restore();
	CHECK(is("ARGP_HELP_FMT", "rmargin=0"), "ARGP_HELP_FMT given back");
	CHECK(is("POSIXLY_CORRECT", ""), "POSIXLY_CORRECT given back, empty");
	unsetenv("ARGP_HELP_FMT");
	unsetenv("POSIXLY_CORRECT");
	env_clear();
	env_restore();
	CHECK(is("ARGP_HELP_FMT", NULL) && is("POSIXLY_CORRECT", NULL),
	      "unset stays unset");
	return check_done();
}
