/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Made-up trace files for the host tests and the fuzz corpus, written by
 * the real writer: records the caller chooses, the header strings a
 * trace on base 6.12 writes, two stacks (ids 3 and 7) and two cgroups
 * named (the root and a service); the holds of a third, removed before
 * it was named, have an id only.
 */
#ifndef __GUPSTAT_SYNTH_H
#define __GUPSTAT_SYNTH_H

#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "tracefile/writer.h"

#define SYNTH_START_NS	1000000000ULL
#define SYNTH_STACK_A	3
#define SYNTH_STACK_B	7
#define SYNTH_CG_ROOT	1
#define SYNTH_CG_SVC	4242
#define SYNTH_CG_GONE	9999	/* in no table */
#define SYNTH_CG_SVC_PATH	"/system.slice/gupwork.service"

static const struct trace_kv synth_strings[] = {
	{ "kernel", "6.12.117-gupstat-test" },
	{ "method", "follow_page_pte() fentry+fexit; upper bound: follow_page_pte() entry to return" },
	{ "fill", "gup_fill_pages() fentry+fexit: measured" },
	{ "gupstat", "test" },
	{ "foll_flags", "FOLL_WRITE=0x1,FOLL_GET=0x2,FOLL_LONGTERM=0x100,FOLL_TOUCH=0x10000,FOLL_PIN=0x40000" },
	{ "command", "synthetic <test> & \"quotes\"" },
};

/*
 * Record @i of a plain run: 1 page, pinned, 1000 + i ns, stacks
 * alternating, cgroups in turn: the service, the root, the gone one.
 */
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
		.cgroup = i % 3 == 0 ? SYNTH_CG_SVC : i % 3 == 1 ? SYNTH_CG_ROOT : SYNTH_CG_GONE,
	};

	strcpy(r.comm, i % 2 ? "gup_test" : "gupwork");
	return r;
}

/*
 * Wait @i (--waits) on hold @h: it began @after ns into the hold and
 * spun @wait_ns; the waiter is another task, its stack SYNTH_STACK_W.
 */
#define SYNTH_STACK_W	11
static inline struct trace_rec synth_wait(size_t i, const struct trace_rec *h, __u64 after,
					  __u64 wait_ns)
{
	struct trace_rec r = {
		.kind = GT_KIND_WAIT,
		.ts_ns = h->ts_ns + after,
		.wait_ns = wait_ns,
		.hold_ts_ns = h->ts_ns,
		.pid = 300 + i, .tid = 300 + i, .cpu = 1,
		.holder_pid = h->pid, .holder_tid = h->tid,
		.stack = SYNTH_STACK_W,
		.cgroup = SYNTH_CG_SVC,
	};

	strcpy(r.comm, "faulter");
	return r;
}

/*
 * Wait @i on @h, a hold the file has: synth_wait(), and @h marked
 * waited on, as the tracer marks the hold a wait names. For a wait on a
 * hold the file lacks, synth_wait(), then change the hold it names.
 */
static inline struct trace_rec synth_wait_on(size_t i, struct trace_rec *h, __u64 after,
					     __u64 wait_ns)
{
	h->flags |= GT_R_WAITED;
	return synth_wait(i, h, after, wait_ns);
}

/* The header with @strings: the file is open and written to through @w, or NULL. */
static inline FILE *synth_begin_with(const char *path, struct trace_writer *w, __u32 hdr_flags,
				     const struct trace_kv *strings, __u32 nr_strings)
{
	struct trace_meta m = {
		.flags = hdr_flags,
		.start_ns = SYNTH_START_NS,
		.start_realtime_ns = 1764460800ULL * 1000000000ULL,
		.strings = strings,
		.nr_strings = nr_strings,
	};
	FILE *f = fopen(path, "w");

	if (f) {
		trace_writer_init(w, f);
		trace_writer_header(w, &m);
	}
	return f;
}

/* The header a trace on base 6.12 writes. */
static inline FILE *synth_begin(const char *path, struct trace_writer *w, __u32 hdr_flags)
{
	return synth_begin_with(path, w, hdr_flags, synth_strings,
				sizeof(synth_strings) / sizeof(synth_strings[0]));
}

