/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Made-up trace files for the host tests and the fuzz corpus, written by
 * the real writer: records the caller chooses, the header strings a
 * trace on base 6.12 writes, and two stacks (ids 3 and 7).
 */
#ifndef __GUPSTAT_SYNTH_H
#define __GUPSTAT_SYNTH_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "tracefile/writer.h"

#define SYNTH_START_NS	1000000000ULL
#define SYNTH_STACK_A	3
#define SYNTH_STACK_B	7

static const struct trace_kv synth_strings[] = {
	{ "kernel", "6.12.117-gupstat-test" },
	{ "method", "follow_page_pte() fentry+fexit; upper bound: follow_page_pte() entry to return" },
	{ "fill", "gup_fill_pages() fentry+fexit: measured" },
	{ "gupstat", "test" },
	{ "foll_flags", "FOLL_WRITE=0x1,FOLL_GET=0x2,FOLL_LONGTERM=0x100,FOLL_TOUCH=0x10000,FOLL_PIN=0x40000" },
	{ "command", "synthetic <test> & \"quotes\"" },
};

/* Record @i of a plain run: 1 page, pinned, 1000 + i ns, stacks alternating. */
static inline struct trace_rec synth_rec(size_t i, __u64 hold_ns)
{
	struct trace_rec r = {
		.ts_ns = SYNTH_START_NS + 1000 + i * 5000,
		.hold_ns = hold_ns,
		.addr = 0x7f0000000000ULL + i * 4096,
		.pid = 100 + (i % 2), .tid = 200 + (i % 3), .cpu = i % 2,
		.pages = 1, .stored = 1,
		.gup_flags = 0x40101,	/* FOLL_PIN|FOLL_LONGTERM|FOLL_WRITE */
		.stack = i % 2 ? SYNTH_STACK_B : SYNTH_STACK_A,
		.flags = GT_R_STORED_KNOWN,
	};

	strcpy(r.comm, i % 2 ? "gup_test" : "gupwork");
	return r;
}

/* The header: the file is open and written to through @w, or NULL. */
static inline FILE *synth_begin(const char *path, struct trace_writer *w, __u32 hdr_flags)
{
	struct trace_meta m = {
		.flags = hdr_flags,
		.start_ns = SYNTH_START_NS,
		.start_realtime_ns = 1764460800ULL * 1000000000ULL,
		.strings = synth_strings,
		.nr_strings = sizeof(synth_strings) / sizeof(synth_strings[0]),
	};
	FILE *f = fopen(path, "w");

	if (f) {
		trace_writer_init(w, f);
		trace_writer_header(w, &m);
	}
	return f;
}

/* The two stacks and the trailer; closes @f. 0 or -errno. */
static inline int synth_end(FILE *f, struct trace_writer *w, __u32 hdr_flags)
{
	static const char *const a[] = { "follow_page_pte+0x0", "__get_user_pages+0x1b4",
					  "__gup_longterm_locked+0x5e", "gup_test_ioctl+0x2a1 [gup_test]" };
	static const char *const b[] = { "follow_page_pte+0x0", "__get_user_pages+0x1b4",
					  "process_vm_rw_core+0x2c0" };
	static const __u64 addrs[] = { 0xffffffff81234560ULL, 0xffffffff81234660ULL,
				       0xffffffff81234760ULL, 0xffffffffc0001000ULL };
	struct trace_end e = { .end_ns = SYNTH_START_NS + 2000000000ULL };
	int err;

	trace_writer_stack(w, SYNTH_STACK_A, 4, hdr_flags & GT_F_KERNEL_ADDRS ? addrs : NULL, a);
	trace_writer_stack(w, SYNTH_STACK_B, 3, hdr_flags & GT_F_KERNEL_ADDRS ? addrs : NULL, b);
	err = trace_writer_finish(w, &e);
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* Write @n records; @hdr_flags GT_F_*. 0 or -errno. */
static inline int synth_write(const char *path, const struct trace_rec *recs,
			      size_t n, __u32 hdr_flags)
{
	struct trace_writer w;
	FILE *f = synth_begin(path, &w, hdr_flags);
	size_t i;

	if (!f)
		return -errno;
	for (i = 0; i < n; i++)
		trace_writer_record(&w, &recs[i]);
	return synth_end(f, &w, hdr_flags);
}

#endif /* __GUPSTAT_SYNTH_H */
