// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a trace file (include/gupstat_tracefile.h): fixed-width,
 * little-endian fields, whatever the host. What it writes is what
 * reader.c accepts; names and strings are cut and sanitised here so
 * that a reader's checks can be strict.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tracefile/writer.h"

void trace_writer_init(struct trace_writer *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

static void put(struct trace_writer *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->err = errno ? -errno : -EIO;
	w->offset += n;
}

/* @s, at most @max bytes, with anything not printable ASCII as '?'. */
static void put_text(struct trace_writer *w, const char *s, size_t n)
{
	char buf[GT_VALUE_MAX];
	size_t i;

	for (i = 0; i < n && i < sizeof(buf); i++)
		buf[i] = (s[i] >= 0x20 && s[i] <= 0x7e) ? s[i] : '?';
	put(w, buf, i);
}

static size_t clamp(const char *s, size_t max)
{
	size_t n = strlen(s);

	return n < max ? n : max;
}

static size_t strings_size(const struct trace_meta *m)
{
	size_t n = 0;
	__u32 i;

	for (i = 0; i < m->nr_strings; i++)
		n += sizeof(struct gt_string) + clamp(m->strings[i].key, GT_KEY_MAX) +
		     clamp(m->strings[i].value, GT_VALUE_MAX);
	return n;
}

static void put_strings(struct trace_writer *w, const struct trace_meta *m)
{
	__u32 i;

	for (i = 0; i < m->nr_strings; i++) {
		const char *k = m->strings[i].key, *v = m->strings[i].value;
		struct gt_string s = {
			.key_len = htole16(clamp(k, GT_KEY_MAX)),
			.value_len = htole16(clamp(v, GT_VALUE_MAX)),
		};

		put(w, &s, sizeof(s));
		put_text(w, k, clamp(k, GT_KEY_MAX));
		put_text(w, v, clamp(v, GT_VALUE_MAX));
	}
}

void trace_writer_header(struct trace_writer *w, const struct trace_meta *m)
{
	__u32 nr = m->nr_strings < GT_STRINGS_MAX ? m->nr_strings : GT_STRINGS_MAX;
	struct trace_meta cut = *m;
	struct gt_header h = {
		.version = htole32(GT_VERSION),
		.record_size = htole32(sizeof(struct gt_record)),
		.flags = htole32(m->flags & GT_F_ALL),
		.clock_id = htole32(CLOCK_MONOTONIC),
		.nr_strings = htole32(nr),
		.start_ns = htole64(m->start_ns),
		.start_realtime_ns = htole64(m->start_realtime_ns),
		.min_ns = htole64(m->min_ns),
	};

	cut.nr_strings = nr;
	memcpy(h.magic, GT_MAGIC, sizeof(h.magic));
	h.header_size = htole32(sizeof(h) + strings_size(&cut));
	put(w, &h, sizeof(h));
	put_strings(w, &cut);
}

/* A wait: the task's fields where a hold has them (gupstat_tracefile.h). */
static void put_wait(struct trace_writer *w, const struct trace_rec *r)
{
	struct gt_wait g = {
		.ts_ns = htole64(r->ts_ns),
		.wait_ns = htole64(r->wait_ns),
		.hold_ts_ns = htole64(r->hold_ts_ns),
		.lock = htole64(r->lock),
		.pid = htole32(r->pid),
		.tid = htole32(r->tid),
		.cpu = htole32(r->cpu),
		.holder_pid = htole32(r->holder_pid),
		.holder_tid = htole32(r->holder_tid),
		.stack = htole32(r->stack),
		.kind = GT_KIND_WAIT,
		.cgroup = htole64(r->cgroup),
	};

	memcpy(g.comm, r->comm, sizeof(g.comm) - 1);
	put(w, &g, sizeof(g));
	w->nr_recs++;
	w->nr_waits++;
}

void trace_writer_record(struct trace_writer *w, const struct trace_rec *r)
{
	struct gt_record g;

	if (r->kind == GT_KIND_WAIT) {
		put_wait(w, r);
		return;
	}
	g = (struct gt_record){
		.ts_ns = htole64(r->ts_ns),
		.hold_ns = htole64(r->hold_ns),
		.fill_ns = htole64(r->fill_ns),
		.addr = htole64(r->addr),
		.pid = htole32(r->pid),
		.tid = htole32(r->tid),
		.cpu = htole32(r->cpu),
		.pages = htole32(r->pages),
		.stored = htole32(r->stored),
		.gup_flags = htole32(r->gup_flags),
		.stack = htole32(r->stack),
		.fills = htole32(r->fills),
		.flags = htole16(r->flags & GT_R_ALL),
		.result = r->result,
		.kind = GT_KIND_HOLD,
		.cgroup = htole64(r->cgroup),
	};

	/* The kernel's comm is NUL-terminated; make sure of it. */
	memcpy(g.comm, r->comm, sizeof(g.comm) - 1);
	put(w, &g, sizeof(g));
	w->nr_recs++;
}

static void put_frame(struct trace_writer *w, __u64 addr, const char *name)
{
	size_t len = name && *name ? clamp(name, GT_NAME_MAX) : 1;
	struct gt_frame f = {
		.addr = htole64(addr),
		.name_len = htole16(len),
	};

	put(w, &f, sizeof(f));
	put_text(w, name && *name ? name : "?", len);
}

void trace_writer_stack(struct trace_writer *w, __u32 id, __u32 nr,
			const __u64 *addrs, const char *const *names)
{
	struct gt_stack s = { .id = htole32(id) };
	__u32 i;

	if (id == GT_NO_STACK || (w->nr_stacks && id <= w->last_stack) || w->nr_cgroups) {
		w->err = w->err ? w->err : -EINVAL;	/* a caller's bug */
		return;
	}
	if (!w->nr_stacks)
		w->stacks_offset = w->offset;
	if (nr > GT_FRAMES_MAX)
		nr = GT_FRAMES_MAX;
	s.nr_frames = htole16(nr);
	put(w, &s, sizeof(s));
	for (i = 0; i < nr; i++)
		put_frame(w, addrs ? addrs[i] : 0, names[i]);
	w->nr_stacks++;
	w->last_stack = id;
}

/* Where the stack table starts: here, if it is empty and ends now. */
static __u64 stacks_offset(const struct trace_writer *w)
{
	return w->nr_stacks ? w->stacks_offset : w->offset;
}

void trace_writer_cgroup(struct trace_writer *w, __u64 id, const char *path)
{
	size_t len = path ? strlen(path) : 0;
	struct gt_cgroup g = { .id = htole64(id), .path_len = htole16(len) };

	if (w->nr_cgroups && id <= w->last_cgroup) {
		w->err = w->err ? w->err : -EINVAL;	/* a caller's bug */
		return;
	}
	/* Cut, a path would name another cgroup: none is better. */
	if (!len || len > GT_CGPATH_MAX || path[0] != '/' || w->nr_cgroups >= GT_CGROUPS_MAX ||
	    w->cgroup_bytes + sizeof(g) + len > GT_CGROUP_TABLE_MAX)
		return;
	if (!w->nr_cgroups) {
		w->stacks_offset = stacks_offset(w);
		w->cgroups_offset = w->offset;
	}
	put(w, &g, sizeof(g));
	put_text(w, path, len);
	w->cgroup_bytes += sizeof(g) + len;
	w->nr_cgroups++;
	w->last_cgroup = id;
}

int trace_writer_flush(struct trace_writer *w)
{
	if (fflush(w->f) && !w->err)
		w->err = errno ? -errno : -EIO;
	return w->err;
}

int trace_writer_finish(struct trace_writer *w, const struct trace_end *e)
{
	struct gt_trailer t = {
		.records = htole64(w->nr_recs),
		.lost = htole64(e->lost),
		.below_min = htole64(e->below_min),
		.stack_errors = htole64(e->stack_errors),
		.stacks_offset = htole64(w->nr_cgroups ? w->stacks_offset : stacks_offset(w)),
		.end_ns = htole64(e->end_ns),
		.cgroups_offset = htole64(w->nr_cgroups ? w->cgroups_offset : w->offset),
		.waits = htole64(w->nr_waits),
		.nr_cgroups = htole32(w->nr_cgroups),
		.nr_stacks = htole32(w->nr_stacks),
		.trailer_size = htole32(sizeof(t)),
	};

	memcpy(t.magic, GT_TRAILER_MAGIC, sizeof(t.magic));
	put(w, &t, sizeof(t));
	return trace_writer_flush(w);
}
