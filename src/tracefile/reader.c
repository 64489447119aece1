// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a trace file (include/gupstat_tracefile.h). The input is
 * untrusted: every length, count and offset is checked against what is
 * left of the buffer before it is used, every string for printable
 * ASCII, and every cross-reference (record -> stack) for existence. The
 * first problem found is described in one line in tf->err. This file
 * and util/input.c link alone into the fuzz target (tests/fuzz/), so
 * they depend on libc only.
 */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tracefile/reader.h"
#include "util/input.h"

_Static_assert(sizeof(struct gt_header) == 56, "gt_header layout");
_Static_assert(sizeof(struct gt_string) == 4, "gt_string layout");
_Static_assert(sizeof(struct gt_record) == 88, "gt_record layout");
_Static_assert(sizeof(struct gt_stack) == 8, "gt_stack layout");
_Static_assert(sizeof(struct gt_frame) == 16, "gt_frame layout");
_Static_assert(sizeof(struct gt_trailer) == 64, "gt_trailer layout");

/* Files larger than this are refused before reading (1 GiB: 12M holds). */
#define TRACE_FILE_MAX	(1ULL << 30)

/* A window of the input that only shrinks from the front. */
struct cursor {
	const __u8 *p;
	size_t left;
};

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
	const void *p = c->p;

	if (n > c->left)
		return NULL;
	c->p += n;
	c->left -= n;
	return p;
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

/* A copy of @n checked bytes as a C string, or NULL (tf->err set). */
static char *take_string(struct trace_file *tf, struct cursor *c, size_t n,
			 const char *what)
{
	const __u8 *s = take(c, n);
	char *copy;

	if (!s) {
		fail(tf, "truncated: %s of %zu bytes runs past its section", what, n);
		return NULL;
	}
	if (!printable(s, n)) {
		fail(tf, "%s is not printable text", what);
		return NULL;
	}
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
	kv->key = take_string(tf, c, klen, what);
	if (!kv->key)
		return -EINVAL;
	snprintf(what, sizeof(what), "header value %u", i);
	kv->value = take_string(tf, c, vlen, what);
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
	if (c->left)
		return fail(tf, "header size leaves %zu bytes after its strings", c->left);
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!trace_file_string(tf, required[i]))
			return fail(tf, "header lacks the '%s' string", required[i]);
	return 0;
}

static int check_header_fields(struct trace_file *tf, const struct gt_header *h,
			       __u32 header_size, size_t len)
{
	__u32 record_size = LE32(h, record_size);

	if (memcmp(AT(h, magic), GT_MAGIC, sizeof(h->magic)))
		return fail(tf, "not a gupstat trace file (bad magic)");
	if (tf->version != GT_VERSION)
		return fail(tf, "format version %u, this gupstat reads version %d",
			    tf->version, GT_VERSION);
	if (header_size < sizeof(*h) || header_size > len)
		return fail(tf, "header size %u is outside the file (%zu bytes)", header_size, len);
	if (record_size != sizeof(struct gt_record))
		return fail(tf, "record size %u, version %d records are %zu bytes",
			    record_size, GT_VERSION, sizeof(struct gt_record));
	if (tf->flags & ~GT_F_ALL)
		return fail(tf, "unknown header flags 0x%x", tf->flags & ~GT_F_ALL);
	return 0;
}

static int parse_header(struct trace_file *tf, const __u8 *buf, size_t len,
			size_t *header_size)
{
	const struct gt_header *h = (const void *)buf;
	struct cursor c;
	int err;

	if (len < sizeof(*h))
		return fail(tf, "truncated: %zu bytes, shorter than the %zu-byte header",
			    len, sizeof(*h));
	tf->version = LE32(h, version);
	tf->flags = LE32(h, flags);
	tf->clock_id = LE32(h, clock_id);
	tf->start_ns = LE64(h, start_ns);
	tf->start_realtime_ns = LE64(h, start_realtime_ns);
	tf->min_ns = LE64(h, min_ns);
	*header_size = LE32(h, header_size);
	err = check_header_fields(tf, h, *header_size, len);
	if (err)
		return err;
	c.p = buf + sizeof(*h);
	c.left = *header_size - sizeof(*h);
	return parse_strings(tf, &c, LE32(h, nr_strings));
}

