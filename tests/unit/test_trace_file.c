// SPDX-License-Identifier: GPL-2.0
/*
 * The trace file: what the writer writes the reader reads back, field for
 * field, the holds' cgroups and their paths too, waits among the holds
 * (version 3); a version 2 file (no waits) and a version 1 file (no
 * cgroups) are still read; the file is private (0600) and never written through a symlink;
 * every truncation and each kind of corruption is refused with one line
 * naming the problem.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tap.h"
#include "scratch.h"
#include "synth.h"
#include "tracefile/clock.h"
#include "tracefile/reader.h"

static char *path;
static unsigned char *good;
static size_t good_len;

static void load(void)
{
	FILE *f = fopen(path, "rb");

	fseek(f, 0, SEEK_END);
	good_len = ftell(f);
	rewind(f);
	good = malloc(good_len);
	if (fread(good, 1, good_len, f) != good_len)
		good_len = 0;
	fclose(f);
}

static __u32 header_size(void)
{
	__u32 v;

	memcpy(&v, good + offsetof(struct gt_header, header_size), 4);
	return le32toh(v);
}

/* Parse a copy of the good file with @n bytes at @off replaced. */
static int parse_patched(struct trace_file *tf, size_t off, const void *bytes, size_t n)
{
	unsigned char *copy = malloc(good_len);
	int err;

	memcpy(copy, good, good_len);
	memcpy(copy + off, bytes, n);
	err = trace_file_parse(tf, copy, good_len);
	free(copy);
	if (!err)
		trace_file_free(tf);
	return err;
}

static void expect_refused(size_t off, const void *bytes, size_t n, const char *want,
			   const char *what)
{
	struct trace_file tf;
	int err = parse_patched(&tf, off, bytes, n);

	CHECK(err == -EINVAL && strstr(tf.err, want) && !strchr(tf.err, '\n'),
	      "%s: refused with '%s' (want '%s')", what, tf.err, want);
}

static void roundtrip(void)
{
	struct trace_rec recs[5];
	struct trace_file tf;
	struct stat st;
	size_t i;
	int ok = 1;

	for (i = 0; i < 5; i++)
		recs[i] = synth_rec(i, 1000 + i);
	recs[4].pages = 512;
	recs[4].stored = 0;
	recs[4].flags |= GT_R_FILL;
	recs[4].fill_ns = 300;
	recs[4].fills = 2;
	recs[3].stack = GT_NO_STACK;
	recs[2].result = 1;
	CHECK(synth_write(path, recs, 5, GT_F_FILL_PROBED) == 0, "writer writes 5 holds");
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600, "file mode 0%o", st.st_mode & 0777);
	CHECK(trace_file_read(&tf, path) == 0, "reader accepts it: '%s'", tf.err);
	CHECK(tf.nr_recs == 5 && tf.nr_stacks == 2, "5 records, 2 stacks");
	for (i = 0; i < 5 && tf.recs; i++)
		ok &= !memcmp(&tf.recs[i], &recs[i], offsetof(struct trace_rec, comm)) &&
		      !strcmp(tf.recs[i].comm, recs[i].comm);
	CHECK(ok, "every record field comes back");
	CHECK(tf.flags == GT_F_FILL_PROBED && tf.clock_id == 1 && tf.start_ns == SYNTH_START_NS,
	      "header flags, clock CLOCK_MONOTONIC, start");
	CHECK(!strcmp(trace_file_string(&tf, "kernel"), "6.12.117-gupstat-test"), "kernel string");
	CHECK(tf.nr_stacks == 2 && tf.stacks[0].id == SYNTH_STACK_A && tf.stacks[0].nr_frames == 4 &&
	      !strcmp(tf.stacks[0].frames[3].name, "gup_test_ioctl+0x2a1 [gup_test]") &&
	      tf.stacks[0].frames[0].addr == 0, "stack frames by name, no addresses");
	trace_file_free(&tf);
}

