// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat trace: every PTE-lock hold of the GUP walk to a file. The walk
 * probe of the live view emits one ring-buffer record per
 * follow_page_pte() call (trace_on); this thread drains the ring buffer
 * into a bounded queue, a writer thread writes the queue to the file
 * (trace/spool.c), the stacks the records name follow at the end, then
 * a trailer with the counts, lost holds included. The file is in place,
 * header first, from the moment the probes are attached. Once a second
 * the same loop says where the run stands (trace/progress.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "gupstat.skel.h"
#include "kernel/buildid.h"
#include "kernel/dwarf.h"
#include "kernel/ksyms.h"
#include "probe/probes.h"
#include "probe/session.h"
#include "probe/setup.h"
#include "trace/header.h"
#include "trace/options.h"
#include "trace/progress.h"
#include "trace/stream.h"
#include "trace/trace.h"
#include "tracefile/folded.h"
#include "util/msg.h"
#include "util/output.h"

/* Stack ids: 4096 distinct GUP stacks is plenty; 1 MB of map. */
#define TRACE_STACK_ENTRIES	4096
/* How often the progress line is rewritten and the lost counter read. */
#define PROGRESS_NS		1000000000ULL

struct tracer {
	struct trace_opts o;
	struct session ss;
	struct trace_stream s;
	struct ring_buffer *rb;
	struct trace_spool spool;
	struct output out;	/* -o, moved into place once the header is written */
	struct output folded;	/* --folded, written from the finished trace */
	struct trace_progress_out progress;
	__u64 next_progress_ns;	/* CLOCK_MONOTONIC */
};

/* The holds are the walk's: without its probe there is nothing to trace. */
static int walk_traced(const struct tracer *t)
{
	if (t->ss.probes[P_WALK].method != ATTACH_NONE)
		return 0;
	p_err("cannot trace follow_page_pte: %s\n",
	      t->ss.probes[P_WALK].skip_reason);
	return -ENOENT;
}

/*
 * The probes the table marks traced (src/probe/probes.h): the walk, the
 * exact acquire if asked, GUP (for "stored" on base), and the fill unless
 * --no-fill: its probe runs inside the holds it measures, up to 512
 * times per hold on 4 kB pages, and lengthens them.
 */
static int select_probes(struct tracer *t)
{
	struct probe *p = t->ss.probes;
	int i;

	for (i = 0; i < NR_PROBES; i++)
		p[i].wanted &= p[i].traced;
	if (t->o.no_fill)
		p[P_FILL].wanted = false;
	if (probes_select(p, t->ss.btf, t->o.force_kprobe ? SELECT_KPROBE : SELECT_DEFAULT))
		return -ENOENT;
	return walk_traced(t);
}

static void set_rodata(struct tracer *t)
{
	struct setup_cfg c = {
		.filter_on = t->o.cmd || t->o.pid,
		.cgroup_id = t->ss.cgroup_id,
		.cgroup_exact = t->o.cgroup_exact,
		.follow_forks = t->o.cmd,
		.walk_returns_count = t->ss.returns_count,
		.lock_exact = t->o.lock_exact,
		.waits = t->o.waits,
		.trace = true,
		.trace_min_ns = t->o.min_ns,
		.ringbuf_bytes = t->o.buffer,
		/* An eighth: room for 7/8 of the buffer more while it wakes. */
		.wakeup_bytes = t->o.buffer / 8,
		.stacks = !t->o.no_stacks,
		.stack_min_ns = t->o.stack_min_ns,
		.stack_entries = TRACE_STACK_ENTRIES,
	};

	setup_rodata(t->ss.skel, t->ss.btf, &c);
}

/*
 * Opened first, so that a path that cannot be written fails before the
 * kernel is touched; what is written stays in a temporary file until the
 * trace is complete.
 */
static int open_output(struct tracer *t)
{
	int err = output_open_new(&t->out, t->o.output);

	/* -o is new: no other name of it exists to be refused here. */
	if (!err && t->o.folded && strcmp(t->o.folded, "-")) {
		err = output_open(&t->folded, t->o.folded, NULL);
		if (err)
			output_discard(&t->out);
	}
	output_catch_signals();
	if (!err)
		trace_writer_init(&t->s.w, t->out.f);
	return err;
}

static int prepare(struct tracer *t)
{
	int err;

	/* Bad input first, as the live view: its error is the only line. */
	session_init(&t->ss, t->o.cmd, t->o.pid, t->o.duration);
	if (t->o.cgroup && session_cgroup(&t->ss, t->o.cgroup))
		return -EINVAL;
	err = trace_stream_init(&t->s, TRACE_STACK_ENTRIES);
	if (err) {
		p_err("out of memory\n");
		return err;
	}
	t->s.addrs = t->o.kernel_addrs;
	return open_output(t) ?: session_open(&t->ss, t->o.verbose, t->o.lock_exact, t->o.waits) ?:
		select_probes(t);
}

static int load_and_attach(struct tracer *t)
{
	int err;

	set_rodata(t);
	err = session_load(&t->ss);
	if (err)
		return err;
	t->rb = ring_buffer__new(bpf_map__fd(t->ss.skel->maps.trace_events),
				 trace_stream_event, &t->s, NULL);
	if (!t->rb) {
		err = -errno;
		p_err("cannot map the ring buffer: %s\n", strerror(-err));
		return err;
	}
	return session_attach(&t->ss) ?: walk_traced(t);
}

/* The per-CPU counters, summed: 0, or -1 when they cannot be read. */
static int sum_counters(struct tracer *t, struct trace_counters *sum)
{
	int ncpu = libbpf_num_possible_cpus(), cpu, err = 0;
	struct trace_counters *c;
	__u32 zero = 0;

	memset(sum, 0, sizeof(*sum));
	c = calloc(ncpu > 0 ? ncpu : 1, sizeof(*c));
	if (!c || bpf_map_lookup_elem(bpf_map__fd(t->ss.skel->maps.trace_stats), &zero, c))
		err = -1;
	for (cpu = 0; !err && cpu < ncpu; cpu++) {
		sum->emitted += c[cpu].emitted;
		sum->lost += c[cpu].lost;
		sum->below_min += c[cpu].below_min;
		sum->stack_errors += c[cpu].stack_errors;
		sum->unentered += c[cpu].unentered;
	}
	free(c);
	return err;
}

static void read_counters(struct tracer *t, struct trace_counters *sum)
{
	if (!sum_counters(t, sum))
		return;
	/* Say so rather than claim nothing was lost. */
	p_err("cannot read the lost-event counter\n");
	sum->lost = ~0ULL;
}

/*
 * Holds the kernel never let the walk's probe record. A skipped exit
 * program is counted by the kernel (probe_exit_missed()); a skipped
 * entry program by the exit, which finds no entry of the walk's
 * (walk.bpf.c, unentered). Counting both programs' skips would count
 * twice a hold whose entry and exit were both skipped. On 7.x, where a
 * task can be preempted inside a program, skips happen with two walkers
 * on two CPUs (measured: 1024 holds, one process_vm_readv(), in 4 of 8
 * runs of test_trace.sh's two-cgroup case on Debian's 7.3).
 */
static __u64 exit_skips(const struct tracer *t)
{
	return probe_exit_missed(&t->ss.probes[P_WALK]);
}

/* -p, -c or a command: the programs also run, and are skipped, for others. */
static bool filtered(const struct tracer *t)
{
	return t->o.cmd || t->o.pid || t->o.cgroup;
}

/* The holds surely lost: unentered ones are the traced tasks' only. */
static __u64 holds_skipped(const struct tracer *t, const struct trace_counters *c)
{
	return c->unentered + (filtered(t) ? 0 : exit_skips(t));
}

/* The trailer's lost count: ~0 stays "the counter could not be read". */
static __u64 lost_total(const struct trace_counters *c, __u64 skipped)
{
	return c->lost == ~0ULL ? c->lost : c->lost + skipped;
}

/*
 * Lost holds and waits, whatever lost them, are never silent, even with
 * -q. A full ring buffer loses either: the kernel counts them together.
 */
static void report_lost(const struct tracer *t, const struct trace_counters *c,
			__u64 skipped)
{
	__u64 lock_skipped = probe_missed(&t->ss.probes[P_LOCK]);
	__u64 wait_skipped = t->o.waits ? probe_missed(&t->ss.probes[P_WAIT]) : 0;
	const char *what = t->o.waits ? "holds or waits" : "holds";

	if (c->lost && t->spool.waits)
		p_err("WARNING: %llu %s lost: the disk fell behind by the whole %llu-byte "
		      "spool and the ring buffer filled (raise --spool, or write to a faster disk)\n",
		      (unsigned long long)c->lost, what, (unsigned long long)t->o.spool);
	else if (c->lost)
		p_err("WARNING: %llu %s lost: the %u-byte ring buffer was full (raise -b)\n",
		      (unsigned long long)c->lost, what, t->o.buffer);
	if (filtered(t) && exit_skips(t))
		p_err("WARNING: up to %llu holds lost: the kernel skipped the follow_page_pte() "
		      "probe that many times, for traced tasks and others alike\n",
		      (unsigned long long)(skipped + exit_skips(t)));
	else if (skipped)
		p_err("WARNING: %llu holds lost: the kernel skipped the follow_page_pte() probe "
		      "while the same program ran on that CPU (a task preempted inside it), "
		      "or the walk was in flight at the attach\n",
		      (unsigned long long)skipped);
	/* It runs outside walks too: how many of its skips were in one is not known. */
	if (lock_skipped)
		p_err("WARNING: up to %llu more holds lost: the kernel skipped the %s() probe "
		      "that many times, inside walks or not\n", (unsigned long long)lock_skipped,
		      t->ss.probes[P_LOCK].func);
	/* It runs on every contended spin lock: how many were on a walk's is not known. */
	if (wait_skipped)
		p_err("WARNING: up to %llu waits lost: the kernel skipped the %s() probe "
		      "that many times, on walks' PTE locks or not\n",
		      (unsigned long long)wait_skipped, t->ss.probes[P_WAIT].func);
	if (t->s.bad)
		p_err("%llu malformed ring-buffer records skipped\n",
		      (unsigned long long)t->s.bad);
}

/* One line at the end, but with -q. */
static void report_end(const struct tracer *t, const struct trace_counters *c,
		       __u64 skipped)
{
	if (!t->o.quiet) {
		if (t->o.waits)
			p_err("%llu holds and %llu waits written to %s, %llu lost",
			      (unsigned long long)(t->s.w.nr_recs - t->s.w.nr_waits),
			      (unsigned long long)t->s.w.nr_waits, t->o.output,
			      (unsigned long long)lost_total(c, skipped));
		else
			p_err("%llu holds written to %s, %llu lost",
			      (unsigned long long)t->s.w.nr_recs, t->o.output,
			      (unsigned long long)lost_total(c, skipped));
		if (t->o.min_ns)
			fprintf(stderr, ", %llu under --min-ns",
				(unsigned long long)c->below_min);
		fprintf(stderr, "\n");
	}
	report_lost(t, c, skipped);
}

/* The session's state, or -1 once the file cannot take more (a full disk). */
static int tick(struct tracer *t)
{
	return trace_spool_error(&t->spool) ? -1 : session_state(&t->ss);
}

/* Once a second, from the loop: no thread of its own, nothing per record. */
static void progress_tick(struct tracer *t)
{
	__u64 now = trace_now_ns(CLOCK_MONOTONIC);
	struct trace_spool_state st;
	struct trace_counters c;
	struct trace_progress p;
	bool known;

	if (t->o.quiet || now < t->next_progress_ns)
		return;
	t->next_progress_ns += PROGRESS_NS;
	if (t->next_progress_ns <= now)
		t->next_progress_ns = now + PROGRESS_NS;
	trace_spool_state(&t->spool, &st);
	known = !sum_counters(t, &c);
	p = (struct trace_progress){
		.elapsed_ns = now - t->ss.start_ns,
		.holds = st.written, .bytes = st.bytes,
		.lost_known = known, .lost = c.lost + holds_skipped(t, &c),
		.disk_behind = st.waits > 0,
		.queued = st.queued, .queue_cap = st.cap,
	};
	trace_progress_show(&t->progress, &p);
}

static int poll_loop(struct tracer *t)
{
	int state, err;

	t->next_progress_ns = t->ss.start_ns + PROGRESS_NS;
	while ((state = tick(t)) == SESSION_RUNNING) {
		progress_tick(t);
		/*
		 * The programs wake us only when an eighth of the buffer is
		 * waiting: after a quiet 100 ms, take what is there anyway.
		 */
		err = ring_buffer__poll(t->rb, 100);
		if (err >= 0 || err == -EINTR)
			err = ring_buffer__consume(t->rb);
		if (err < 0 && err != -EINTR) {
			p_err("reading the ring buffer: %s\n", strerror(-err));
			return -1;
		}
	}
	return state;
}

/*
 * --folded from the finished file, its frames through this kernel's
 * DWARF when its vmlinux is at hand (kernel/dwarf.c), as report's are.
 */
static int fold(struct tracer *t)
{
	struct folded_how how = { .by_address = t->o.folded_by_address };
	char why[1024], id[160] = "";
	struct utsname u;
	int err;

	uname(&u);
	buildid_read("/sys/kernel/notes", id, sizeof(id));
	how.lines_ctx = kdwarf_find(t->o.vmlinux, u.release, id, why, sizeof(why));
	if (how.lines_ctx)
		how.lines = kdwarf_resolve;
	else if (why[0])
		p_err("--folded: frames not resolved to source lines: %s\n", why);
	err = folded_file(t->o.output, strcmp(t->o.folded, "-") ? &t->folded : NULL, &how);
	kdwarf_close(how.lines_ctx);
	return err;
}

/* Detach, drain what is left, then stacks and the trailer. */
static int finish(struct tracer *t, bool failed)
{
	struct trace_counters c;
	struct trace_end e;
	struct ksyms *ks;
	__u64 skipped;
	int err;

	/* Before detaching: the BPF trampolines leave kallsyms with it. */
	ks = ksyms_load("/proc/kallsyms");
	probes_detach(t->ss.probes);
	ring_buffer__consume(t->rb);
	/* The queue's last holds reach the file; the writer is this thread's again. */
	trace_spool_stop(&t->spool);
	read_counters(t, &c);
	skipped = holds_skipped(t, &c);
	e = (struct trace_end){ .lost = lost_total(&c, skipped),
				.below_min = c.below_min,
				.stack_errors = c.stack_errors,
				.end_ns = trace_now_ns(CLOCK_MONOTONIC) };
	trace_stream_stacks(&t->s, bpf_map__fd(t->ss.skel->maps.trace_stacks), ks,
			    t->o.kernel_addrs);
	ksyms_free(ks);
	trace_stream_cgroups(&t->s);
	err = trace_writer_finish(&t->s.w, &e);
	if (err) {
		/* What reached the file is readable: report recovers it. */
		output_fail(&t->out, err);
		output_discard(&t->folded);
		p_err("what was written before the error stays in %s, without a trailer: "
		      "'gupstat report' reads it\n", t->o.output);
		return err;
	}
	/* A run that failed still ends its file properly: nothing is lost. */
	err = output_commit(&t->out);
	if (err) {
		output_discard(&t->folded);
		return err;
	}
	report_end(t, &c, skipped);
	if (t->o.folded && fold(t))
		return -EIO;
	return failed ? -EIO : 0;
}

/*
 * The header, flushed, and the file moved into place: from here on it
 * is readable, and it grows by whole records as the writer thread goes.
 */
static int publish(struct tracer *t)
{
	int err;

	trace_header_write(&t->s.w, &(struct trace_setup){
		.o = &t->o, .probes = t->ss.probes, .btf = t->ss.btf,
		.returns_count = t->ss.returns_count });
	err = output_publish(&t->out);
	if (err)
		return err;
	err = trace_spool_start(&t->spool, &t->s.w, t->o.spool);
	if (err) {
		p_err("cannot start the writer thread: %s\n", strerror(-err));
		return err;
	}
	t->s.spool = &t->spool;
	return 0;
}

static int run(struct tracer *t)
{
	char banner[PATH_MAX + 64];
	int state;

	snprintf(banner, sizeof(banner), "Tracing PTE-lock holds to %s... Hit Ctrl-C to end.",
		 t->o.output);
	if (publish(t)) {
		session_abort(&t->ss);
		output_discard(&t->folded);
		return 1;
	}
	session_start(&t->ss, t->o.quiet ? NULL : banner);
	trace_progress_open(&t->progress, t->o.quiet);
	state = poll_loop(t);
	/* The end's lines start on a line of their own. */
	trace_progress_close(&t->progress);
	if (finish(t, state < 0) || state < 0)
		return 1;
	/* The COMMAND's status, passed on, is no failure of the trace's. */
	return output_pass_status(session_exit_code(state));
}

int cmd_trace(int argc, char **argv)
{
	struct tracer t = {};
	int err;

	err = trace_opts_parse(&t.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	err = prepare(&t) ?: load_and_attach(&t);
	if (err) {
		session_abort(&t.ss);
		output_discard(&t.out);
		output_discard(&t.folded);
		err = 1;
	} else {
		err = run(&t);
	}
	ring_buffer__free(t.rb);
	session_close(&t.ss);
	trace_stream_free(&t.s);
	return err;
}
