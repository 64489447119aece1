// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a trace file (include/gupstat_tracefile.h). The input is
 * untrusted: every length, count and offset is checked against what is
 * left of the file before it is used, every string for printable
 * ASCII, and every cross-reference (record -> stack) for existence. The
 * first problem found is described in one line in tf->err. A file is
 * read through a window of WINDOW_SIZE bytes, records one at a time, so
 * that a trace of any size takes the same memory. This file and
 * util/input.c link alone into the fuzz target (tests/fuzz/), so they
 * depend on libc only.
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tracefile/clock.h"
#include "tracefile/reader.h"
#include "util/input.h"

_Static_assert(sizeof(struct gt_header) == 56, "gt_header layout");
_Static_assert(sizeof(struct gt_string) == 4, "gt_string layout");
_Static_assert(sizeof(struct gt_record) == 96, "gt_record layout");
_Static_assert(offsetof(struct gt_record, cgroup) == GT_RECORD_V1_SIZE, "gt_record v1 prefix");
_Static_assert(sizeof(struct gt_cgroup) == 16, "gt_cgroup layout");
_Static_assert(sizeof(struct gt_trailer_v1) == 64, "gt_trailer_v1 layout");
_Static_assert(sizeof(struct gt_stack) == 8, "gt_stack layout");
_Static_assert(sizeof(struct gt_frame) == 16, "gt_frame layout");
_Static_assert(sizeof(struct gt_trailer_v2) == 80, "gt_trailer_v2 layout");
_Static_assert(sizeof(struct gt_trailer) == 88, "gt_trailer layout");
_Static_assert(sizeof(struct gt_wait) == sizeof(struct gt_record), "gt_wait layout");
/* As before the waits: the spool's 64 MB still queue 699050 records. */
_Static_assert(sizeof(struct trace_rec) == 96, "trace_rec: the kinds share their room");
_Static_assert(offsetof(struct gt_wait, kind) == offsetof(struct gt_record, kind) &&
	       offsetof(struct gt_wait, pid) == offsetof(struct gt_record, pid) &&
	       offsetof(struct gt_wait, tid) == offsetof(struct gt_record, tid) &&
	       offsetof(struct gt_wait, cpu) == offsetof(struct gt_record, cpu) &&
	       offsetof(struct gt_wait, stack) == offsetof(struct gt_record, stack) &&
	       offsetof(struct gt_wait, flags) == offsetof(struct gt_record, flags) &&
	       offsetof(struct gt_wait, comm) == offsetof(struct gt_record, comm) &&
	       offsetof(struct gt_wait, cgroup) == offsetof(struct gt_record, cgroup),
	       "a wait's task fields where a hold has them");

/* Reads go through a window of this size: the most any read takes. */
#define WINDOW_SIZE	(1U << 20)
/* A header with the most strings there can be. */
#define HEADER_MAX	(sizeof(struct gt_header) + \
			 GT_STRINGS_MAX * (sizeof(struct gt_string) + GT_KEY_MAX + GT_VALUE_MAX))
/*
 * The stack table is kept whole. The tracer's stack map has 4096
 * entries of 32 frames (src/trace/trace.c, TRACE_STACK_DEPTH): with
 * names of 100 characters, 15 MB. A larger table is refused.
 */
#define STACK_TABLE_MAX	(16U << 20)
/* Sixteen times the stacks the tracer's map can hold. */
#define STACKS_MAX	65536U

/* A section of the input [pos, end) that only shrinks from the front. */
struct cursor {
	struct trace_src *src;
	__u64 pos, end;
};

/*
 * @n bytes at @off (the caller has checked they are in the file), or
 * NULL with src->err set. The window moves only when they are not in it.
 */
static const __u8 *src_at(struct trace_src *s, __u64 off, size_t n)
{
	size_t want, got = 0;
	ssize_t r;

	if (s->mem)
		return s->mem + off;
	if (off >= s->win_off && off + n <= s->win_off + s->win_len)
		return s->win + (off - s->win_off);
	want = s->size - off < WINDOW_SIZE ? s->size - off : WINDOW_SIZE;
	s->win_len = 0;
	while (got < want) {
		r = pread(s->fd, s->win + got, want - got, off + got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			/* 0: the file shrank under us; nothing more to read. */
			s->err = r < 0 ? errno : EIO;
			return NULL;
		}
		got += r;
	}
	s->win_off = off;
	s->win_len = got;
	return got >= n ? s->win : NULL;
}