/* Each hold's cgroup id, and the paths of those that were named. */
static void cgroups(void)
{
	struct trace_rec recs[3];
	struct trace_file tf;
	char buf[32];
	size_t i;

	for (i = 0; i < 3; i++)
		recs[i] = synth_rec(i, 1000);
	recs[0].cgroup = 0xfedcba9876543210ULL;
	CHECK(synth_write(path, recs, 3, 0) == 0 && trace_file_read(&tf, path) == 0,
	      "a trace with 3 cgroups: '%s'", tf.err);
	CHECK(tf.version == 3 && tf.nr_cgroups == 2 && tf.cgroups[0].id == SYNTH_CG_ROOT &&
	      tf.cgroups[1].id == SYNTH_CG_SVC, "version 3, the 2 named cgroups in the table");
	CHECK(tf.recs[0].cgroup == 0xfedcba9876543210ULL && tf.recs[1].cgroup == SYNTH_CG_ROOT &&
	      tf.recs[2].cgroup == SYNTH_CG_GONE, "every record's 64-bit cgroup id comes back");
	CHECK(!strcmp(trace_file_cgroup_name(&tf, SYNTH_CG_ROOT, buf, sizeof(buf)), "/") &&
	      !strcmp(trace_file_cgroup_name(&tf, SYNTH_CG_SVC, buf, sizeof(buf)), SYNTH_CG_SVC_PATH),
	      "the root is '/', a service its path");
	CHECK(!strcmp(trace_file_cgroup_name(&tf, SYNTH_CG_GONE, buf, sizeof(buf)), "id:9999") &&
	      !trace_file_cgroup(&tf, SYNTH_CG_GONE), "a cgroup gone before it was named: 'id:9999'");
	trace_file_free(&tf);
}

/* The writer leaves out a path it cannot write whole, rather than cut it. */
static void cgroup_too_long(void)
{
	char *lng = malloc(GT_CGPATH_MAX + 2);
	struct trace_rec r = synth_rec(0, 5);
	struct trace_writer w;
	struct trace_file tf;
	FILE *f = synth_begin(path, &w, 0);
	char buf[32];

	memset(lng, 'x', GT_CGPATH_MAX + 1);
	lng[0] = '/';
	lng[GT_CGPATH_MAX + 1] = '\0';
	r.cgroup = 77;
	r.stack = GT_NO_STACK;
	trace_writer_record(&w, &r);
	trace_writer_cgroup(&w, 5, "/a\tb");
	trace_writer_cgroup(&w, 77, lng);
	trace_writer_cgroup(&w, 78, "relative");
	trace_writer_cgroup(&w, 79, lng + 1 + GT_CGPATH_MAX - 3);	/* "xxx" */
	trace_writer_finish(&w, &(struct trace_end){ .end_ns = SYNTH_START_NS + 1 });
	fclose(f);
	CHECK(trace_file_read(&tf, path) == 0 && tf.nr_cgroups == 1 &&
	      !strcmp(tf.cgroups[0].path, "/a?b") &&
	      !strcmp(trace_file_cgroup_name(&tf, 77, buf, sizeof(buf)), "id:77"),
	      "a path over %d bytes or not from the root left out, a tab made '?': '%s'",
	      GT_CGPATH_MAX, tf.err);
	trace_file_free(&tf);
	free(lng);
}

/* A file of gupstat before the cgroups: read, every hold's cgroup unknown. */
static void version1(void)
{
	unsigned char *v1 = malloc(good_len);
	size_t len = synth_to_v1(good, good_len, v1), i;
	struct trace_file tf, full;
	bool same = true;
	char buf[32];

	CHECK(len == good_len - 5 * 8 - 16 * 2 - 1 - strlen(SYNTH_CG_SVC_PATH) - 24,
	      "the version 1 file: 8 bytes a record, the cgroup table and 24 of trailer fewer");
	CHECK(trace_file_parse(&tf, v1, len) == 0 && tf.version == 1 && !tf.incomplete,
	      "a version 1 file is read: '%s'", tf.err);
	trace_file_parse(&full, good, good_len);
	for (i = 0; i < full.nr_recs && tf.recs && i < tf.nr_recs; i++) {
		struct trace_rec want = full.recs[i];

		want.cgroup = 0;
		same &= !memcmp(&tf.recs[i], &want, sizeof(want));
	}
	CHECK(tf.nr_recs == full.nr_recs && same && tf.nr_stacks == 2 && tf.nr_cgroups == 0,
	      "its %zu holds as version 2's, cgroup 0; its stacks; no cgroups", tf.nr_recs);
	CHECK(!strcmp(trace_file_cgroup_name(&tf, 0, buf, sizeof(buf)), "?"),
	      "a version 1 hold's cgroup: '?'");
	trace_file_free(&tf);
	CHECK(trace_file_parse(&tf, v1, len - 1) == 0 && tf.incomplete && tf.nr_recs == full.nr_recs,
	      "a version 1 file cut before its end: its records recovered");
	trace_file_free(&tf);
	trace_file_free(&full);
	free(v1);
}