/* A trailer's magic where the trailer would be: the tracer ended cleanly. */
static bool has_trailer(const __u8 *buf, size_t len, size_t header_size)
{
	size_t size = sizeof(struct gt_trailer);

	return len - header_size >= size &&
	       !memcmp(buf + len - size + offsetof(struct gt_trailer, magic), GT_TRAILER_MAGIC,
		       sizeof(GT_TRAILER_MAGIC) - 1);
}

static int parse_trailer(struct trace_file *tf, const __u8 *buf, size_t len,
			 size_t header_size, __u64 *stacks_offset)
{
	const struct gt_trailer *t = (const void *)(buf + len - sizeof(*t));

	if (LE32(t, trailer_size) != sizeof(*t))
		return fail(tf, "trailer size %u, want %zu", LE32(t, trailer_size), sizeof(*t));
	tf->lost = LE64(t, lost);
	tf->below_min = LE64(t, below_min);
	tf->stack_errors = LE64(t, stack_errors);
	tf->end_ns = LE64(t, end_ns);
	tf->nr_stacks = LE32(t, nr_stacks);
	*stacks_offset = LE64(t, stacks_offset);
	if (*stacks_offset < header_size || *stacks_offset > len - sizeof(*t))
		return fail(tf, "stack table offset %llu is outside the file",
			    (unsigned long long)*stacks_offset);
	if ((*stacks_offset - header_size) / sizeof(struct gt_record) != LE64(t, records) ||
	    (*stacks_offset - header_size) % sizeof(struct gt_record))
		return fail(tf, "trailer counts %llu records, the file holds %llu bytes of them",
			    (unsigned long long)LE64(t, records),
			    (unsigned long long)(*stacks_offset - header_size));
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
	f->name = take_string(tf, c, len, "a frame name");
	return f->name ? 0 : -EINVAL;
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

	/* Each entry takes at least 8 bytes: a bound before allocating. */
	if (nr > c->left / sizeof(struct gt_stack))
		return fail(tf, "trailer counts %u stacks, the stack table has room for %zu",
			    nr, c->left / sizeof(struct gt_stack));
	tf->stacks = calloc(nr ? nr : 1, sizeof(*tf->stacks));
	if (!tf->stacks)
		return fail(tf, "out of memory");
	for (tf->nr_stacks = 0; tf->nr_stacks < nr; tf->nr_stacks++) {
		err = parse_stack(tf, c, tf->nr_stacks);
		if (err) {
			tf->nr_stacks++;
			return err;
		}
	}
	if (c->left)
		return fail(tf, "%zu bytes between the stack table and the trailer", c->left);
	return 0;
}

static int check_record(struct trace_file *tf, const struct trace_rec *r, size_t i)
{
	if (r->flags & ~GT_R_ALL)
		return fail(tf, "record %zu: unknown flags 0x%x", i, r->flags & ~GT_R_ALL);
	if (r->result >= GT_RESULTS)
		return fail(tf, "record %zu: unknown walk result %u", i, r->result);
	if (r->stored > r->pages)
		return fail(tf, "record %zu: %u pages stored of %u walked", i, r->stored, r->pages);
	if (!memchr(r->comm, '\0', sizeof(r->comm)))
		return fail(tf, "record %zu: command name is not terminated", i);
	if (!printable((const __u8 *)r->comm, strlen(r->comm)))
		return fail(tf, "record %zu: command name is not printable", i);
	if (r->stack != GT_NO_STACK && !trace_file_stack(tf, r->stack))
		return fail(tf, "record %zu refers to stack %u, which the stack table lacks", i, r->stack);
	return 0;
}

static void decode_record(struct trace_rec *r, const struct gt_record *g)
{
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
}

