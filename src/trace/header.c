// SPDX-License-Identifier: GPL-2.0
/*
 * What a trace file's header says, so that it can be read on another
 * machine: the kernel, how holds were timed, whether and how the fill
 * and the stacks were taken, how this kernel numbers its FOLL_* flags,
 * and what was traced.
 */
#include <stdio.h>
#include <time.h>
#include <sys/utsname.h>
#include "kernel/buildid.h"
#include "kernel/foll.h"
#include "kernel/kernel_btf.h"
#include "trace/header.h"
#include "util/version.h"

enum { S_RELEASE, S_METHOD, S_FILL, S_STORED, S_WALK, S_STACKS, S_VERSION,
       S_FOLL, S_COMMAND, S_BUILD_ID, NR_STRINGS };

/* What was traced: the command line, one process, or every task. */
static size_t describe_tasks(const struct trace_opts *o, char *buf, size_t len)
{
	size_t used = 0;
	char **a;

	if (!o->cmd)
		return o->pid ? snprintf(buf, len, "pid %d", (int)o->pid) :
				snprintf(buf, len, "all tasks");
	buf[0] = '\0';
	for (a = o->cmd; *a && used < len; a++)
		used += snprintf(buf + used, len - used, "%s%s", a == o->cmd ? "" : " ", *a);
	return used;
}

/* ... and of those, with -c, only the ones in that cgroup (or below it). */
static void describe_target(const struct trace_opts *o, char *buf, size_t len)
{
	size_t used = describe_tasks(o, buf, len);

	if (o->cgroup && used < len)
		snprintf(buf + used, len - used, " (cgroup %s%s)", o->cgroup,
			 o->cgroup_exact ? " alone" : " and below");
}

static void describe_fill(const struct trace_setup *t, char *buf, size_t len)
{
	const struct probe *fill = &t->probes[P_FILL];
	const struct trace_opts *o = t->o;

	if (fill->method != ATTACH_NONE)
		snprintf(buf, len, "gup_fill_pages() %s: the time and calls of the fill inside each hold's span are measured (its probe's own cost included)",
			 probe_method_name(fill));
	else if (o->no_fill)
		snprintf(buf, len, "gup_fill_pages() not traced (--no-fill): holds are free of its probe's cost; no fill flag or time");
	else
		snprintf(buf, len, "gup_fill_pages() not traced (%s): on base 6.12 it does not exist, and __get_user_pages() stores each page after the walk has returned, outside the hold",
			 fill->skip_reason);
}

/* The header's strings: enough to read the file on another machine. */
static void describe(const struct trace_setup *t, char (*s)[GT_VALUE_MAX],
		     struct trace_kv *kv)
{
	static const char *const keys[NR_STRINGS] = {
		"kernel", "method", "fill", "stored", "walk", "stacks", "gupstat",
		"foll_flags", "command", "build_id",
	};
	const struct trace_opts *o = t->o;
	struct utsname u;
	int i;

	uname(&u);
	snprintf(s[S_RELEASE], GT_VALUE_MAX, "%s", u.release);
	if (o->lock_exact)
		snprintf(s[S_METHOD], GT_VALUE_MAX,
			 "follow_page_pte() %s; exact: from %s() return to follow_page_pte() return",
			 probe_method_name(&t->probes[P_WALK]), t->probes[P_LOCK].func);
	else
		snprintf(s[S_METHOD], GT_VALUE_MAX,
			 "follow_page_pte() %s; upper bound: follow_page_pte() entry to return",
			 probe_method_name(&t->probes[P_WALK]));
	describe_fill(t, s[S_FILL], GT_VALUE_MAX);
	snprintf(s[S_STORED], GT_VALUE_MAX, "%s", t->returns_count ?
		 "follow_page_pte() stores into the pages[] array it is passed" :
		 "__get_user_pages() stores the walk's page, if it has a pages[] array, after the walk");
	snprintf(s[S_WALK], GT_VALUE_MAX, "%s", t->returns_count ?
		 "page count: batched walk" : "struct page *: one page per call");
	if (o->no_stacks)
		snprintf(s[S_STACKS], GT_VALUE_MAX, "not taken (--no-stacks)");
	else if (o->stack_min_ns)
		snprintf(s[S_STACKS], GT_VALUE_MAX, "kernel stack at the end of each hold of %llu ns or more (--stack-min-ns), symbolised through /proc/kallsyms when the trace ended",
			 (unsigned long long)o->stack_min_ns);
	else
		snprintf(s[S_STACKS], GT_VALUE_MAX, "kernel stack at the end of each hold, symbolised through /proc/kallsyms when the trace ended");
	snprintf(s[S_VERSION], GT_VALUE_MAX, "%s", GUPSTAT_VERSION);
	foll_describe(t->btf, s[S_FOLL], GT_VALUE_MAX);
	describe_target(o, s[S_COMMAND], GT_VALUE_MAX);
	/* What report --vmlinux checks a vmlinux against. */
	if (buildid_read("/sys/kernel/notes", s[S_BUILD_ID], GT_VALUE_MAX))
		snprintf(s[S_BUILD_ID], GT_VALUE_MAX, "unknown");
	for (i = 0; i < NR_STRINGS; i++)
		kv[i] = (struct trace_kv){ .key = (char *)keys[i], .value = s[i] };
}

__u64 trace_now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void trace_header_write(struct trace_writer *w, const struct trace_setup *t)
{
	/* 40 kB: static rather than on the stack; one trace per process. */
	static char strings[NR_STRINGS][GT_VALUE_MAX];
	const struct trace_opts *o = t->o;
	struct trace_kv kv[NR_STRINGS];
	struct trace_meta m = {
		.flags = (o->kernel_addrs ? GT_F_KERNEL_ADDRS : 0) |
			 (o->lock_exact ? GT_F_LOCK_EXACT : 0) |
			 (o->waits ? GT_F_WAITS : 0) |
			 (t->probes[P_FILL].method != ATTACH_NONE ? GT_F_FILL_PROBED : 0),
		.start_ns = trace_now_ns(CLOCK_MONOTONIC),
		.start_realtime_ns = trace_now_ns(CLOCK_REALTIME),
		.min_ns = o->min_ns,
		.strings = kv,
		.nr_strings = NR_STRINGS,
	};

	describe(t, strings, kv);
	trace_writer_header(w, &m);
}