static void kernel_addrs(void)
{
	struct trace_rec r = synth_rec(0, 5);
	struct trace_file tf;

	synth_write(path, &r, 1, GT_F_KERNEL_ADDRS);
	CHECK(trace_file_read(&tf, path) == 0 && tf.stacks[0].frames[0].addr == 0xffffffff81234560ULL,
	      "--kernel-addrs: addresses kept");
	trace_file_free(&tf);
}

/* The records of the good file (roundtrip()'s five), as a cut one must give them. */
static bool same_recs(const struct trace_file *tf, const struct trace_file *full, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct trace_rec want = full->recs[i];

		want.stack = GT_NO_STACK;	/* a cut file has no stack table */
		if (memcmp(&tf->recs[i], &want, sizeof(want)))
			return false;
	}
	return true;
}

/*
 * A file cut anywhere in its header is refused; cut after it (a tracer
 * killed, a full disk), it is read as far as its whole records go, and
 * not one byte of a cut stack table or trailer is taken for a record.
 */
static void truncations(void)
{
	size_t n, hs = header_size(), refused = 0, one_line = 0, header_cuts = 0, right = 0, cuts = 0;
	struct trace_file tf, full;

	trace_file_parse(&full, good, good_len);
	for (n = 0; n < good_len; n++) {
		size_t want = n < hs ? 0 : (n - hs) / sizeof(struct gt_record);

		if (want > full.nr_recs)
			want = full.nr_recs;
		if (n < hs) {
			header_cuts++;
			if (trace_file_parse(&tf, good, n) == -EINVAL)
				refused++;
			else
				trace_file_free(&tf);
			one_line += tf.err[0] && !strchr(tf.err, '\n');
			continue;
		}
		cuts++;
		if (trace_file_parse(&tf, good, n) == 0 && tf.incomplete && tf.nr_recs == want &&
		    same_recs(&tf, &full, want) && tf.unread == n - hs - want * sizeof(struct gt_record))
			right++;
		trace_file_free(&tf);
	}
	CHECK(refused == header_cuts && one_line == header_cuts,
	      "every one of %zu cuts of the header refused in one line (%zu, %zu)", header_cuts,
	      refused, one_line);
	CHECK(right == cuts, "every one of %zu cuts after the header read as incomplete, "
	      "with exactly its whole records (%zu)", cuts, right);
	trace_file_parse(&tf, good, 10);
	CHECK(strstr(tf.err, "truncated") != NULL, "a cut header says truncated: '%s'", tf.err);
	CHECK(trace_file_parse(&tf, good, good_len - 1) == 0 && tf.incomplete &&
	      tf.nr_recs == full.nr_recs && tf.lost == 0 && tf.nr_stacks == 0,
	      "a cut trailer: every record, no stacks, no counts");
	trace_file_free(&tf);
	CHECK(trace_file_parse(&tf, good, hs) == 0 && tf.incomplete && tf.nr_recs == 0 &&
	      tf.end_ns == tf.start_ns, "the header alone: an incomplete trace of no holds");
	trace_file_free(&tf);
	trace_file_free(&full);
}

