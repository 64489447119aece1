// SPDX-License-Identifier: GPL-2.0
/* gupstat trace's options: values, defaults, and what is refused. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "trace/options.h"

#define ARGV(...) ((char *[]){ "trace", __VA_ARGS__, NULL })
#define ARGC(...) ((int)(sizeof((char *[]){ "trace", __VA_ARGS__ }) / sizeof(char *)))
#define PARSE(o, ...) trace_opts_parse(o, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__))

int main(void)
{
	struct trace_opts o;

	if (!freopen("/dev/null", "w", stderr))
		return 1;
	CHECK(PARSE(&o, "-o", "t.gt") == 0 && !strcmp(o.output, "t.gt") &&
	      o.buffer == TRACE_BUFFER_DEFAULT && !o.min_ns && !o.kernel_addrs && !o.cmd,
	      "defaults: 16M buffer, no threshold, no addresses");
	CHECK(PARSE(&o, "-o", "t", "--min-ns", "250000", "--kernel-addrs", "--lock-exact",
		    "--no-fill", "-k", "-v", "-d", "3", "-p", "9") == 0 &&
	      o.min_ns == 250000 && o.kernel_addrs && o.lock_exact && o.no_fill &&
	      o.force_kprobe && o.verbose && o.duration == 3 && o.pid == 9, "every option");
	CHECK(PARSE(&o, "-o", "t", "-c", "/sys/fs/cgroup/a") == 0 && !strcmp(o.cgroup, "/sys/fs/cgroup/a") &&
	      PARSE(&o, "-o", "t", "--cgroup=/b") == 0 && !strcmp(o.cgroup, "/b"),
	      "-c PATH, --cgroup=PATH");
	CHECK(PARSE(&o, "-o", "t") == 0 && !o.cgroup, "no -c: every cgroup");
	CHECK(PARSE(&o, "-o", "t", "-c", "/x") == 0 && !o.cgroup_exact &&
	      PARSE(&o, "-o", "t", "-c", "/x", "--cgroup-exact") == 0 && o.cgroup_exact,
	      "-c: with descendants unless --cgroup-exact");
	CHECK(PARSE(&o, "-o", "t", "--cgroup-exact") == -EINVAL, "--cgroup-exact without -c refused");
	CHECK(PARSE(&o, "-o", "t") == 0 && !o.quiet, "no -q: the status line where it can be");
	CHECK(PARSE(&o, "-o", "t", "-q") == 0 && o.quiet &&
	      PARSE(&o, "--quiet", "-o", "t") == 0 && o.quiet, "-q, --quiet");
	CHECK(PARSE(&o, "-o", "t", "--quiet=yes") == -EINVAL, "--quiet takes no value");
	CHECK(PARSE(&o, "-o", "t", "--no-stacks") == 0 && o.no_stacks && !o.stack_min_ns,
	      "--no-stacks");
	CHECK(PARSE(&o, "-o", "t", "--stack-min-ns", "5000") == 0 && !o.no_stacks &&
	      o.stack_min_ns == 5000, "--stack-min-ns");
	CHECK(PARSE(&o, "-o", "t", "--no-stacks", "--stack-min-ns", "100") == -EINVAL,
	      "--no-stacks with --stack-min-ns refused");
	CHECK(PARSE(&o, "-o", "t", "--kernel-addrs", "--no-stacks") == -EINVAL,
	      "--no-stacks with --kernel-addrs refused");
	CHECK(PARSE(&o, "-o", "t", "-b", "5K") == 0 && o.buffer == 8192, "5K rounds up to 8K");
	CHECK(PARSE(&o, "-o", "t", "--buffer", "64M") == 0 && o.buffer == 64U << 20, "64M");
	CHECK(PARSE(&o, "-o", "t", "-b", "1g") == 0 && o.buffer == 1U << 30, "1g, lower case");
	CHECK(PARSE(&o, "-o", "t", "-b", "4096") == 0 && o.buffer == 4096, "plain bytes");
	CHECK(PARSE(&o, "-o", "t", "-b", "2K") == -EINVAL, "below a page refused");
	CHECK(PARSE(&o, "-o", "t", "-b", "2G") == -EINVAL, "over 1G refused");
	CHECK(PARSE(&o, "-o", "t", "-b", "1.5M") == -EINVAL, "not a whole number");
	CHECK(PARSE(&o, "-o", "t", "-b", "M") == -EINVAL, "a unit without a number");
	CHECK(PARSE(&o, "-o", "t", "-b", "99999999999999999999G") == -EINVAL, "size overflow");
	CHECK(PARSE(&o, "-o", "t", "--min-ns", "-1") == -EINVAL, "negative threshold refused");
	CHECK(PARSE(&o, "-o", "t", "--min-ns", "99999999999999999999999") == -EINVAL,
	      "threshold overflow refused");
	CHECK(PARSE(&o, "-o", "t", "--min-ns", "18446744073709551615") == 0 &&
	      o.min_ns == ~0ULL, "the largest threshold");
	CHECK(PARSE(&o, "-d", "1") == -EINVAL, "no -o refused");
	CHECK(PARSE(&o, "-o", "t", "-p", "1", "--", "true") == -EINVAL, "-p with a command refused");
	CHECK(PARSE(&o, "-o", "t", "-p", "abc") == -EINVAL, "-p not a number");
	CHECK(PARSE(&o, "-o", "t", "--", "gup_test", "-L") == 0 && o.cmd &&
	      !strcmp(o.cmd[1], "-L"), "a command keeps its own options");
	CHECK(PARSE(&o, "-o", "t", "-d", "2", "--", "gup_test", "-o", "x") == 0 && o.cmd &&
	      !strcmp(o.output, "t") && !strcmp(o.cmd[1], "-o"), "options end at --");
	CHECK(PARSE(&o, "-o", "t", "-d", "2", "gup_test") == -EINVAL && !o.cmd,
	      "a command without -- refused");
	CHECK(PARSE(&o, "-o") == -EINVAL, "-o without a value");
	CHECK(PARSE(&o, "-o", "t", "--frobnicate") == -EINVAL, "unknown option");
	CHECK(PARSE(&o, "-h") == 1, "help");
	CHECK(PARSE(&o, "-V") == 1, "version, without -o");
	return check_done();
}