static int parse_records(struct trace_file *tf, const __u8 *p, size_t nr)
{
	size_t i;
	int err;

	tf->recs = calloc(nr ? nr : 1, sizeof(*tf->recs));
	if (!tf->recs)
		return fail(tf, "out of memory for %zu records", nr);
	tf->nr_recs = nr;
	for (i = 0; i < nr; i++) {
		decode_record(&tf->recs[i], (const void *)(p + i * sizeof(struct gt_record)));
		err = check_record(tf, &tf->recs[i], i);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One record of a file without a trailer, or false where its records
 * end: a record half written, or the start of a stack table cut short
 * (whose bytes fail the checks: names are not NUL and zero reserved
 * fields). Its stack was never written: the record keeps none.
 */
static bool recover_record(struct trace_file *tf, const struct gt_record *g, size_t i)
{
	struct trace_rec *r = &tf->recs[i];

	decode_record(r, g);
	if (*AT(g, reserved0) || LE32(g, reserved1))
		return false;
	r->stack = GT_NO_STACK;
	if (check_record(tf, r, i)) {
		tf->err[0] = '\0';
		return false;
	}
	if (r->ts_ns + r->hold_ns > tf->end_ns)
		tf->end_ns = r->ts_ns + r->hold_ns;
	return true;
}

static int parse_incomplete(struct trace_file *tf, const __u8 *buf, size_t len,
			    size_t header_size)
{
	size_t max = (len - header_size) / sizeof(struct gt_record), i;

	tf->incomplete = true;
	tf->end_ns = tf->start_ns;
	tf->recs = calloc(max ? max : 1, sizeof(*tf->recs));
	if (!tf->recs)
		return fail(tf, "out of memory for %zu records", max);
	for (i = 0; i < max; i++)
		if (!recover_record(tf, (const void *)(buf + header_size +
						       i * sizeof(struct gt_record)), i))
			break;
	tf->nr_recs = i;
	tf->unread = len - header_size - i * sizeof(struct gt_record);
	return 0;
}

int trace_file_parse(struct trace_file *tf, const void *buf, size_t len)
{
	size_t header_size = 0;
	__u64 stacks_offset = 0;
	struct cursor c;
	int err;

	memset(tf, 0, sizeof(*tf));
	err = parse_header(tf, buf, len, &header_size);
	if (!err && !has_trailer(buf, len, header_size))
		err = parse_incomplete(tf, buf, len, header_size) ?: 1;	/* done */
	if (!err)
		err = parse_trailer(tf, buf, len, header_size, &stacks_offset);
	if (!err) {
		c.p = (const __u8 *)buf + stacks_offset;
		c.left = len - sizeof(struct gt_trailer) - stacks_offset;
		err = parse_stacks(tf, &c);
	}
	if (!err)
		err = parse_records(tf, (const __u8 *)buf + header_size,
				    (stacks_offset - header_size) / sizeof(struct gt_record));
	if (err < 0) {
		char msg[sizeof(tf->err)];

		memcpy(msg, tf->err, sizeof(msg));
		trace_file_free(tf);
		memcpy(tf->err, msg, sizeof(msg));
	}
	return err > 0 ? 0 : err;
}

int trace_file_read(struct trace_file *tf, const char *path)
{
	struct input in;
	int err;

	memset(tf, 0, sizeof(*tf));
	err = input_read(path, TRACE_FILE_MAX, "a trace file", &in, tf->err, sizeof(tf->err));
	if (!err)
		err = trace_file_parse(tf, in.data, in.len);
	input_free(&in);
	return err;
}

void trace_file_free(struct trace_file *tf)
{
	__u32 i, j;

	for (i = 0; tf->strings && i < tf->nr_strings; i++) {
		free(tf->strings[i].key);
		free(tf->strings[i].value);
	}
	for (i = 0; tf->stacks && i < tf->nr_stacks; i++) {
		for (j = 0; tf->stacks[i].frames && j < tf->stacks[i].nr_frames; j++)
			free(tf->stacks[i].frames[j].name);
		free(tf->stacks[i].frames);
	}
	free(tf->strings);
	free(tf->stacks);
	free(tf->recs);
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