/* The cgroup table: its first entry is the root ("/"), then the service. */
static void cgroup_corruptions(void)
{
	size_t trailer = good_len - sizeof(struct gt_trailer);
	size_t cg0 = synth_le64(good + trailer + offsetof(struct gt_trailer, cgroups_offset));
	size_t cg1 = cg0 + sizeof(struct gt_cgroup) + 1;
	__u16 huge = htole16(5000), zero16 = 0, one16 = htole16(1);
	__u64 id = htole64(SYNTH_CG_SVC + 1), far = htole64(good_len);
	__u32 many = htole32(70000), three = htole32(3);
	__u8 ctl = 0x1b;

	expect_refused(cg0 + offsetof(struct gt_cgroup, path_len), &huge, 2,
		       "cgroup 1: path length 5000 is not 1 to 4096", "oversized cgroup path");
	expect_refused(cg0 + offsetof(struct gt_cgroup, path_len), &zero16, 2,
		       "path length 0", "empty cgroup path");
	expect_refused(cg1 + sizeof(struct gt_cgroup) + 3, &ctl, 1,
		       "a cgroup path is not printable", "escape byte in a cgroup path");
	expect_refused(cg1 + sizeof(struct gt_cgroup), "s", 1, "does not start with '/'",
		       "relative cgroup path");
	expect_refused(cg0, &id, 8, "cgroup table ids are not ascending at entry 1",
		       "cgroup ids out of order");
	expect_refused(cg0 + offsetof(struct gt_cgroup, reserved), &one16, 2,
		       "reserved field not 0", "cgroup reserved field");
	expect_refused(trailer + offsetof(struct gt_trailer, nr_cgroups), &many, 4,
		       "70000 cgroups, more than the 65536", "cgroup count over the bound");
	expect_refused(trailer + offsetof(struct gt_trailer, nr_cgroups), &three, 4,
		       "cgroup table entry 2 is cut off", "cgroup count over the table");
	expect_refused(trailer + offsetof(struct gt_trailer, cgroups_offset), &far, 8,
		       "cgroup table offset", "cgroup table offset");
	expect_refused(trailer + offsetof(struct gt_trailer, reserved), &one16, 2,
		       "trailer: reserved field", "trailer reserved field");
}

/*
 * The clocks a trace may be on, by the names report -j and the Perfetto
 * export write; CLOCK_BOOTTIME read as well as the tracer's own.
 */
static void clocks(void)
{
	__u32 boot = htole32(CLOCK_BOOTTIME);
	struct trace_file tf;
	int err;

	CHECK(!strcmp(trace_clock_name(CLOCK_MONOTONIC), "CLOCK_MONOTONIC") &&
	      !strcmp(trace_clock_name(CLOCK_BOOTTIME), "CLOCK_BOOTTIME") &&
	      !strcmp(trace_clock_helper(CLOCK_MONOTONIC), "bpf_ktime_get_ns()"),
	      "trace_clock_name: CLOCK_MONOTONIC, CLOCK_BOOTTIME");
	CHECK(!trace_clock_name(CLOCK_REALTIME) && !trace_clock_name(CLOCK_MONOTONIC_RAW) && !trace_clock_name(99) &&
	      !trace_clock_helper(99), "trace_clock_name: NULL for a clock no tracer writes");
	memcpy(good + offsetof(struct gt_header, clock_id), &boot, 4);
	err = trace_file_parse(&tf, good, good_len);
	CHECK(!err && tf.clock_id == CLOCK_BOOTTIME, "a CLOCK_BOOTTIME trace is read ('%s')", err ? tf.err : "");
	if (!err)
		trace_file_free(&tf);
	boot = htole32(CLOCK_MONOTONIC);
	memcpy(good + offsetof(struct gt_header, clock_id), &boot, 4);
}

