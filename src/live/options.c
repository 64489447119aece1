// SPDX-License-Identifier: GPL-2.0
/* Command-line options of the live view, in bcc libbpf-tools' shape. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "live/options.h"

static const char usage[] =
"usage: gupstat [OPTIONS] [-- COMMAND [ARG]...]\n"
"\n"
"Histograms of the get_user_pages() slow path, aggregated in the kernel:\n"
"pages per follow_page_pte() call (the batch size), PTE-lock hold time,\n"
"refs per try_grab_folio(), __get_user_pages() pages and latency, pages\n"
"and latency per unpin, gup_fill_pages() where the kernel has it, and a\n"
"perf counter per GUP and unpin call. With COMMAND, run it and count it\n"
"and its children alone.\n"
"\n"
"  -p, --pid PID        count this process only\n"
"  -c, --cgroup PATH    count this cgroup (v2) only\n"
"  -P, --per-process    add a table with a row per process\n"
"  -i, --interval SEC   print every SEC seconds (default: once, at the end)\n"
"  -d, --duration SEC   stop after SEC seconds\n"
"  -T, --timestamp      print a timestamp with each report\n"
"  -j, --json           print NDJSON: {\"type\":...,\"data\":...} per line\n"
"  -e, --event EVENT    perf event per call: cache-misses (default),\n"
"                       LLC-load-misses, cycles, instructions, cpu-clock,\n"
"                       rNNNN (raw), ...; 'none' to read no counter\n"
"  -k, --kprobes        attach kprobes instead of fentry/fexit\n"
"      --lock-exact     time PTE-lock holds from the acquire itself\n"
"      --dry-run        list what would attach, and how, then exit\n"
"  -v, --verbose        print libbpf debug messages\n"
"  -h, --help           print this help\n"
"\n"
"Every PTE-lock hold to a file instead: 'gupstat trace -o FILE', read with\n"
"'gupstat report FILE'. The unpin claim, per kernel: 'gupstat validate\n"
"unpin -o FILE', two kernels side by side: 'gupstat compare A B' (see their\n"
"--help).\n"
"\n"
"examples:\n"
"  sudo gupstat                      # all tasks, until Ctrl-C\n"
"  sudo gupstat -i 1 -T              # a report every second\n"
"  sudo gupstat -p 1234 -d 10        # one process for ten seconds\n"
"  sudo gupstat -j -- ./my_workload  # one command, as NDJSON\n";

enum { OPT_LOCK_EXACT = 256, OPT_DRY_RUN };

static const struct option long_opts[] = {
	{ "pid", required_argument, NULL, 'p' },
	{ "cgroup", required_argument, NULL, 'c' },
	{ "per-process", no_argument, NULL, 'P' },
	{ "interval", required_argument, NULL, 'i' },
	{ "duration", required_argument, NULL, 'd' },
	{ "timestamp", no_argument, NULL, 'T' },
	{ "json", no_argument, NULL, 'j' },
	{ "event", required_argument, NULL, 'e' },
	{ "kprobes", no_argument, NULL, 'k' },
	{ "lock-exact", no_argument, NULL, OPT_LOCK_EXACT },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

/* A whole positive decimal number no larger than @max, or -EINVAL. */
static long parse_positive(const char *opt, const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v <= 0 || v > max) {
		fprintf(stderr, "gupstat: %s: not a number from 1 to %ld: '%s'\n",
			opt, max, s);
		return -EINVAL;
	}
	return v;
}

static int parse_number(const char *opt, const char *arg, unsigned int *out)
{
	long v = parse_positive(opt, arg, INT_MAX);

	if (v < 0)
		return v;
	*out = v;
	return 0;
}

static int parse_one(struct live_opts *o, int c, const char *arg)
{
	unsigned int pid = 0;
	int err;

	switch (c) {
	case 'p':
		err = parse_number("-p", arg, &pid);
		o->pid = pid;
		return err;
	case 'c': o->cgroup = arg; return 0;
	case 'P': o->per_process = true; return 0;
	case 'i': return parse_number("-i", arg, &o->interval);
	case 'd': return parse_number("-d", arg, &o->duration);
	case 'T': o->timestamps = true; return 0;
	case 'j': o->json = true; return 0;
	case 'e':
		o->no_event = !strcmp(arg, "none");
		o->event = o->no_event ? NULL : arg;
		return 0;
	case 'k': o->force_kprobe = true; return 0;
	case OPT_LOCK_EXACT: o->lock_exact = true; return 0;
	case OPT_DRY_RUN: o->dry_run = true; return 0;
	case 'v': o->verbose = true; return 0;
	case 'h':
		fputs(usage, stdout);
		return 1;
	default:
		return -EINVAL;
	}
}

static void bad_option(int c, const char *arg)
{
	if (c == ':')
		fprintf(stderr, "gupstat: option '%s' needs a value (try 'gupstat --help')\n", arg);
	else
		fprintf(stderr, "gupstat: unknown option '%s' (try 'gupstat --help')\n", arg);
}

static int check_combinations(const struct live_opts *o)
{
	if (o->cmd && o->pid) {
		fprintf(stderr, "gupstat: -p and a COMMAND exclude each other\n");
		return -EINVAL;
	}
	return 0;
}

int live_opts_parse(struct live_opts *o, int argc, char **argv)
{
	int c, err;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:p:c:Pi:d:Tje:kvh", long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			bad_option(c, argv[optind - 1]);
			return -EINVAL;
		}
		err = parse_one(o, c, optarg);
		if (err)
			return err;
	}
	if (optind < argc)
		o->cmd = &argv[optind];
	return check_combinations(o);
}
