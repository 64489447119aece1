// SPDX-License-Identifier: GPL-2.0
/*
 * From the ring buffer to the file: a BPF record becomes a file record;
 * kernel addresses become names through a kallsyms-shaped file, without
 * the tracer's own frames, and stay out of the file unless asked for;
 * the holds' cgroups are named as they come, and written after the stacks.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "tap.h"
#include "scratch.h"
#include "synth.h"
#include "trace/stream.h"

static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81200000 t follow_page_pte\n"
	"ffffffff81200400 D some_data\n"
	"ffffffff81201000 T __get_user_pages\n"
	"ffffffff81202000 T __gup_longterm_locked\n"
	"ffffffffa0000000 t bpf_prog_123_walk_fexit\t[bpf]\n"
	"ffffffffa0001000 t bpf_trampoline_42\t[bpf]\n"
	"ffffffffc0001000 t gup_test_ioctl\t[gup_test]\n";

/* The stack of a fexit hold, innermost first, as the map returns it. */
static const __u64 ips[TRACE_STACK_DEPTH] = {
	0xffffffffa00006d7,	/* walk_fexit [bpf] */
	0xffffffffa00012a4,	/* the trampoline [bpf] */
	0xffffffff81200005,	/* follow_page_pte+0x5: calls the trampoline */
	0xffffffff812016a5,	/* __get_user_pages+0x6a5 */
	0xffffffffa0001300,	/* __get_user_pages' own trampoline [bpf] */
	0xffffffff81201005,	/* __get_user_pages+0x5: fentry's second frame */
	0xffffffff812020c4,	/* __gup_longterm_locked+0xc4 */
	0xffffffffc0001472,	/* gup_test_ioctl+0x472 [gup_test] */
	0xffffffff8120040a,	/* inside follow_page_pte, after a data symbol */
	0x0000000000001000,	/* below every symbol */
};

static const char *const want[] = {
	"follow_page_pte+0x5", "__get_user_pages+0x6a5", "__gup_longterm_locked+0xc4",
	"gup_test_ioctl+0x472 [gup_test]", "follow_page_pte+0x40a", "[unknown]",
};

static void hold_to_rec(void)
{
	struct trace_hold h = {
		.type = TRACE_REC_HOLD, .cpu = 1, .ts_ns = 10, .hold_ns = 20, .fill_ns = 5,
		.addr = 0x7f00, .pid = 3, .tid = 4, .pages = 512, .stored = 600,
		.gup_flags = 0x40000, .stack_id = -17, .fills = 2,
		.flags = TRACE_HOLD_FILL | TRACE_HOLD_STORED_KNOWN, .result = 0,
		.comm = "0123456789abcdef",	/* not terminated: 16 characters */
		.cgroup = 0x123456789abcULL,
	};
	struct trace_rec r;

	trace_hold_to_rec(&h, &r);
	CHECK(r.stack == GT_NO_STACK && r.stored == 512 && r.flags == (GT_R_FILL | GT_R_STORED_KNOWN) &&
	      !strcmp(r.comm, "0123456789abcde") && r.fill_ns == 5 && r.fills == 2,
	      "a failed stack is none, stored capped at walked, comm terminated");
	CHECK(r.cgroup == 0x123456789abcULL, "the cgroup id kept, all 64 bits");
}