static void corruptions(void)
{
	__u32 hs = header_size(), big = htole32(99), v4 = htole32(4), rs = htole32(80);
	__u32 beyond = htole32(0x7fffffff);
	size_t rec0 = hs, trailer = good_len - sizeof(struct gt_trailer);
	__u16 huge = htole16(5000), zero16 = 0;
	__u8 ctl = 0x07, result = 9, rflags = 0x08, kind = 7;
	__u32 nostack = htole32(5), pages0 = 0;
	__u64 addr = htole64(0xffffffff81000000ULL), records = htole64(6);
	char comm[16];

	memset(comm, 'A', sizeof(comm));
	expect_refused(0, "GUPTRACX", 8, "bad magic", "magic");
	expect_refused(offsetof(struct gt_header, version), &v4, 4, "version 4", "version");
	expect_refused(offsetof(struct gt_header, record_size), &rs, 4, "record size 80", "record size");
	expect_refused(offsetof(struct gt_header, flags), &big, 4, "unknown header flags", "flags");
	expect_refused(offsetof(struct gt_header, clock_id), &big, 4, "timestamps on clock id 99, which this gupstat does not know",
		       "clock");
	expect_refused(offsetof(struct gt_header, nr_strings), &big, 4, "more than 64", "string count");
	expect_refused(offsetof(struct gt_header, header_size), &beyond, 4, "outside the file",
		       "header size");
	expect_refused(sizeof(struct gt_header) + 2, &huge, 2, "value length 5000", "string length");
	expect_refused(sizeof(struct gt_header), &zero16, 2, "key length 0", "empty key");
	expect_refused(sizeof(struct gt_header) + 4, &ctl, 1, "not printable", "control byte in a key");
	expect_refused(sizeof(struct gt_header) + 4, "x", 1, "lacks the 'kernel'", "required key renamed");
	expect_refused(rec0 + offsetof(struct gt_record, result), &result, 1, "unknown walk result 9",
		       "walk result");
	expect_refused(rec0 + offsetof(struct gt_record, stack), &nostack, 4,
		       "record 0 refers to stack 5", "dangling stack id");
	expect_refused(rec0 + offsetof(struct gt_record, pages), &pages0, 4, "1 pages stored of 0",
		       "stored more than walked");
	expect_refused(rec0 + offsetof(struct gt_record, comm), comm, 16, "not terminated", "comm");
	expect_refused(rec0 + offsetof(struct gt_record, flags), &rflags, 1, "unknown flags 0x8",
		       "record flags");
	expect_refused(rec0 + offsetof(struct gt_record, kind), &kind, 1, "record 0: unknown kind 7",
		       "record kind");
	rflags = GT_R_WAITED;
	expect_refused(rec0 + offsetof(struct gt_record, flags), &rflags, 1,
		       "a hold waited on, but the header says waits were not traced", "waited hold");
	expect_refused(trailer + offsetof(struct gt_trailer, records), &records, 8,
		       "trailer counts 6 records", "record count");
	expect_refused(trailer + offsetof(struct gt_trailer, nr_stacks), &big, 4, "99 stacks",
		       "stack count");
	expect_refused(trailer + offsetof(struct gt_trailer, stacks_offset), &addr, 8,
		       "outside the file", "stack table offset");
	expect_refused(trailer + offsetof(struct gt_trailer, trailer_size), &big, 4,
		       "trailer size 99", "trailer size");
	/* The first stack's first frame: an address the header says is not there. */
	expect_refused(rec0 + 5 * sizeof(struct gt_record) + sizeof(struct gt_stack), &addr, 8,
		       "has a kernel address", "address without --kernel-addrs");
	expect_refused(rec0 + 5 * sizeof(struct gt_record), &nostack, 4, "refers to stack 3",
		       "stack renumbered");
	cgroup_corruptions();
}

/*
 * Waits among the holds (version 3, --waits): every field of both kinds
 * back, in the file's order, the waits counted; the waiter's stack in
 * the same table; and what a wait may not be.
 */