static int fail(struct trace_file *tf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tf->err, sizeof(tf->err), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The next @n bytes, or NULL (and nothing consumed) if there are fewer. */
static const void *take(struct cursor *c, size_t n)
{
	const void *p;

	if (n > c->end - c->pos)
		return NULL;
	p = src_at(c->src, c->pos, n);
	if (p)
		c->pos += n;
	return p;
}

static __u64 left(const struct cursor *c)
{
	return c->end - c->pos;
}

static __u16 le16_at(const void *p)
{
	__u16 v;

	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

static __u32 le32_at(const void *p)
{
	__u32 v;

	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

static __u64 le64_at(const void *p)
{
	__u64 v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

/*
 * Fields are read through byte pointers, never a member access: the input
 * buffer has no alignment, and a misaligned struct access is undefined.
 */
#define AT(s, f)	((const __u8 *)(s) + offsetof(__typeof__(*(s)), f))
#define LE16(s, f)	le16_at((const __u8 *)(s) + offsetof(__typeof__(*(s)), f))
#define LE32(s, f)	le32_at((const __u8 *)(s) + offsetof(__typeof__(*(s)), f))
#define LE64(s, f)	le64_at((const __u8 *)(s) + offsetof(__typeof__(*(s)), f))

static bool printable(const __u8 *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

/*
 * A copy of @n checked bytes as a C string, or NULL (tf->err set): into
 * @arena, whose room the caller has checked, or else allocated.
 */
static char *take_string(struct trace_file *tf, struct cursor *c, size_t n,
			 const char *what, char *arena)
{
	const __u8 *s = take(c, n);
	char *copy = arena;

	if (!s) {
		fail(tf, "truncated: %s of %zu bytes runs past its section", what, n);
		return NULL;
	}
	if (!printable(s, n)) {
		fail(tf, "%s is not printable text", what);
		return NULL;
	}
	if (!copy)
		copy = malloc(n + 1);
	if (!copy) {
		fail(tf, "out of memory");
		return NULL;
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	return copy;
}

static int parse_string(struct trace_file *tf, struct cursor *c, __u32 i)
{
	const struct gt_string *s = take(c, sizeof(*s));
	struct trace_kv *kv = &tf->strings[i];
	__u16 klen, vlen;
	char what[32];

	if (!s)
		return fail(tf, "truncated: header string %u is cut off", i);
	klen = LE16(s, key_len);
	vlen = LE16(s, value_len);
	if (klen == 0 || klen > GT_KEY_MAX)
		return fail(tf, "header string %u: key length %u is not 1 to %d", i, klen, GT_KEY_MAX);
	if (vlen > GT_VALUE_MAX)
		return fail(tf, "header string %u: value length %u is over %d", i, vlen, GT_VALUE_MAX);
	snprintf(what, sizeof(what), "header key %u", i);
	kv->key = take_string(tf, c, klen, what, NULL);
	if (!kv->key)
		return -EINVAL;
	snprintf(what, sizeof(what), "header value %u", i);
	kv->value = take_string(tf, c, vlen, what, NULL);
	return kv->value ? 0 : -EINVAL;
}

static int parse_strings(struct trace_file *tf, struct cursor *c, __u32 nr)
{
	static const char *const required[] = { "kernel", "method", "gupstat" };
	size_t i;
	int err;

	if (nr > GT_STRINGS_MAX)
		return fail(tf, "header claims %u strings, more than %d", nr, GT_STRINGS_MAX);
	tf->strings = calloc(nr ? nr : 1, sizeof(*tf->strings));
	if (!tf->strings)
		return fail(tf, "out of memory");
	for (tf->nr_strings = 0; tf->nr_strings < nr; tf->nr_strings++) {
		err = parse_string(tf, c, tf->nr_strings);
		if (err) {
			tf->nr_strings++;	/* free what it holds */
			return err;
		}
	}
	if (left(c))
		return fail(tf, "header size leaves %llu bytes after its strings",
			    (unsigned long long)left(c));
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!trace_file_string(tf, required[i]))
			return fail(tf, "header lacks the '%s' string", required[i]);
	return 0;
}

/* Version 1 lacks the cgroup, version 2 the wait count: shorter trailers. */
static size_t trailer_size(const struct trace_file *tf)
{
	return tf->version == GT_VERSION_V1 ? sizeof(struct gt_trailer_v1) :
	       tf->version == GT_VERSION_V2 ? sizeof(struct gt_trailer_v2) :
	       sizeof(struct gt_trailer);
}

static int check_header_fields(struct trace_file *tf, const struct gt_header *h,
			       __u32 header_size, __u64 len)
{
	__u32 record_size = LE32(h, record_size);

	if (memcmp(AT(h, magic), GT_MAGIC, sizeof(h->magic)))
		return fail(tf, "not a gupstat trace file (bad magic)");
	if (tf->version != GT_VERSION && tf->version != GT_VERSION_V2 &&
	    tf->version != GT_VERSION_V1)
		return fail(tf, "format version %u, this gupstat reads versions %d to %d",
			    tf->version, GT_VERSION_V1, GT_VERSION);
	tf->rec_size = tf->version == GT_VERSION_V1 ? GT_RECORD_V1_SIZE : sizeof(struct gt_record);
	if (header_size < sizeof(*h) || header_size > len)
		return fail(tf, "header size %u is outside the file (%llu bytes)", header_size,
			    (unsigned long long)len);
	if (header_size > HEADER_MAX)
		return fail(tf, "header size %u is more than %d strings can take (%zu bytes)",
			    header_size, GT_STRINGS_MAX, HEADER_MAX);
	if (record_size != tf->rec_size)
		return fail(tf, "record size %u, version %u records are %zu bytes",
			    record_size, tf->version, tf->rec_size);
	if (tf->flags & ~GT_F_ALL)
		return fail(tf, "unknown header flags 0x%x", tf->flags & ~GT_F_ALL);
	if ((tf->flags & GT_F_WAITS) && tf->version != GT_VERSION)
		return fail(tf, "header says waits were traced, but version %u files have none",
			    tf->version);
	/* Every time in the file is on it: unknown, none can be placed. */
	if (!trace_clock_name(tf->clock_id))
		return fail(tf, "timestamps on clock id %u, which this gupstat does not know "
			    "(it reads CLOCK_MONOTONIC and CLOCK_BOOTTIME): a file from another tool or a newer gupstat",
			    tf->clock_id);
	return 0;
}

static int parse_header(struct trace_file *tf, size_t *header_size)
{
	__u64 len = tf->src.size;
	const struct gt_header *h;
	struct cursor c;
	__u32 nr;
	int err;

	if (len < sizeof(*h))
		return fail(tf, "truncated: %llu bytes, shorter than the %zu-byte header",
			    (unsigned long long)len, sizeof(*h));
	h = (const void *)src_at(&tf->src, 0, sizeof(*h));
	if (!h)
		return -EIO;
	tf->version = LE32(h, version);
	tf->flags = LE32(h, flags);
	tf->clock_id = LE32(h, clock_id);
	tf->start_ns = LE64(h, start_ns);
	tf->start_realtime_ns = LE64(h, start_realtime_ns);
	tf->min_ns = LE64(h, min_ns);
	nr = LE32(h, nr_strings);
	*header_size = LE32(h, header_size);
	err = check_header_fields(tf, h, *header_size, len);
	if (err)
		return err;
	c = (struct cursor){ &tf->src, sizeof(*h), *header_size };
	return parse_strings(tf, &c, nr);
}

/* A trailer's magic where the trailer would be: the tracer ended cleanly. */
static bool has_trailer(struct trace_file *tf, size_t header_size)
{
	size_t size = trailer_size(tf);
	const __u8 *t;

	if (tf->src.size - header_size < size)
		return false;
	t = src_at(&tf->src, tf->src.size - size, size);
	return t && !memcmp(t + offsetof(struct gt_trailer, magic), GT_TRAILER_MAGIC,
			    sizeof(GT_TRAILER_MAGIC) - 1);
}

/*
 * Where the two tables start: a version 1 file has no cgroup table, as
 * if an empty one started at the trailer. The stack table ends where
 * the cgroup table starts.
 */
static int parse_tables(struct trace_file *tf, const struct gt_trailer *t,
			__u64 *stacks_offset, __u64 *cgroups_offset)
{
	__u64 end = tf->src.size - trailer_size(tf);

	if (tf->version == GT_VERSION_V1) {
		const struct gt_trailer_v1 *t1 = (const void *)t;

		tf->nr_stacks = LE32(t1, nr_stacks);
		*cgroups_offset = end;
		return 0;
	}
	if (tf->version == GT_VERSION_V2) {
		const struct gt_trailer_v2 *t2 = (const void *)t;

		tf->nr_stacks = LE32(t2, nr_stacks);
		tf->nr_cgroups = LE32(t2, nr_cgroups);
		*cgroups_offset = LE64(t2, cgroups_offset);
		if (LE32(t2, reserved))
			return fail(tf, "trailer: reserved field is 0x%x, not 0", LE32(t2, reserved));
	} else {
		tf->nr_stacks = LE32(t, nr_stacks);
		tf->nr_cgroups = LE32(t, nr_cgroups);
		*cgroups_offset = LE64(t, cgroups_offset);
		if (LE32(t, reserved))
			return fail(tf, "trailer: reserved field is 0x%x, not 0", LE32(t, reserved));
	}
	if (*cgroups_offset < *stacks_offset || *cgroups_offset > end)
		return fail(tf, "cgroup table offset %llu is outside the file",
			    (unsigned long long)*cgroups_offset);
	return 0;
}

static int parse_trailer(struct trace_file *tf, size_t header_size, __u64 *stacks_offset,
			 __u64 *cgroups_offset)
{
	__u64 len = tf->src.size;
	size_t size = trailer_size(tf);
	const struct gt_trailer *t;
	__u32 said;

	t = (const void *)src_at(&tf->src, len - size, size);
	if (!t)
		return -EIO;
	/* The last field of either version. */
	said = le32_at((const __u8 *)t + size - 4);
	if (said != size)
		return fail(tf, "trailer size %u, want %zu", said, size);
	tf->lost = LE64(t, lost);
	tf->below_min = LE64(t, below_min);
	tf->stack_errors = LE64(t, stack_errors);
	tf->end_ns = LE64(t, end_ns);
	*stacks_offset = LE64(t, stacks_offset);
	if (*stacks_offset < header_size || *stacks_offset > len - size)
		return fail(tf, "stack table offset %llu is outside the file",
			    (unsigned long long)*stacks_offset);
	if (parse_tables(tf, t, stacks_offset, cgroups_offset))
		return -EINVAL;
	if ((*stacks_offset - header_size) / tf->rec_size != LE64(t, records) ||
	    (*stacks_offset - header_size) % tf->rec_size)
		return fail(tf, "trailer counts %llu records, the file holds %llu bytes of them",
			    (unsigned long long)LE64(t, records),
			    (unsigned long long)(*stacks_offset - header_size));
	tf->nr_recs = LE64(t, records);
	if (tf->version == GT_VERSION) {
		if (LE64(t, waits) > tf->nr_recs)
			return fail(tf, "trailer counts %llu waits among %zu records",
				    (unsigned long long)LE64(t, waits), tf->nr_recs);
		tf->nr_waits = LE64(t, waits);
	}
	tf->recs_max = tf->nr_recs;
	tf->counted = true;
	return 0;
}

static int parse_frame(struct trace_file *tf, struct cursor *c,
		       struct trace_frame *f, __u32 id)
{
	const struct gt_frame *g = take(c, sizeof(*g));
	__u16 len;

	if (!g)
		return fail(tf, "truncated: stack %u is cut off", id);
	f->addr = LE64(g, addr);
	len = LE16(g, name_len);
	if (f->addr && !(tf->flags & GT_F_KERNEL_ADDRS))
		return fail(tf, "stack %u has a kernel address, but the header says none were written", id);
	if (len == 0 || len > GT_NAME_MAX)
		return fail(tf, "stack %u: frame name length %u is not 1 to %d", id, len, GT_NAME_MAX);
	/* The arena has room: a name takes 16 bytes more in the table. */
	f->name = take_string(tf, c, len, "a frame name", tf->names + tf->names_used);
	if (!f->name)
		return -EINVAL;
	tf->names_used += len + 1;
	return 0;
}

static int parse_stack(struct trace_file *tf, struct cursor *c, __u32 i)
{
	const struct gt_stack *s = take(c, sizeof(*s));
	struct trace_stack *st = &tf->stacks[i];
	__u32 n;
	int err;

	if (!s)
		return fail(tf, "truncated: stack table entry %u is cut off", i);
	st->id = LE32(s, id);
	n = LE16(s, nr_frames);
	if (i && st->id <= tf->stacks[i - 1].id)
		return fail(tf, "stack table ids are not ascending at entry %u", i);
	if (st->id == GT_NO_STACK)
		return fail(tf, "stack table entry %u uses the reserved id", i);
	if (n > GT_FRAMES_MAX)
		return fail(tf, "stack %u has %u frames, more than %d", st->id, n, GT_FRAMES_MAX);
	st->frames = calloc(n ? n : 1, sizeof(*st->frames));
	if (!st->frames)
		return fail(tf, "out of memory");
	for (st->nr_frames = 0; st->nr_frames < n; st->nr_frames++) {
		err = parse_frame(tf, c, &st->frames[st->nr_frames], st->id);
		if (err) {
			st->nr_frames++;	/* free its name, if any */
			return err;
		}
	}
	return 0;
}

static int parse_stacks(struct trace_file *tf, struct cursor *c)
{
	__u32 nr = tf->nr_stacks;
	int err;

	if (left(c) > STACK_TABLE_MAX)
		return fail(tf, "stack table of %llu bytes, more than the %u MB a trace's stacks can take",
			    (unsigned long long)left(c), STACK_TABLE_MAX >> 20);
	if (nr > STACKS_MAX)
		return fail(tf, "trailer counts %u stacks, more than the %u a trace can have",
			    nr, STACKS_MAX);
	/* Each entry takes at least 8 bytes: a bound before allocating. */
	if (nr > left(c) / sizeof(struct gt_stack))
		return fail(tf, "trailer counts %u stacks, the stack table has room for %llu",
			    nr, (unsigned long long)(left(c) / sizeof(struct gt_stack)));
	tf->stacks = calloc(nr ? nr : 1, sizeof(*tf->stacks));
	tf->names = malloc(left(c) + 1);
	if (!tf->stacks || !tf->names)
		return fail(tf, "out of memory");
	for (tf->nr_stacks = 0; tf->nr_stacks < nr; tf->nr_stacks++) {
		err = parse_stack(tf, c, tf->nr_stacks);
		if (err) {
			tf->nr_stacks++;
			return err;
		}
	}
	if (left(c))
		return fail(tf, "%llu bytes after the stack table",
			    (unsigned long long)left(c));
	return 0;
}

static int parse_cgroup(struct trace_file *tf, struct cursor *c, __u32 i)
{
	const struct gt_cgroup *g = take(c, sizeof(*g));
	struct trace_cgroup *cg = &tf->cgroups[i];
	__u16 len;

	if (!g)
		return fail(tf, "truncated: cgroup table entry %u is cut off", i);
	cg->id = LE64(g, id);
	len = LE16(g, path_len);
	if (i && cg->id <= tf->cgroups[i - 1].id)
		return fail(tf, "cgroup table ids are not ascending at entry %u", i);
	if (LE16(g, reserved[0]) || LE16(g, reserved[1]) || LE16(g, reserved[2]))
		return fail(tf, "cgroup %llu: reserved field not 0", (unsigned long long)cg->id);
	if (len == 0 || len > GT_CGPATH_MAX)
		return fail(tf, "cgroup %llu: path length %u is not 1 to %d",
			    (unsigned long long)cg->id, len, GT_CGPATH_MAX);
	/* The arena has room: a path takes 16 bytes more in the table. */
	cg->path = take_string(tf, c, len, "a cgroup path", tf->cgpaths + tf->cgpaths_used);
	if (!cg->path)
		return -EINVAL;
	tf->cgpaths_used += len + 1;
	if (cg->path[0] != '/')
		return fail(tf, "cgroup %llu: path '%.64s' does not start with '/'",
			    (unsigned long long)cg->id, cg->path);
	return 0;
}

static int parse_cgroups(struct trace_file *tf, struct cursor *c)
{
	__u32 nr = tf->nr_cgroups;
	int err;

	tf->nr_cgroups = 0;
	if (left(c) > GT_CGROUP_TABLE_MAX)
		return fail(tf, "cgroup table of %llu bytes, more than the %u MB a trace's cgroups can take",
			    (unsigned long long)left(c), GT_CGROUP_TABLE_MAX >> 20);
	if (nr > GT_CGROUPS_MAX)
		return fail(tf, "trailer counts %u cgroups, more than the %u a trace can have",
			    nr, GT_CGROUPS_MAX);
	/* Each entry takes at least 17 bytes: a bound before allocating. */
	if (nr > left(c) / (sizeof(struct gt_cgroup) + 1))
		return fail(tf, "trailer counts %u cgroups, the cgroup table has room for %llu",
			    nr, (unsigned long long)(left(c) / (sizeof(struct gt_cgroup) + 1)));
	tf->cgroups = calloc(nr ? nr : 1, sizeof(*tf->cgroups));
	tf->cgpaths = malloc(left(c) + 1);
	if (!tf->cgroups || !tf->cgpaths)
		return fail(tf, "out of memory");
	for (; tf->nr_cgroups < nr; tf->nr_cgroups++) {
		err = parse_cgroup(tf, c, tf->nr_cgroups);
		if (err)
			return err;
	}
	if (left(c))
		return fail(tf, "%llu bytes between the cgroup table and the trailer",
			    (unsigned long long)left(c));
	return 0;
}

/* What a hold and a wait share: the task, its command, its stack. */
static int check_task(struct trace_file *tf, const struct trace_rec *r, size_t i)
{
	if (!memchr(r->comm, '\0', sizeof(r->comm)))
		return fail(tf, "record %zu: command name is not terminated", i);
	if (!printable((const __u8 *)r->comm, strlen(r->comm)))
		return fail(tf, "record %zu: command name is not printable", i);
	if (r->stack != GT_NO_STACK && !trace_file_stack(tf, r->stack))
		return fail(tf, "record %zu refers to stack %u, which the stack table lacks", i, r->stack);
	return 0;
}

/*
 * A wait, like a hold, has a start and a task; and the hold it names
 * has them too. Its start is not checked against the hold's: with
 * --lock-exact the hold starts when the acquire's probe returns, which
 * a waiter may beat.
 */
static int check_wait(struct trace_file *tf, const struct trace_rec *r, size_t i)
{
	if (!r->ts_ns || !r->tid)
		return fail(tf, "record %zu: start %llu ns, thread %u: not a wait (zero bytes?)",
			    i, (unsigned long long)r->ts_ns, r->tid);
	if (!(tf->flags & GT_F_WAITS))
		return fail(tf, "record %zu: a wait, but the header says waits were not traced", i);
	if (!r->hold_ts_ns || !r->holder_tid)
		return fail(tf, "record %zu: a wait on the hold of thread %u at %llu ns: no such hold",
			    i, r->holder_tid, (unsigned long long)r->hold_ts_ns);
	if (r->flags)
		return fail(tf, "record %zu: unknown wait flags 0x%x", i, r->flags);
	if (r->lock && !(tf->flags & GT_F_KERNEL_ADDRS))
		return fail(tf, "record %zu: a wait with a lock address, but the header says none were written", i);
	return check_task(tf, r, i);
}

static int check_record(struct trace_file *tf, const struct trace_rec *r, size_t i)
{
	if (r->kind == GT_KIND_WAIT)
		return check_wait(tf, r, i);
	/*
	 * Every hold has a start time and a task: the idle task (thread 0)
	 * walks no page tables. So zero bytes, a hole in a sparse file or
	 * a disk's preallocation, never pass for a hold.
	 */
	if (!r->ts_ns || !r->tid)
		return fail(tf, "record %zu: start %llu ns, thread %u: not a hold (zero bytes?)",
			    i, (unsigned long long)r->ts_ns, r->tid);
	if (r->flags & ~GT_R_ALL)
		return fail(tf, "record %zu: unknown flags 0x%x", i, r->flags & ~GT_R_ALL);
	if (r->result >= GT_RESULTS)
		return fail(tf, "record %zu: unknown walk result %u", i, r->result);
	if (r->stored > r->pages)
		return fail(tf, "record %zu: %u pages stored of %u walked", i, r->stored, r->pages);
	if ((r->flags & GT_R_WAITED) && !(tf->flags & GT_F_WAITS))
		return fail(tf, "record %zu: a hold waited on, but the header says waits were not traced", i);
	return check_task(tf, r, i);
}

static void decode_wait(struct trace_rec *r, const struct gt_wait *g)
{
	memset(r, 0, sizeof(*r));
	r->kind = GT_KIND_WAIT;
	r->ts_ns = LE64(g, ts_ns);
	r->wait_ns = LE64(g, wait_ns);
	r->hold_ts_ns = LE64(g, hold_ts_ns);
	r->lock = LE64(g, lock);
	r->pid = LE32(g, pid);
	r->tid = LE32(g, tid);
	r->cpu = LE32(g, cpu);
	r->holder_pid = LE32(g, holder_pid);
	r->holder_tid = LE32(g, holder_tid);
	r->stack = LE32(g, stack);
	r->flags = LE16(g, flags);
	memcpy(r->comm, AT(g, comm), sizeof(r->comm));
	r->cgroup = LE64(g, cgroup);
}

/* A version 3 wait's unused bytes, which a hold's fields would be. */
static bool wait_reserved(const struct gt_wait *g)
{
	return LE32(g, reserved0) || LE32(g, reserved1) || *AT(g, reserved2) ||
	       LE32(g, reserved3);
}

/*
 * @g is tf->rec_size bytes: a version 1 record stops before "cgroup".
 * The kind byte is read from version 3 on: before, it was reserved, and
 * a finished file's was never checked.
 */
static void decode_record(const struct trace_file *tf, struct trace_rec *r,
			  const struct gt_record *g)
{
	if (tf->version == GT_VERSION && *AT(g, kind) == GT_KIND_WAIT) {
		decode_wait(r, (const void *)g);
		return;
	}
	memset(r, 0, sizeof(*r));
	r->kind = tf->version == GT_VERSION ? *AT(g, kind) : GT_KIND_HOLD;
	r->ts_ns = LE64(g, ts_ns);
	r->hold_ns = LE64(g, hold_ns);
	r->fill_ns = LE64(g, fill_ns);
	r->addr = LE64(g, addr);
	r->pid = LE32(g, pid);
	r->tid = LE32(g, tid);
	r->cpu = LE32(g, cpu);
	r->pages = LE32(g, pages);
	r->stored = LE32(g, stored);
	r->gup_flags = LE32(g, gup_flags);
	r->stack = LE32(g, stack);
	r->fills = LE32(g, fills);
	r->flags = LE16(g, flags);
	r->result = *AT(g, result);
	memcpy(r->comm, AT(g, comm), sizeof(r->comm));
	r->cgroup = tf->version == GT_VERSION_V1 ? 0 : LE64(g, cgroup);
}

/*
 * Whether record @i of a file without a trailer is one, or where its
 * records end: a record half written, zero bytes, or the start of a
 * stack table cut short (whose bytes fail the checks: names are not NUL
 * and zero reserved fields). Its stack was never written: the record
 * keeps none.
 */
static bool recovered(struct trace_file *tf, struct trace_rec *r, const struct gt_record *g,
		      size_t i)
{
	__u64 end, len;

	if (r->kind == GT_KIND_WAIT ? wait_reserved((const void *)g) :
	    r->kind != GT_KIND_HOLD || *AT(g, kind) || LE32(g, reserved1))
		return false;
	r->stack = GT_NO_STACK;
	if (check_record(tf, r, i)) {
		tf->err[0] = '\0';
		return false;
	}
	/* Saturated: a hold or wait that runs past 2^64 ns ends at the end of time. */
	len = r->kind == GT_KIND_WAIT ? r->wait_ns : r->hold_ns;
	end = r->ts_ns + len < r->ts_ns ? ~0ULL : r->ts_ns + len;
	if (!tf->counted && end > tf->end_ns)
		tf->end_ns = end;
	return true;
}

/*
 * An incomplete trace's records end here: now they are counted. A
 * complete one's trailer said how many were waits: a whole pass checks.
 */
static int end_of_records(struct trace_file *tf)
{
	if (!tf->counted) {
		tf->nr_recs = tf->next;
		tf->nr_waits = tf->pass_waits;
		tf->unread = tf->src.size - tf->recs_off - tf->next * tf->rec_size;
		tf->counted = true;
	} else if (tf->next == tf->nr_recs && tf->pass_waits != tf->nr_waits) {
		return fail(tf, "trailer counts %zu waits, the records hold %zu",
			    tf->nr_waits, tf->pass_waits);
	}
	return 0;
}

int trace_file_next(struct trace_file *tf, struct trace_rec *r)
{
	const struct gt_record *g;

	if (tf->recs) {
		if (tf->next >= tf->nr_recs)
			return 0;
		*r = tf->recs[tf->next++];
		return 1;
	}
	if ((tf->counted && tf->next >= tf->nr_recs) || tf->next >= tf->recs_max)
		return end_of_records(tf);
	g = (const void *)src_at(&tf->src, tf->recs_off + tf->next * tf->rec_size, tf->rec_size);
	if (!g)
		return fail(tf, "cannot read record %zu: %s", tf->next, strerror(tf->src.err));
	decode_record(tf, r, g);
	if (tf->incomplete) {
		if (!recovered(tf, r, g, tf->next))
			return end_of_records(tf);
	} else if (r->kind != GT_KIND_HOLD && r->kind != GT_KIND_WAIT) {
		return fail(tf, "record %zu: unknown kind %u", tf->next, r->kind);
	} else if (check_record(tf, r, tf->next)) {
		return -EINVAL;
	}
	if (r->kind == GT_KIND_WAIT)
		tf->pass_waits++;
	tf->next++;
	return 1;
}

void trace_file_rewind(struct trace_file *tf)
{
	tf->next = 0;
	tf->pass_waits = 0;
}

/* Header, trailer and stacks; the records are left for trace_file_next(). */
static int open_src(struct trace_file *tf)
{
	__u64 stacks_offset = 0, cgroups_offset = 0;
	size_t header_size = 0;
	struct cursor c;
	int err;

	err = parse_header(tf, &header_size);
	tf->recs_off = header_size;
	if (!err && !has_trailer(tf, header_size)) {
		tf->incomplete = true;
		tf->end_ns = tf->start_ns;
		tf->recs_max = (tf->src.size - header_size) / tf->rec_size;
	} else if (!err) {
		err = parse_trailer(tf, header_size, &stacks_offset, &cgroups_offset);
	}
	if (!err && !tf->incomplete) {
		c = (struct cursor){ &tf->src, stacks_offset, cgroups_offset };
		err = parse_stacks(tf, &c);
	}
	if (!err && !tf->incomplete) {
		c = (struct cursor){ &tf->src, cgroups_offset, tf->src.size - trailer_size(tf) };
		err = parse_cgroups(tf, &c);
	}
	if (tf->src.err)
		return fail(tf, "cannot read it: %s", strerror(tf->src.err));
	return err;
}

/* Free all but the message. */
static int failed(struct trace_file *tf, int err)
{
	char msg[sizeof(tf->err)];

	memcpy(msg, tf->err, sizeof(msg));
	trace_file_free(tf);
	memcpy(tf->err, msg, sizeof(msg));
	return err;
}

/* Every record into tf->recs: memory as the file's size. */
static int load_records(struct trace_file *tf)
{
	struct trace_rec *recs = calloc(tf->recs_max ? tf->recs_max : 1, sizeof(*recs));
	size_t n = 0;
	int ret;

	if (!recs)
		return fail(tf, "out of memory for %zu records", tf->recs_max);
	while ((ret = trace_file_next(tf, &recs[n])) > 0)
		n++;
	if (ret < 0) {
		free(recs);
		return ret;
	}
	tf->recs = recs;
	tf->nr_recs = n;
	trace_file_rewind(tf);
	return 0;
}

int trace_file_parse(struct trace_file *tf, const void *buf, size_t len)
{
	int err;

	memset(tf, 0, sizeof(*tf));
	tf->src = (struct trace_src){ .mem = buf, .fd = -1, .size = len };
	err = open_src(tf);
	if (!err)
		err = load_records(tf);
	return err ? failed(tf, err) : 0;
}

int trace_file_open(struct trace_file *tf, const char *path)
{
	__u64 size;
	int fd, err;

	memset(tf, 0, sizeof(*tf));
	err = input_open(path, "a trace file", &fd, &size, tf->err, sizeof(tf->err));
	if (err)
		return err;
	tf->src = (struct trace_src){ .fd = fd, .owns_fd = true, .size = size,
				      .win = malloc(WINDOW_SIZE) };
	if (!tf->src.win)
		err = fail(tf, "out of memory");
	if (!err)
		err = open_src(tf);
	return err ? failed(tf, err) : 0;
}

int trace_file_read(struct trace_file *tf, const char *path)
{
	int err = trace_file_open(tf, path);

	if (!err)
		err = load_records(tf);
	return err ? failed(tf, err) : 0;
}

void trace_file_free(struct trace_file *tf)
{
	__u32 i;

	for (i = 0; tf->strings && i < tf->nr_strings; i++) {
		free(tf->strings[i].key);
		free(tf->strings[i].value);
	}
	for (i = 0; tf->stacks && i < tf->nr_stacks; i++)
		free(tf->stacks[i].frames);
	free(tf->strings);
	free(tf->stacks);
	free(tf->names);
	free(tf->cgroups);
	free(tf->cgpaths);
	free(tf->recs);
	free(tf->src.win);
	if (tf->src.owns_fd)
		close(tf->src.fd);
	memset(tf, 0, sizeof(*tf));
}

const char *trace_file_string(const struct trace_file *tf, const char *key)
{
	__u32 i;

	for (i = 0; i < tf->nr_strings; i++)
		if (tf->strings[i].key && !strcmp(tf->strings[i].key, key))
			return tf->strings[i].value;
	return NULL;
}

const struct trace_stack *trace_file_stack(const struct trace_file *tf, __u32 id)
{
	size_t lo = 0, hi = tf->nr_stacks;

	/* Ids are ascending (checked while parsing): binary search. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tf->stacks[mid].id == id)
			return &tf->stacks[mid];
		if (tf->stacks[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *trace_file_cgroup(const struct trace_file *tf, __u64 id)
{
	size_t lo = 0, hi = tf->nr_cgroups;

	/* Ids are ascending (checked while parsing): binary search. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tf->cgroups[mid].id == id)
			return tf->cgroups[mid].path;
		if (tf->cgroups[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const char *trace_file_cgroup_name(const struct trace_file *tf, __u64 id,
				   char *buf, size_t len)
{
	const char *path;

	if (tf->version == GT_VERSION_V1)
		return "?";
	path = trace_file_cgroup(tf, id);
	if (path)
		return path;
	snprintf(buf, len, "id:%llu", (unsigned long long)id);
	return buf;
}
