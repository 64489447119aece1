// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat trace: every PTE-lock hold of the GUP walk to a file. The walk
 * probe of the live view emits one ring-buffer record per
 * follow_page_pte() call (trace_on); records stream to the file as they
 * come, the stacks they name follow at the end, then a trailer with the
 * counts, lost holds included.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "child.h"
#include "gupstat.skel.h"
#include "kernel_btf.h"
#include "privs.h"
#include "probes.h"
#include "setup.h"
#include "trace.h"
#include "trace_opts.h"
#include "trace_stream.h"
#include "version.h"

/* Stack ids: 4096 distinct GUP stacks is plenty; 1 MB of map. */
#define TRACE_STACK_ENTRIES	4096

enum { S_RELEASE, S_METHOD, S_FILL, S_STORED, S_WALK, S_STACKS, S_VERSION,
       S_FOLL, S_COMMAND, NR_STRINGS };

struct tracer {
	struct trace_opts o;
	struct gupstat_bpf *skel;
	struct btf *btf;
	struct probe probes[NR_PROBES];
	struct child child;
	struct trace_stream s;
	struct ring_buffer *rb;
	bool returns_count;
	bool created;		/* the output exists: remove it on failure */
	char strings[NR_STRINGS][GT_VALUE_MAX];
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	if (stop_requested)
		_exit(128 + sig);
	stop_requested = 1;
}

static __u64 now_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The walk, the exact acquire if asked, GUP (for "stored" on base), the
 * fill unless --no-fill: its probe runs inside the holds it measures, up
 * to 512 times per hold on 4 kB pages, and lengthens them.
 */
static int select_probes(struct tracer *t)
{
	struct probe *p = t->probes;
	int i;

	probes_init(p, t->skel, t->o.lock_exact);
	for (i = 0; i < NR_PROBES; i++)
		if (i != P_WALK && i != P_LOCK && i != P_GUP && i != P_FILL)
			p[i].wanted = false;
	if (t->o.no_fill)
		p[P_FILL].wanted = false;
	probes_select(p, t->btf, t->o.force_kprobe);
	if (p[P_WALK].method == ATTACH_NONE) {
		fprintf(stderr, "gupstat trace: cannot trace follow_page_pte: %s\n",
			p[P_WALK].skip_reason);
		return -ENOENT;
	}
	if (t->o.lock_exact && p[P_LOCK].method == ATTACH_NONE) {
		fprintf(stderr, "gupstat trace: --lock-exact: cannot trace __pte_offset_map_lock: %s\n",
			p[P_LOCK].skip_reason);
		return -ENOENT;
	}
	return 0;
}

static void set_rodata(struct tracer *t)
{
	struct setup_cfg c = {
		.filter_on = t->o.cmd || t->o.pid,
		.follow_forks = t->o.cmd,
		.walk_returns_count = t->returns_count,
		.lock_exact = t->o.lock_exact,
		.trace = true,
		.trace_min_ns = t->o.min_ns,
		.ringbuf_bytes = t->o.buffer,
		/* An eighth: room for 7/8 of the buffer more while it wakes. */
		.wakeup_bytes = t->o.buffer / 8,
		.stacks = !t->o.no_stacks,
		.stack_min_ns = t->o.stack_min_ns,
		.stack_entries = TRACE_STACK_ENTRIES,
	};

	setup_rodata(t->skel, t->btf, &c);
}

static int open_output(struct tracer *t)
{
	int err = trace_writer_open(&t->s.w, t->o.output);

	if (err) {
		fprintf(stderr, "gupstat trace: %s: %s\n", t->o.output, strerror(-err));
		return err;
	}
	t->created = true;
	return 0;
}

static int prepare(struct tracer *t)
{
	int err;

	libbpf_set_print(t->o.verbose ? setup_libbpf_print : NULL);
	if (check_privileges())
		return -EPERM;
	err = trace_stream_init(&t->s, TRACE_STACK_ENTRIES);
	if (err) {
		fprintf(stderr, "gupstat trace: out of memory\n");
		return err;
	}
	err = open_output(t);
	if (err)
		return err;
	t->btf = kernel_btf_load();
	if (!t->btf)
		return -ENOENT;
	err = setup_walk_shape(t->btf, &t->returns_count);
	if (err)
		return err;
	t->skel = gupstat_bpf__open();
	if (!t->skel) {
		fprintf(stderr, "gupstat trace: cannot open BPF object: %s\n", strerror(errno));
		return -errno;
	}
	return select_probes(t);
}

static int load_and_attach(struct tracer *t)
{
	int err;

	if (t->o.cmd) {
		err = child_spawn(&t->child, t->o.cmd);
		if (err) {
			fprintf(stderr, "gupstat trace: cannot start command: %s\n", strerror(-err));
			return err;
		}
	}
	set_rodata(t);
	err = gupstat_bpf__load(t->skel);
	if (err) {
		fprintf(stderr, "gupstat trace: cannot load BPF programs: %s (try -v)\n", strerror(-err));
		return err;
	}
	t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.trace_events),
				 trace_stream_event, &t->s, NULL);
	if (!t->rb) {
		fprintf(stderr, "gupstat trace: cannot map the ring buffer: %s\n", strerror(errno));
		return -errno;
	}
	err = setup_filter_seed(t->skel, t->o.cmd ? t->child.pid : t->o.pid);
	if (!err)
		err = probes_attach(t->probes);
	return err;
}