static void waits(void)
{
	__u32 flags = GT_F_WAITS | GT_F_KERNEL_ADDRS;
	struct trace_rec recs[6];
	struct trace_file tf;
	struct trace_end e = { .end_ns = SYNTH_START_NS + 1 };
	unsigned char *b;
	size_t len, i, hs, w0;
	bool ok = true;
	__u8 one = 1;
	__u64 lock = htole64(0xffff888012345678ULL), waits = htole64(1);
	__u32 zero = 0;

	for (i = 0; i < 4; i++)
		recs[i] = synth_rec(i, 1000 + i);
	/* A wait may be written before the hold it waited on: it ends first. */
	recs[4] = recs[3];
	recs[3] = synth_wait_on(0, &recs[1], 100, 777);
	recs[3].lock = 0xffff888012345678ULL;
	recs[5] = synth_wait_on(1, &recs[1], 200, 888);
	recs[5].stack = GT_NO_STACK;
	CHECK(synth_write(path, recs, 6, flags) == 0 && trace_file_read(&tf, path) == 0,
	      "a trace of 4 holds and 2 waits: '%s'", tf.err);
	for (i = 0; i < 6 && tf.recs && tf.nr_recs == 6; i++)
		ok &= !memcmp(&tf.recs[i], &recs[i], sizeof(recs[i]));
	CHECK(ok && tf.nr_recs == 6 && tf.nr_waits == 2 && trace_file_holds(&tf) == 4,
	      "every field of both kinds comes back, in order: %zu records, %zu waits",
	      tf.nr_recs, tf.nr_waits);
	CHECK(tf.flags == flags && tf.recs[3].kind == GT_KIND_WAIT && tf.recs[4].kind == GT_KIND_HOLD &&
	      tf.recs[1].flags & GT_R_WAITED, "GT_F_WAITS, the kinds, the waited flag");
	CHECK(tf.nr_stacks == 3 && trace_file_stack(&tf, SYNTH_STACK_W) &&
	      !strcmp(trace_file_stack(&tf, SYNTH_STACK_W)->frames[0].name,
		      "queued_spin_lock_slowpath+0x4e"), "the waiter's stack in the same table");
	trace_file_free(&tf);

	/* Streamed, as report reads it: the waits counted by the pass too. */
	CHECK(trace_file_open(&tf, path) == 0, "opened: '%s'", tf.err);
	for (i = 0; trace_file_next(&tf, &recs[0]) > 0; i++)
		;
	CHECK(i == 6 && tf.pass_waits == 2 && tf.nr_waits == 2, "a pass reads 6, 2 of them waits");
	trace_file_free(&tf);

	b = malloc(1 << 16);
	{
		FILE *f = fopen(path, "rb");

		len = fread(b, 1, 1 << 16, f);
		fclose(f);
	}
	memcpy(&zero, b + offsetof(struct gt_header, header_size), 4);
	hs = le32toh(zero);
	zero = 0;
	w0 = hs + 3 * sizeof(struct gt_record);
	/* Without its trailer the waits are recovered as the holds are. */
	CHECK(trace_file_parse(&tf, b, len - 1) == 0 && tf.incomplete && tf.nr_recs == 6 &&
	      tf.nr_waits == 2 && tf.recs[5].kind == GT_KIND_WAIT && tf.recs[5].stack == GT_NO_STACK,
	      "cut before its end: 4 holds and 2 waits recovered (%zu, %zu)", tf.nr_recs, tf.nr_waits);
	trace_file_free(&tf);
	{
		unsigned char *c = malloc(len);
		struct {
			size_t off;
			const void *v;
			size_t n;
			const char *want;
		} bad[] = {
			{ len - sizeof(struct gt_trailer) + offsetof(struct gt_trailer, waits), &waits, 8,
			  "trailer counts 1 waits, the records hold 2" },
			{ w0 + offsetof(struct gt_wait, holder_tid), &zero, 4, "no such hold" },
			{ w0 + offsetof(struct gt_wait, flags), &one, 1, "unknown wait flags 0x1" },
			{ w0 + offsetof(struct gt_wait, tid), &zero, 4, "not a wait" },
		};

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			memcpy(c, b, len);
			memcpy(c + bad[i].off, bad[i].v, bad[i].n);
			CHECK(trace_file_parse(&tf, c, len) == -EINVAL && strstr(tf.err, bad[i].want) &&
			      !strchr(tf.err, '\n'), "a wait refused: '%s' (want '%s')", tf.err,
			      bad[i].want);
			trace_file_free(&tf);
		}
		/* Cut there, the trace ends at a wait with a reserved field set. */
		memcpy(c, b, len);
		memcpy(c + w0 + offsetof(struct gt_wait, reserved0), &lock, 4);
		CHECK(trace_file_parse(&tf, c, len - 1) == 0 && tf.incomplete && tf.nr_recs == 3,
		      "without the trailer a wait with a reserved field set ends the records (%zu)",
		      tf.nr_recs);
		trace_file_free(&tf);
		free(c);
	}
	free(b);

	/* The writer counts; the header's flag without waits is fine. */
	{
		struct trace_writer w;
		FILE *f = synth_begin(path, &w, GT_F_WAITS);

		recs[1].stack = GT_NO_STACK;
		trace_writer_record(&w, &recs[1]);
		CHECK(w.nr_recs == 1 && w.nr_waits == 0, "a hold is no wait");
		trace_writer_finish(&w, &e);
		fclose(f);
		CHECK(trace_file_read(&tf, path) == 0 && tf.nr_waits == 0 && tf.nr_recs == 1,
		      "--waits and no wait: read ('%s')", tf.err);
		trace_file_free(&tf);
	}
	recs[3].lock = 0;
	synth_write(path, &recs[3], 1, 0);
	CHECK(trace_file_read(&tf, path) == -EINVAL &&
	      strstr(tf.err, "record 0: a wait, but the header says waits were not traced"),
	      "a wait in a trace without --waits refused: '%s'", tf.err);
	trace_file_free(&tf);
	recs[3].lock = 0xffff888012345678ULL;
	/* A lock's address is a kernel address: only with --kernel-addrs. */
	recs[3].stack = GT_NO_STACK;
	synth_write(path, &recs[3], 1, GT_F_WAITS);
	CHECK(trace_file_read(&tf, path) == -EINVAL &&
	      strstr(tf.err, "a wait with a lock address, but the header says none"),
	      "a lock address without --kernel-addrs refused: '%s'", tf.err);
	trace_file_free(&tf);
}