/* The two stacks and the trailer; closes @f. 0 or -errno. */
static inline int synth_end(FILE *f, struct trace_writer *w, __u32 hdr_flags)
{
	static const char *const a[] = { "follow_page_pte+0x0", "__get_user_pages+0x1b4",
					  "__gup_longterm_locked+0x5e", "gup_test_ioctl+0x2a1 [gup_test]" };
	static const char *const b[] = { "follow_page_pte+0x0", "__get_user_pages+0x1b4",
					  "process_vm_rw_core+0x2c0" };
	static const char *const wt[] = { "queued_spin_lock_slowpath+0x4e", "do_pte_missing+0x3d",
					   "handle_mm_fault+0x1b2" };
	static const __u64 addrs[] = { 0xffffffff81234560ULL, 0xffffffff81234660ULL,
				       0xffffffff81234760ULL, 0xffffffffc0001000ULL };
	struct trace_end e = { .end_ns = SYNTH_START_NS + 2000000000ULL };
	int err;

	trace_writer_stack(w, SYNTH_STACK_A, 4, hdr_flags & GT_F_KERNEL_ADDRS ? addrs : NULL, a);
	trace_writer_stack(w, SYNTH_STACK_B, 3, hdr_flags & GT_F_KERNEL_ADDRS ? addrs : NULL, b);
	/* A waiter's: the spin, from a page fault. */
	if (hdr_flags & GT_F_WAITS)
		trace_writer_stack(w, SYNTH_STACK_W, 3, hdr_flags & GT_F_KERNEL_ADDRS ? addrs : NULL, wt);
	trace_writer_cgroup(w, SYNTH_CG_ROOT, "/");
	trace_writer_cgroup(w, SYNTH_CG_SVC, SYNTH_CG_SVC_PATH);
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

static inline __u32 synth_le32(const unsigned char *p)
{
	__u32 v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static inline __u64 synth_le64(const unsigned char *p)
{
	__u64 v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * The version 1 file of the same holds, as gupstat before the cgroups
 * wrote it: @v2 (@len bytes, a finished file) into @out, which has room
 * for @len bytes. Its length, or 0 if @v2 is not a finished file.
 */
static inline size_t synth_to_v1(const unsigned char *v2, size_t len, unsigned char *out)
{
	const unsigned char *t = v2 + len - sizeof(struct gt_trailer);
	struct gt_trailer_v1 t1 = {};
	__u32 hs = synth_le32(v2 + offsetof(struct gt_header, header_size));
	__u64 n = synth_le64(t + offsetof(struct gt_trailer, records));
	__u64 so = synth_le64(t + offsetof(struct gt_trailer, stacks_offset));
	__u64 co = synth_le64(t + offsetof(struct gt_trailer, cgroups_offset));
	size_t o = hs, i;

	if (len < hs + sizeof(struct gt_trailer) || memcmp(t, GT_TRAILER_MAGIC, 8) ||
	    so != hs + n * sizeof(struct gt_record) || co < so || co > len)
		return 0;
	memcpy(out, v2, hs);
	*(__le32 *)(out + offsetof(struct gt_header, version)) = htole32(GT_VERSION_V1);
	*(__le32 *)(out + offsetof(struct gt_header, record_size)) = htole32(GT_RECORD_V1_SIZE);
	for (i = 0; i < n; i++, o += GT_RECORD_V1_SIZE)
		memcpy(out + o, v2 + hs + i * sizeof(struct gt_record), GT_RECORD_V1_SIZE);
	memcpy(out + o, v2 + so, co - so);
	memcpy(&t1, t, offsetof(struct gt_trailer_v1, nr_stacks));
	t1.stacks_offset = htole64(o);
	t1.nr_stacks = htole32(synth_le32(t + offsetof(struct gt_trailer, nr_stacks)));
	t1.trailer_size = htole32(sizeof(t1));
	o += co - so;
	memcpy(out + o, &t1, sizeof(t1));
	return o + sizeof(t1);
}

/*
 * The version 2 file of the same holds, as gupstat before the waits
 * wrote it: @v3 (@len bytes, a finished file without waits) into @out,
 * which has room for @len bytes. Its length, or 0 if @v3 is not a
 * finished file of holds alone.
 */
static inline size_t synth_to_v2(const unsigned char *v3, size_t len, unsigned char *out)
{
	const unsigned char *t = v3 + len - sizeof(struct gt_trailer);
	struct gt_trailer_v2 t2 = {};
	size_t body = len - sizeof(struct gt_trailer);

	if (len < sizeof(struct gt_header) + sizeof(struct gt_trailer) ||
	    memcmp(t, GT_TRAILER_MAGIC, 8) || synth_le64(t + offsetof(struct gt_trailer, waits)) ||
	    (synth_le32(v3 + offsetof(struct gt_header, flags)) & GT_F_WAITS))
		return 0;
	memcpy(out, v3, body);
	*(__le32 *)(out + offsetof(struct gt_header, version)) = htole32(GT_VERSION_V2);
	memcpy(&t2, t, offsetof(struct gt_trailer_v2, nr_cgroups));
	t2.nr_cgroups = htole32(synth_le32(t + offsetof(struct gt_trailer, nr_cgroups)));
	t2.nr_stacks = htole32(synth_le32(t + offsetof(struct gt_trailer, nr_stacks)));
	t2.trailer_size = htole32(sizeof(t2));
	memcpy(out + body, &t2, sizeof(t2));
	return body + sizeof(t2);
}

#endif /* __GUPSTAT_SYNTH_H */
