// SPDX-License-Identifier: GPL-2.0
/* The live view's options: values, the shared ones, and what is refused. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "live/options.h"

#define ARGV(...) ((char *[]){ "gupstat", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "gupstat", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, ...) live_opts_parse(o, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

/* The one line a refused command line prints, without its newline. */
static const char *said(struct live_opts *o, int argc, char **argv)
{
	static char line[256];
	char path[] = "/tmp/gupstat-test_opts.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	line[0] = '\0';
	if (fd < 0 || !freopen(path, "w", stderr))
		return line;
	live_opts_parse(o, argc, argv);
	fflush(stderr);
	f = fopen(path, "r");
	if (f && !fgets(line, sizeof(line), f))
		line[0] = '\0';
	if (f)
		fclose(f);
	close(fd);
	unlink(path);
	if (!freopen("/dev/null", "w", stderr))
		return "";
	line[strcspn(line, "\n")] = '\0';
	return line;
}
#define SAID(o, ...) said(o, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

int main(void)
{
	struct live_opts o;

	/* Errors go to stderr, help to stdout: keep the TAP stream clean. */
	if (!freopen("/dev/null", "w", stderr))
		return 1;

	CHECK(PARSE(&o, "-p", "42", "-d", "5", "-k") == 0 && o.v.pid == 42 &&
	      o.v.duration == 5 && o.v.force_kprobe && !o.v.cmd, "short options");
	CHECK(PARSE(&o, "--pid", "7", "--duration=3", "--verbose", "--lock-exact") == 0 &&
	      o.v.pid == 7 && o.v.duration == 3 && o.v.verbose && o.v.lock_exact, "long options");
	CHECK(PARSE(&o, "-c", "/sys/fs/cgroup/x", "-P", "-i", "1", "-T", "-j", "--dry-run") == 0 &&
	      !strcmp(o.v.cgroup, "/sys/fs/cgroup/x") && o.v.per_process && o.interval == 1 &&
	      o.timestamps && o.json && o.dry_run, "the live view's own options");
	CHECK(PARSE(&o, "-c", "/x") == 0 && !o.v.cgroup_exact &&
	      PARSE(&o, "--cgroup-exact", "--cgroup=/x") == 0 && o.v.cgroup_exact &&
	      !strcmp(o.v.cgroup, "/x"), "-c: with descendants unless --cgroup-exact");
	CHECK(PARSE(&o, "--cgroup-exact") == -EINVAL, "--cgroup-exact without -c refused");
	CHECK(PARSE(&o, "--dur", "4") == 0 && o.v.duration == 4, "a long option's unique prefix");
	CHECK(PARSE(&o, "-kv") == 0 && o.v.force_kprobe && o.v.verbose, "short options together");
	CHECK(PARSE(&o, "-d", "2", "--", "gup_test", "-L") == 0 && o.v.cmd &&
	      !strcmp(o.v.cmd[0], "gup_test") && !strcmp(o.v.cmd[1], "-L") && !o.v.cmd[2],
	      "a command after -- keeps its own options");
	CHECK(PARSE(&o, "-T", "true", "-x") == -EINVAL && !o.v.cmd,
	      "a command without -- refused");
	CHECK(PARSE(&o, "1", "3") == 0 && o.interval == 1 && o.count == 3 && !o.v.cmd,
	      "bcc's INTERVAL COUNT");
	CHECK(PARSE(&o, "-T", "5") == 0 && o.interval == 5 && !o.count && o.timestamps,
	      "INTERVAL alone, after an option");
	CHECK(PARSE(&o, "2", "4", "--", "true") == 0 && o.interval == 2 && o.count == 4 &&
	      o.v.cmd && !strcmp(o.v.cmd[0], "true"), "INTERVAL COUNT, then a command");
	CHECK(PARSE(&o, "--", "5") == 0 && !o.interval && o.v.cmd && !strcmp(o.v.cmd[0], "5"),
	      "a number after -- is the command");
	CHECK(PARSE(&o, "1", "2", "3") == -EINVAL, "a third number refused");
	CHECK(PARSE(&o, "1", "true") == -EINVAL, "a command after INTERVAL without -- refused");
	CHECK(PARSE(&o, "0") == -EINVAL && PARSE(&o, "1", "0") == -EINVAL,
	      "INTERVAL 0 and COUNT 0 refused");
	CHECK(PARSE(&o, "-i", "1", "2") == -EINVAL, "-i and INTERVAL refused together");
	CHECK(PARSE(&o, "--clear") == 0 && o.clear && PARSE(&o, "-i", "1") == 0 && !o.clear,
	      "--clear, and none by default");
	CHECK(PARSE(&o, "--clear", "-j") == -EINVAL, "--clear with -j refused");
	CHECK(live_opts_parse(&o, 1, (char *[]){ "gupstat", NULL }) == 0 && !o.v.event &&
	      !o.v.no_event && !o.v.cmd && !o.v.pid, "no options");
	CHECK(PARSE(&o, "-e", "none") == 0 && !o.v.event && o.v.no_event, "-e none");
	CHECK(PARSE(&o, "-e", "LLC-load-misses") == 0 && !strcmp(o.v.event, "LLC-load-misses") &&
	      !o.v.no_event, "-e a cache event");
	CHECK(PARSE(&o, "-e", "r01c4") == 0 && !strcmp(o.v.event, "r01c4"), "-e a raw event");
	CHECK(PARSE(&o, "-e", "r-1") == -EINVAL, "-e r-1 refused");
	CHECK(PARSE(&o, "-e", "r99999999999999999999") == -EINVAL, "-e raw over 64 bits refused");
	CHECK(PARSE(&o, "-e", "no-such-event") == -EINVAL, "unknown event refused");
	CHECK(PARSE(&o, "-x") == -EINVAL, "unknown short option");
	CHECK(PARSE(&o, "-kx") == -EINVAL, "unknown letter after a known one");
	CHECK(PARSE(&o, "--frobnicate") == -EINVAL, "unknown long option");
	CHECK(PARSE(&o, "--json=1") == -EINVAL, "a value for a flag refused");
	CHECK(PARSE(&o, "--p", "1") == -EINVAL, "an ambiguous prefix refused");
	CHECK(PARSE(&o, "-p") == -EINVAL, "missing value");
	CHECK(PARSE(&o, "-p", "0") == -EINVAL, "PID 0 refused");
	CHECK(PARSE(&o, "-p", "-1") == -EINVAL, "negative PID refused");
	CHECK(PARSE(&o, "-p", " 5") == -EINVAL, "leading space refused");
	CHECK(PARSE(&o, "-p", "0x10") == -EINVAL, "hex PID refused");
	CHECK(PARSE(&o, "-p", "4194305") == -EINVAL, "PID over PID_MAX_LIMIT refused");
	CHECK(PARSE(&o, "-p", "4194304") == 0 && o.v.pid == 4194304, "PID_MAX_LIMIT taken");
	CHECK(!strcmp(SAID(&o, "-p", "99999999"),
		      "gupstat: -p: out of range (1 to 4194304): '99999999'"),
	      "a PID too large: out of range, not 'not a number' (%s)", SAID(&o, "-p", "99999999"));
	CHECK(!strcmp(SAID(&o, "-p", "abc"), "gupstat: -p: not a number from 1 to 4194304: 'abc'"),
	      "a PID of letters: not a number");
	CHECK(PARSE(&o, "-d", "5s") == -EINVAL, "trailing junk refused");
	CHECK(PARSE(&o, "-d", "99999999999") == -EINVAL, "overflow refused");
	CHECK(PARSE(&o, "-i", "0") == -EINVAL, "interval 0 refused");
	CHECK(PARSE(&o, "-p", "1", "--", "true") == -EINVAL, "-p with a command refused");
	CHECK(PARSE(&o, "--dry-run", "--", "true") == -EINVAL, "--dry-run with a command refused");
	CHECK(PARSE(&o, "-h") == 1, "help asks the caller to stop");
	CHECK(PARSE(&o, "--usage") == 1, "usage too");
	CHECK(PARSE(&o, "-V") == 1 && PARSE(&o, "--version") == 1, "and the version");
	CHECK(PARSE(&o, "--version", "--frobnicate") == 1, "the version before a bad option");
	return check_done();
}