/*
 * A file of gupstat before the waits: read as it was, every record a
 * hold; a kind byte there is not read; a waits flag refused.
 */
static void version2(void)
{
	unsigned char *v2 = malloc(good_len);
	size_t len = synth_to_v2(good, good_len, v2), i;
	struct trace_file tf, full;
	bool same = true;
	__u32 wflag = htole32(GT_F_WAITS);

	CHECK(len == good_len - 8, "the version 2 file: 8 bytes of trailer fewer");
	CHECK(trace_file_parse(&tf, v2, len) == 0 && tf.version == 2 && !tf.incomplete,
	      "a version 2 file is read: '%s'", tf.err);
	trace_file_parse(&full, good, good_len);
	for (i = 0; i < full.nr_recs && tf.recs && i < tf.nr_recs; i++)
		same &= !memcmp(&tf.recs[i], &full.recs[i], sizeof(full.recs[i]));
	CHECK(tf.nr_recs == full.nr_recs && tf.nr_waits == 0 && same && tf.nr_stacks == 2 &&
	      tf.nr_cgroups == 2, "its %zu holds, stacks and cgroups as version 3's", tf.nr_recs);
	trace_file_free(&tf);
	CHECK(trace_file_parse(&tf, v2, len - 1) == 0 && tf.incomplete && tf.nr_recs == full.nr_recs,
	      "a version 2 file cut before its end: its records recovered");
	trace_file_free(&tf);
	memcpy(v2 + offsetof(struct gt_header, flags), &wflag, 4);
	CHECK(trace_file_parse(&tf, v2, len) == -EINVAL && strstr(tf.err, "version 2 files have none"),
	      "a version 2 header with the waits flag refused: '%s'", tf.err);
	trace_file_free(&tf);
	trace_file_free(&full);
	free(v2);
}

int main(void)
{
	struct trace_rec recs[5];
	size_t i;

	path = scratch_file("t.gt");
	roundtrip();
	kernel_addrs();
	for (i = 0; i < 5; i++)
		recs[i] = synth_rec(i, 1000 + i);
	synth_write(path, recs, 5, 0);
	load();
	truncations();
	corruptions();
	clocks();
	version1();
	version2();
	waits();
	cgroups();
	cgroup_too_long();
	free(good);
	return check_done();
}
