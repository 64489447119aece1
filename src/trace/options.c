// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat trace. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "trace/options.h"

static const char usage[] =
"usage: gupstat trace -o FILE [OPTIONS] [-- COMMAND [ARG]...]\n"
"\n"
"Record every PTE-lock hold of the GUP walk, one follow_page_pte() call\n"
"each, to FILE: when and how long, CPU, task, user address, pages walked\n"
"and stored, whether gup_fill_pages() ran inside it, GUP flags and the\n"
"kernel stack. Read it with 'gupstat report FILE'. With COMMAND, run it\n"
"and trace it and its children alone.\n"
"\n"
"  -o, --output FILE    write the trace to FILE (created mode 0600)\n"
"  -p, --pid PID        trace this process only\n"
"  -d, --duration SEC   stop after SEC seconds (default: Ctrl-C, or COMMAND's end)\n"
"      --min-ns NS      keep holds of NS nanoseconds or more (filtered in the kernel)\n"
"  -b, --buffer SIZE    ring buffer, e.g. 256K or 64M, rounded up to a power\n"
"                       of two (default 16M: two 256 MB pins of 4 kB pages)\n"
"      --kernel-addrs   also write the stacks' raw kernel addresses\n"
"      --no-stacks      take no kernel stack (the costliest part of a record)\n"
"      --stack-min-ns NS  take stacks only of holds of NS nanoseconds or more\n"
"      --lock-exact     time holds from the PTE-lock acquire itself\n"
"      --no-fill        do not trace gup_fill_pages(): holds without its probe's\n"
"                       cost, but no fill flag or fill time\n"
"  -k, --kprobes        attach kprobes instead of fentry/fexit\n"
"  -v, --verbose        print libbpf debug messages\n"
"  -h, --help           print this help\n"
"\n"
"examples:\n"
"  sudo gupstat trace -o holds.gt -- ./my_workload\n"
"  sudo gupstat trace -o long.gt --min-ns 100000 -d 60\n"
"  gupstat report holds.gt\n";

enum { OPT_MIN_NS = 256, OPT_KERNEL_ADDRS, OPT_LOCK_EXACT, OPT_NO_FILL, OPT_NO_STACKS,
       OPT_STACK_MIN_NS };

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "pid", required_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 'd' },
	{ "min-ns", required_argument, NULL, OPT_MIN_NS },
	{ "buffer", required_argument, NULL, 'b' },
	{ "kernel-addrs", no_argument, NULL, OPT_KERNEL_ADDRS },
	{ "lock-exact", no_argument, NULL, OPT_LOCK_EXACT },
	{ "no-fill", no_argument, NULL, OPT_NO_FILL },
	{ "no-stacks", no_argument, NULL, OPT_NO_STACKS },
	{ "stack-min-ns", required_argument, NULL, OPT_STACK_MIN_NS },
	{ "kprobes", no_argument, NULL, 'k' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static int bad_value(const char *opt, const char *what, const char *arg)
{
	fprintf(stderr, "gupstat trace: %s: %s: '%s'\n", opt, what, arg);
	return -EINVAL;
}

/* Decimal digits only: strtoull would take "-1" and " 5". */
static int parse_u64(const char *opt, const char *s, __u64 max, __u64 *out)
{
	unsigned long long v;
	char *end;

	if (*s < '0' || *s > '9')
		return bad_value(opt, "not a number", s);
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return bad_value(opt, "not a number in range", s);
	*out = v;
	return 0;
}

static int parse_positive(const char *opt, const char *s, unsigned int *out)
{
	__u64 v;
	int err = parse_u64(opt, s, INT_MAX, &v);

	if (!err && !v)
		return bad_value(opt, "must be at least 1", s);
	*out = v;
	return err;
}

/* SIZE[K|M|G], in bytes, rounded up to a power of two. */
static int parse_buffer(const char *s, __u32 *out)
{
	__u64 v = 0, mult = 1, size = TRACE_BUFFER_MIN;
	char num[32];
	size_t n = strlen(s);

	if (n && strchr("kKmMgG", s[n - 1])) {
		mult = 1ULL << (s[n - 1] == 'k' || s[n - 1] == 'K' ? 10 :
				s[n - 1] == 'm' || s[n - 1] == 'M' ? 20 : 30);
		n--;
	}
	if (n == 0 || n >= sizeof(num) || strspn(s, "0123456789") != n)
		return bad_value("-b", "not a size like 256K or 16M", s);
	memcpy(num, s, n);
	num[n] = '\0';
	if (parse_u64("-b", num, TRACE_BUFFER_MAX, &v))
		return -EINVAL;
	if (v * mult < TRACE_BUFFER_MIN || v * mult > TRACE_BUFFER_MAX)
		return bad_value("-b", "not from 4K to 1G", s);
	while (size < v * mult)
		size <<= 1;
	*out = size;
	return 0;
}

static int parse_one(struct trace_opts *o, int c, const char *arg)
{
	unsigned int pid;
	int err;

	switch (c) {
	case 'o': o->output = arg; return 0;
	case 'p':
		err = parse_positive("-p", arg, &pid);
		o->pid = pid;
		return err;
	case 'd': return parse_positive("-d", arg, &o->duration);
	case OPT_MIN_NS: return parse_u64("--min-ns", arg, ~0ULL, &o->min_ns);
	case 'b': return parse_buffer(arg, &o->buffer);
	case OPT_KERNEL_ADDRS: o->kernel_addrs = true; return 0;
	case OPT_LOCK_EXACT: o->lock_exact = true; return 0;
	case OPT_NO_FILL: o->no_fill = true; return 0;
	case OPT_NO_STACKS: o->no_stacks = true; return 0;
	case OPT_STACK_MIN_NS: return parse_u64("--stack-min-ns", arg, ~0ULL, &o->stack_min_ns);
	case 'k': o->force_kprobe = true; return 0;
	case 'v': o->verbose = true; return 0;
	case 'h':
		fputs(usage, stdout);
		return 1;
	default:
		return -EINVAL;
	}
}

static int check_combinations(const struct trace_opts *o)
{
	if (!o->output) {
		fprintf(stderr, "gupstat trace: no output file (-o FILE)\n");
		return -EINVAL;
	}
	if (o->cmd && o->pid) {
		fprintf(stderr, "gupstat trace: -p and a COMMAND exclude each other\n");
		return -EINVAL;
	}
	return 0;
}

int trace_opts_parse(struct trace_opts *o, int argc, char **argv)
{
	int c, err;

	memset(o, 0, sizeof(*o));
	o->buffer = TRACE_BUFFER_DEFAULT;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:p:d:b:kvh", long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			fprintf(stderr, c == ':' ?
				"gupstat trace: option '%s' needs a value (try 'gupstat trace --help')\n" :
				"gupstat trace: unknown option '%s' (try 'gupstat trace --help')\n",
				argv[optind - 1]);
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