/* What was traced: the command line, one process, or every task. */
static void describe_target(const struct tracer *t, char *buf, size_t len)
{
	size_t used = 0;
	char **a;

	if (!t->o.cmd) {
		if (t->o.pid)
			snprintf(buf, len, "pid %d", (int)t->o.pid);
		else
			snprintf(buf, len, "all tasks");
		return;
	}
	buf[0] = '\0';
	for (a = t->o.cmd; *a && used < len; a++)
		used += snprintf(buf + used, len - used, "%s%s", a == t->o.cmd ? "" : " ", *a);
}

static void describe_fill(const struct tracer *t, char *buf, size_t len)
{
	const struct probe *fill = &t->probes[P_FILL];

	if (fill->method != ATTACH_NONE)
		snprintf(buf, len, "gup_fill_pages() %s: the time and calls of the fill inside each hold's span are measured (its probe's own cost included)",
			 probe_method_name(fill));
	else if (t->o.no_fill)
		snprintf(buf, len, "gup_fill_pages() not traced (--no-fill): holds are free of its probe's cost; no fill flag or time");
	else
		snprintf(buf, len, "gup_fill_pages() not traced (%s): on base 6.12 it does not exist, and __get_user_pages() stores each page after the walk has returned, outside the hold",
			 fill->skip_reason);
}

/* The header's strings: enough to read the file on another machine. */
static void describe(struct tracer *t, struct trace_kv *kv)
{
	static const char *const keys[NR_STRINGS] = {
		"kernel", "method", "fill", "stored", "walk", "stacks", "gupstat",
		"foll_flags", "command",
	};
	char (*s)[GT_VALUE_MAX] = t->strings;
	struct utsname u;
	int i;

	uname(&u);
	snprintf(s[S_RELEASE], GT_VALUE_MAX, "%s", u.release);
	snprintf(s[S_METHOD], GT_VALUE_MAX, "follow_page_pte() %s; %s",
		 probe_method_name(&t->probes[P_WALK]), t->o.lock_exact ?
		 "exact: from __pte_offset_map_lock() return to follow_page_pte() return" :
		 "upper bound: follow_page_pte() entry to return");
	describe_fill(t, s[S_FILL], GT_VALUE_MAX);
	snprintf(s[S_STORED], GT_VALUE_MAX, "%s", t->returns_count ?
		 "follow_page_pte() stores into the pages[] array it is passed" :
		 "__get_user_pages() stores the walk's page, if it has a pages[] array, after the walk");
	snprintf(s[S_WALK], GT_VALUE_MAX, "%s", t->returns_count ?
		 "page count: batched walk" : "struct page *: one page per call");
	if (t->o.no_stacks)
		snprintf(s[S_STACKS], GT_VALUE_MAX, "not taken (--no-stacks)");
	else if (t->o.stack_min_ns)
		snprintf(s[S_STACKS], GT_VALUE_MAX, "kernel stack at the end of each hold of %llu ns or more (--stack-min-ns), symbolised through /proc/kallsyms when the trace ended",
			 (unsigned long long)t->o.stack_min_ns);
	else
		snprintf(s[S_STACKS], GT_VALUE_MAX, "kernel stack at the end of each hold, symbolised through /proc/kallsyms when the trace ended");
	snprintf(s[S_VERSION], GT_VALUE_MAX, "%s", GUPSTAT_VERSION);
	kernel_btf_enum_values(t->btf, "FOLL_", s[S_FOLL], GT_VALUE_MAX);
	describe_target(t, s[S_COMMAND], GT_VALUE_MAX);
	for (i = 0; i < NR_STRINGS; i++)
		kv[i] = (struct trace_kv){ .key = (char *)keys[i], .value = s[i] };
}

/* Returns the start time the header records (CLOCK_MONOTONIC). */
static __u64 write_header(struct tracer *t)
{
	struct trace_kv kv[NR_STRINGS];
	struct trace_meta m = {
		.flags = (t->o.kernel_addrs ? GT_F_KERNEL_ADDRS : 0) |
			 (t->o.lock_exact ? GT_F_LOCK_EXACT : 0) |
			 (t->probes[P_FILL].method != ATTACH_NONE ? GT_F_FILL_PROBED : 0),
		.start_ns = now_ns(CLOCK_MONOTONIC),
		.start_realtime_ns = now_ns(CLOCK_REALTIME),
		.min_ns = t->o.min_ns,
		.strings = kv,
		.nr_strings = NR_STRINGS,
	};

	describe(t, kv);
	trace_writer_header(&t->s.w, &m);
	return m.start_ns;
}

