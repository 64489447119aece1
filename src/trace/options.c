// SPDX-License-Identifier: GPL-2.0
/* Command-line options of gupstat trace. */
#include <string.h>
#include "trace/options.h"
#include "util/options.h"

static const char doc[] =
"Record every PTE-lock hold of the GUP walk, one follow_page_pte() call "
"each, to FILE: when and how long, CPU, task, user address, pages walked "
"and stored, whether gup_fill_pages() ran inside it, GUP flags, the "
"task's cgroup and the kernel stack. Read it with 'gupstat report FILE'. "
"With '-- COMMAND' (never a bare word), run it and trace it and its "
"children alone. FILE must not exist: it is written in place as the "
"holds come, so that a trace that is killed keeps what it had written."
"\v"
"examples:\n"
"  sudo gupstat trace -o holds.gt -- ./my_workload\n"
"  sudo gupstat trace -o long.gt --min-ns 100000 -d 60\n"
"  sudo gupstat trace -o db.gt -c /sys/fs/cgroup/system.slice/db.service\n"
"  gupstat report holds.gt";

enum { OPT_MIN_NS = 256, OPT_KERNEL_ADDRS, OPT_NO_FILL, OPT_NO_STACKS, OPT_STACK_MIN_NS,
       OPT_SPOOL, OPT_FOLDED, OPT_CGROUP_EXACT, OPT_FOLDED_BY, OPT_VMLINUX };

static const struct argp_option options[] = {
	{ "output", 'o', "FILE", 0, "write the trace to FILE (created mode 0600)", 0 },
	{ "cgroup", 'c', "PATH", 0, "trace only this cgroup (v2) and its descendants", 0 },
	{ "cgroup-exact", OPT_CGROUP_EXACT, NULL, 0,
	  "with -c, trace that cgroup's own tasks only, not its descendants'", 0 },
	{ "min-ns", OPT_MIN_NS, "NS", 0,
	  "keep holds of NS nanoseconds or more (filtered in the kernel)", 0 },
	{ "buffer", 'b', "SIZE", 0, "ring buffer, e.g. 256K or 64M, rounded up to a power "
	  "of two (default 16M: two 256 MB pins of 4 kB pages)", 0 },
	{ "spool", OPT_SPOOL, "SIZE", 0, "memory for holds the disk has not taken yet, "
	  "e.g. 16M or 1G (default 64M: 699050 holds)", 0 },
	{ "kernel-addrs", OPT_KERNEL_ADDRS, NULL, 0, "also write the stacks' raw kernel addresses", 0 },
	{ "no-stacks", OPT_NO_STACKS, NULL, 0,
	  "take no kernel stack (the costliest part of a record)", 0 },
	{ "stack-min-ns", OPT_STACK_MIN_NS, "NS", 0,
	  "take stacks only of holds of NS nanoseconds or more", 0 },
	{ "folded", OPT_FOLDED, "OUT", 0, "at the end, also write the hold time per kernel "
	  "stack for flame graphs, as 'gupstat report --folded OUT FILE' does ('-': stdout)", 0 },
	{ "folded-by", OPT_FOLDED_BY, "WHAT", 0, "what a --folded frame is: function (the "
	  "default) or address (symbol+0xoffset)", 0 },
	{ "vmlinux", OPT_VMLINUX, "FILE", 0, "this kernel's vmlinux with DWARF, for --folded's "
	  "inlined functions (default: the usual places for it; its build ID must be this "
	  "kernel's)", 0 },
	{ "quiet", 'q', NULL, 0, "no banner, status line or summary: errors and lost-hold "
	  "warnings at the end only", 0 },
	{ "no-fill", OPT_NO_FILL, NULL, 0, "do not trace gup_fill_pages(): holds without its "
	  "probe's cost, but no fill flag or fill time", 0 },
	{}
};

static error_t parse_buffer(const struct argp_state *state, const char *arg, __u32 *out)
{
	__u64 v, size = TRACE_BUFFER_MIN;
	error_t err = opts_size(state, 'b', arg, TRACE_BUFFER_MIN, TRACE_BUFFER_MAX, &v);

	if (err)
		return err;
	while (size < v)
		size <<= 1;
	*out = size;
	return 0;
}

/* Options that ask for opposite things, or for stacks not taken. */
static error_t check_combinations(const struct argp_state *state, const struct trace_opts *o)
{
	if (!o->output)
		return opts_usage(state, "no output file (-o FILE)");
	if (o->cgroup_exact && !o->cgroup)
		return opts_usage(state, "--cgroup-exact needs -c PATH");
	if (o->no_stacks && o->stack_min_ns)
		return opts_conflict(state, OPT_NO_STACKS, OPT_STACK_MIN_NS);
	if (o->no_stacks && o->kernel_addrs)
		return opts_conflict(state, OPT_NO_STACKS, OPT_KERNEL_ADDRS);
	if (o->no_stacks && o->folded)
		return opts_conflict(state, OPT_NO_STACKS, OPT_FOLDED);
	if (o->folded && !strcmp(o->folded, o->output))
		return opts_bad_value(state, OPT_FOLDED, "the file -o writes", o->folded);
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct trace_opts *o = state->input;

	switch (key) {
	case 'o': o->output = arg; return 0;
	case 'c': o->cgroup = arg; return 0;
	case OPT_CGROUP_EXACT: o->cgroup_exact = true; return 0;
	case OPT_MIN_NS: return opts_u64(state, key, arg, 0, ~0ULL, &o->min_ns);
	case 'b': return parse_buffer(state, arg, &o->buffer);
	case OPT_SPOOL:
		return opts_size(state, key, arg, TRACE_SPOOL_MIN, TRACE_SPOOL_MAX, &o->spool);
	case 'q': o->quiet = true; return 0;
	case OPT_KERNEL_ADDRS: o->kernel_addrs = true; return 0;
	case OPT_NO_FILL: o->no_fill = true; return 0;
	case OPT_NO_STACKS: o->no_stacks = true; return 0;
	case OPT_STACK_MIN_NS: return opts_u64(state, key, arg, 0, ~0ULL, &o->stack_min_ns);
	case OPT_FOLDED: o->folded = arg; return 0;
	case OPT_FOLDED_BY:
		if (strcmp(arg, "function") && strcmp(arg, "address"))
			return opts_bad_value(state, key, "not function or address", arg);
		o->folded_by_address = !strcmp(arg, "address");
		return 0;
	case OPT_VMLINUX: o->vmlinux = arg; return 0;
	case ARGP_KEY_END: return check_combinations(state, o);
	}
	return ARGP_ERR_UNKNOWN;
}

static const struct opts_cmd cmd = {
	.name = "gupstat trace",
	.argp = { .options = options, .parser = parse_opt, .doc = doc,
		  .args_doc = "-o FILE [-- COMMAND [ARG]...]" },
	.shared = OPTS_TARGET | OPTS_PROBES,
};

int trace_opts_parse(struct trace_opts *o, int argc, char **argv)
{
	*o = (struct trace_opts){ .buffer = TRACE_BUFFER_DEFAULT, .spool = TRACE_SPOOL_DEFAULT };
	return opts_parse(&cmd, argc, argv, o, &OPTS_SHARED_ALL(o));
}