/* The cgroup2 root's id (its inode number), as cgpath_new(NULL) finds it. */
static __u64 cgroup2_root(void)
{
	static const char *const dirs[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	struct statfs fs;
	struct stat st;
	size_t i;

	for (i = 0; i < 2; i++)
		if (!statfs(dirs[i], &fs) && fs.f_type == CGROUP2_SUPER_MAGIC && !stat(dirs[i], &st))
			return st.st_ino;
	return 0;
}

/*
 * Holds of the root cgroup and of one that does not exist: the root is
 * named "/", the other is in no table, and both holds keep their ids.
 */
static void cgroups(const char *out)
{
	struct trace_hold h = { .type = TRACE_REC_HOLD, .ts_ns = 10, .tid = 4, .stack_id = -1 };
	__u64 root = cgroup2_root(), gone = 0xdead00000001ULL;
	struct trace_end e = {};
	struct trace_stream s;
	struct trace_file tf;
	FILE *fw;

	if (!root) {
		SKIP("no cgroup2 mount here");
		return;
	}
	trace_stream_init(&s, 16);
	fw = fopen(out, "w");
	trace_writer_init(&s.w, fw);
	trace_writer_header(&s.w, &(struct trace_meta){ .strings = synth_strings, .nr_strings = 4 });
	h.cgroup = root;
	trace_stream_event(&s, &h, sizeof(h));
	h.cgroup = gone;
	trace_stream_event(&s, &h, sizeof(h));
	h.cgroup = root;
	trace_stream_event(&s, &h, sizeof(h));
	trace_stream_cgroups(&s);
	trace_writer_finish(&s.w, &e);
	fclose(fw);
	trace_stream_free(&s);
	CHECK(trace_file_read(&tf, out) == 0 && tf.nr_recs == 3 && tf.recs[0].cgroup == root &&
	      tf.recs[1].cgroup == gone && tf.recs[2].cgroup == root,
	      "3 holds, each with its cgroup id: '%s'", tf.err);
	CHECK(tf.nr_cgroups == 1 && !strcmp(trace_file_cgroup(&tf, root) ?: "", "/") &&
	      !trace_file_cgroup(&tf, gone),
	      "the root cgroup (%llu) named '/', a missing one left out", (unsigned long long)root);
	trace_file_free(&tf);
}

/*
 * 7.x's unwinder at follow_page_pte()'s return starts at the caller:
 * the walk's own frame is named at its entry, first, and with
 * --kernel-addrs the function's address is kept for it.
 */
static void caller_first(const struct ksyms *ks, const char *out)
{
	static const __u64 seven[TRACE_STACK_DEPTH] = {
		0xffffffffa00006d7,	/* walk_fexit [bpf] */
		0xffffffff812016a5,	/* __get_user_pages+0x6a5 */
		0xffffffff812020c4,	/* __gup_longterm_locked+0xc4 */
	};
	struct trace_end e = {};
	struct trace_stream s;
	struct trace_file tf;
	FILE *fw;

	trace_stream_init(&s, 16);
	fw = fopen(out, "w");
	trace_writer_init(&s.w, fw);
	trace_writer_header(&s.w, &(struct trace_meta){ .flags = GT_F_KERNEL_ADDRS,
		.strings = synth_strings, .nr_strings = 4 });
	trace_stream_write_stack(&s, 6, seven, ks, true);
	trace_writer_finish(&s.w, &e);
	fclose(fw);
	trace_stream_free(&s);
	CHECK(trace_file_read(&tf, out) == 0 && tf.nr_stacks == 1 && tf.stacks[0].nr_frames == 3 &&
	      !strcmp(tf.stacks[0].frames[0].name, "follow_page_pte+0x0") &&
	      tf.stacks[0].frames[0].addr == 0xffffffff81200000 &&
	      !strcmp(tf.stacks[0].frames[1].name, "__get_user_pages+0x6a5"),
	      "a stack from the walk's caller gets follow_page_pte first: '%s'", tf.err);
	trace_file_free(&tf);
}

/*
 * --waits: a wait record beside a hold; the hold's waited flag kept;
 * the lock's address only with --kernel-addrs; the waiter's stack, taken
 * in the spin, without the walk's frame a hold's gets; a record of
 * neither kind, or cut short, counted as bad.
 */
static void waits(const struct ksyms *ks, const char *out)
{
	static const __u64 spin[TRACE_STACK_DEPTH] = {
		0xffffffffa00006d7,	/* wait_fexit [bpf] */
		0xffffffff812016a5,	/* __get_user_pages+0x6a5 */
	};
	struct trace_hold h = { .type = TRACE_REC_HOLD, .ts_ns = 10, .hold_ns = 50, .pid = 3,
				.tid = 4, .stack_id = 6, .flags = TRACE_HOLD_WAITED,
				.comm = "gup_test" };
	struct trace_wait w = { .type = TRACE_REC_WAIT, .cpu = 1, .ts_ns = 20, .wait_ns = 30,
				.lock = 0xffff888000001000ULL, .hold_ts_ns = 10, .pid = 7,
				.tid = 8, .holder_pid = 3, .holder_tid = 4, .stack_id = 9,
				.comm = "faulter", .cgroup = 5 };
	struct trace_end e = {};
	struct trace_stream s;
	struct trace_file tf;
	int addrs;
	FILE *fw;

	for (addrs = 0; addrs < 2; addrs++) {
		trace_stream_init(&s, 16);
		s.addrs = addrs;
		fw = fopen(out, "w");
		trace_writer_init(&s.w, fw);
		trace_writer_header(&s.w, &(struct trace_meta){
			.flags = GT_F_WAITS | (addrs ? GT_F_KERNEL_ADDRS : 0),
			.strings = synth_strings, .nr_strings = 4 });
		trace_stream_event(&s, &w, sizeof(w));
		trace_stream_event(&s, &h, sizeof(h));
		trace_stream_event(&s, &w, sizeof(w) - 1);
		w.type = 3;
		trace_stream_event(&s, &w, sizeof(w));
		w.type = TRACE_REC_WAIT;
		trace_stream_write_stack(&s, 6, spin, ks, addrs);
		trace_stream_write_stack(&s, 9, spin, ks, addrs);
		trace_writer_finish(&s.w, &e);
		fclose(fw);
		CHECK(s.bad == 2 && s.w.nr_waits == 1 && s.w.nr_recs == 2,
		      "a wait and a hold written, a short record and an unknown type bad (%llu)",
		      (unsigned long long)s.bad);
		trace_stream_free(&s);
		CHECK(trace_file_read(&tf, out) == 0 && tf.nr_recs == 2 && tf.nr_waits == 1,
		      "read back: '%s'", tf.err);
		if (tf.nr_recs != 2)
			continue;
		CHECK(tf.recs[0].kind == GT_KIND_WAIT && tf.recs[0].wait_ns == 30 &&
		      tf.recs[0].hold_ts_ns == 10 && tf.recs[0].holder_pid == 3 &&
		      tf.recs[0].holder_tid == 4 && tf.recs[0].tid == 8 && tf.recs[0].stack == 9 &&
		      tf.recs[0].cgroup == 5 && !strcmp(tf.recs[0].comm, "faulter") &&
		      tf.recs[0].lock == (addrs ? w.lock : 0),
		      "the wait's fields, its lock address %s", addrs ? "kept" : "left out");
		CHECK(tf.recs[1].kind == GT_KIND_HOLD && tf.recs[1].flags == GT_R_WAITED,
		      "the hold waited on has GT_R_WAITED");
		CHECK(tf.nr_stacks == 2 && !strcmp(tf.stacks[0].frames[0].name, "follow_page_pte+0x0") &&
		      !strcmp(tf.stacks[1].frames[0].name, "__get_user_pages+0x6a5"),
		      "the hold's stack gets the walk's frame, the waiter's does not");
		trace_file_free(&tf);
	}
}

static int names_are(const struct trace_stack *st)
{
	__u32 i;

	if (st->nr_frames != sizeof(want) / sizeof(want[0]))
		return 0;
	for (i = 0; i < st->nr_frames; i++)
		if (strcmp(st->frames[i].name, want[i]))
			return 0;
	return 1;
}

int main(void)
{
	char *ks_path = scratch_file("kallsyms"), *out = scratch_file("t.gt");
	int fd = open(ks_path, O_WRONLY), pass;
	struct trace_end e = {};
	struct trace_stream s;
	struct trace_file tf;
	struct ksyms *ks;
	FILE *fw;
	__u32 i;

	if (write(fd, kallsyms, sizeof(kallsyms) - 1) < 0)
		return 1;
	close(fd);
	hold_to_rec();
	ks = ksyms_load(ks_path);
	CHECK(ks != NULL, "kallsyms-shaped file loads");
	for (pass = 0; pass < 2; pass++) {
		trace_stream_init(&s, 16);
		fw = fopen(out, "w");
		trace_writer_init(&s.w, fw);
		trace_writer_header(&s.w, &(struct trace_meta){
			.flags = pass ? GT_F_KERNEL_ADDRS : 0,
			.strings = synth_strings, .nr_strings = 4 });
		trace_stream_write_stack(&s, 5, ips, ks, pass);
		trace_writer_finish(&s.w, &e);
		fclose(fw);
		trace_stream_free(&s);
		CHECK(trace_file_read(&tf, out) == 0 && tf.nr_stacks == 1, "written and read back: '%s'", tf.err);
		if (!tf.nr_stacks)
			continue;
		CHECK(names_are(&tf.stacks[0]), "%s: named, [bpf] frames and fentry's second frame left out",
		      pass ? "--kernel-addrs" : "default");
		for (i = 0; i < tf.stacks[0].nr_frames && !pass; i++)
			if (tf.stacks[0].frames[i].addr)
				break;
		if (!pass)
			CHECK(i == tf.stacks[0].nr_frames, "no address kept by default");
		else
			CHECK(tf.stacks[0].frames[1].addr == 0xffffffff812016a5,
			      "--kernel-addrs keeps each kept frame's address");
		trace_file_free(&tf);
	}
	caller_first(ks, out);
	waits(ks, out);
	ksyms_free(ks);
	cgroups(out);
	CHECK(ksyms_load("/nonexistent/kallsyms") == NULL, "an unreadable kallsyms is an error");
	return check_done();
}