/* One line at the end; lost holds are never silent. */
static void report_end(const struct tracer *t, const struct trace_counters *c)
{
	fprintf(stderr, "gupstat trace: %llu holds written to %s, %llu lost",
		(unsigned long long)t->s.w.nr_recs, t->o.output,
		(unsigned long long)c->lost);
	if (t->o.min_ns)
		fprintf(stderr, ", %llu under --min-ns", (unsigned long long)c->below_min);
	fprintf(stderr, "\n");
	if (c->lost)
		fprintf(stderr, "gupstat trace: WARNING: %llu holds lost: the %u-byte ring buffer was full (raise -b)\n",
			(unsigned long long)c->lost, t->o.buffer);
	if (t->s.bad)
		fprintf(stderr, "gupstat trace: %llu malformed ring-buffer records skipped\n",
			(unsigned long long)t->s.bad);
}

/* 1 while running, 0 at the end, or the command's exit code + 2 (>=2). */
static int tick(struct tracer *t, __u64 start)
{
	int status;

	if (stop_requested)
		return 0;
	if (t->o.duration && now_ns(CLOCK_MONOTONIC) - start >= t->o.duration * 1000000000ULL)
		return 0;
	if (t->o.cmd && child_reap(&t->child, &status, WNOHANG) == 1)
		return 2 + (WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 1;
}

static int poll_loop(struct tracer *t, __u64 start)
{
	int state, err;

	while ((state = tick(t, start)) == 1) {
		/*
		 * The programs wake us only when an eighth of the buffer is
		 * waiting: after a quiet 100 ms, take what is there anyway.
		 */
		err = ring_buffer__poll(t->rb, 100);
		if (err >= 0 || err == -EINTR)
			err = ring_buffer__consume(t->rb);
		if (err < 0 && err != -EINTR) {
			fprintf(stderr, "gupstat trace: reading the ring buffer: %s\n", strerror(-err));
			return -1;
		}
	}
	return state;
}

static void read_counters(struct tracer *t, struct trace_counters *sum)
{
	int ncpu = libbpf_num_possible_cpus(), cpu;
	struct trace_counters *c;
	__u32 zero = 0;

	memset(sum, 0, sizeof(*sum));
	c = calloc(ncpu > 0 ? ncpu : 1, sizeof(*c));
	if (!c || bpf_map_lookup_elem(bpf_map__fd(t->skel->maps.trace_stats), &zero, c)) {
		/* Say so rather than claim nothing was lost. */
		fprintf(stderr, "gupstat trace: cannot read the lost-event counter\n");
		sum->lost = ~0ULL;
	}
	for (cpu = 0; c && sum->lost != ~0ULL && cpu < ncpu; cpu++) {
		sum->emitted += c[cpu].emitted;
		sum->lost += c[cpu].lost;
		sum->below_min += c[cpu].below_min;
		sum->stack_errors += c[cpu].stack_errors;
	}
	free(c);
}

/* Detach, drain what is left, then stacks and the trailer. */
static int finish(struct tracer *t)
{
	struct trace_counters c;
	struct trace_end e;
	struct ksyms *ks;
	int err;

	/* Before detaching: the BPF trampolines leave kallsyms with it. */
	ks = ksyms_load("/proc/kallsyms");
	probes_detach(t->probes);
	ring_buffer__consume(t->rb);
	read_counters(t, &c);
	e = (struct trace_end){ .lost = c.lost, .below_min = c.below_min,
				.stack_errors = c.stack_errors,
				.end_ns = now_ns(CLOCK_MONOTONIC) };
	trace_stream_stacks(&t->s, bpf_map__fd(t->skel->maps.trace_stacks), ks,
			    t->o.kernel_addrs);
	ksyms_free(ks);
	err = trace_writer_finish(&t->s.w, &e);
	if (err) {
		fprintf(stderr, "gupstat trace: %s: %s\n", t->o.output, strerror(-err));
		return err;
	}
	report_end(t, &c);
	return 0;
}

static int run(struct tracer *t)
{
	__u64 start;
	int state;

	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	start = write_header(t);
	if (t->o.cmd)
		child_release(&t->child);
	else
		fprintf(stderr, "Tracing PTE-lock holds to %s... Hit Ctrl-C to end.\n", t->o.output);
	state = poll_loop(t, start);
	if (finish(t) || state < 0)
		return 1;
	return state >= 2 ? state - 2 : 0;
}

int cmd_trace(int argc, char **argv)
{
	struct tracer t = { .child = { .go_fd = -1 } };
	int err;

	err = trace_opts_parse(&t.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	err = prepare(&t);
	if (!err)
		err = load_and_attach(&t);
	if (err) {
		if (t.o.cmd && t.child.pid > 0)
			child_kill(&t.child);
		if (t.s.w.f)
			fclose(t.s.w.f);
		if (t.created)
			unlink(t.o.output);
		err = 1;
	} else {
		err = run(&t);
	}
	ring_buffer__free(t.rb);
	gupstat_bpf__destroy(t.skel);
	btf__free(t.btf);
	trace_stream_free(&t.s);
	return err;
}
