// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "live/options.h"

#define ARGV(...) ((char *[]){ "gupstat", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "gupstat", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, ...) live_opts_parse(o, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

int main(void)
{
	struct live_opts o;

	/* Errors are printed on stderr; keep the TAP stream on stdout clean. */
	freopen("/dev/null", "w", stderr);

	CHECK(PARSE(&o, "-p", "42", "-d", "5", "-k") == 0 && o.pid == 42 &&
	      o.duration == 5 && o.force_kprobe && !o.cmd, "short options");
	CHECK(PARSE(&o, "--pid", "7", "--duration=3", "--verbose") == 0 &&
	      o.pid == 7 && o.duration == 3 && o.verbose, "long options");
	CHECK(PARSE(&o, "-d", "2", "--", "gup_test", "-L") == 0 && o.cmd &&
	      !strcmp(o.cmd[0], "gup_test") && !strcmp(o.cmd[1], "-L"),
	      "a command after -- keeps its own options");
	CHECK(PARSE(&o, "-x") == -EINVAL, "unknown short option");
	CHECK(PARSE(&o, "--frobnicate") == -EINVAL, "unknown long option");
	CHECK(PARSE(&o, "-p") == -EINVAL, "missing value");
	CHECK(PARSE(&o, "-p", "0") == -EINVAL, "PID 0 refused");
	CHECK(PARSE(&o, "-d", "5s") == -EINVAL, "trailing junk refused");
	CHECK(PARSE(&o, "-d", "99999999999") == -EINVAL, "overflow refused");
	CHECK(PARSE(&o, "-p", "1", "--", "true") == -EINVAL, "-p with a command refused");
	CHECK(PARSE(&o, "-h") == 1, "help asks the caller to stop");
	return check_done();
}
