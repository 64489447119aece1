// SPDX-License-Identifier: GPL-2.0
/* gupstat trace: ring-buffer records into trace file records and stacks. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "trace/stream.h"

/* stack_seen[]: which records used a stack id. */
#define SEEN_HOLD	0x1
#define SEEN_WAIT	0x2

int trace_stream_init(struct trace_stream *s, __u32 stack_entries)
{
	memset(s, 0, sizeof(*s));
	s->stack_seen = calloc(stack_entries, 1);
	if (!s->stack_seen || trace_cgroups_init(&s->cgroups)) {
		trace_stream_free(s);
		return -ENOMEM;
	}
	s->stack_entries = stack_entries;
	return 0;
}

void trace_stream_free(struct trace_stream *s)
{
	free(s->stack_seen);
	s->stack_seen = NULL;
	trace_cgroups_free(&s->cgroups);
}

void trace_hold_to_rec(const struct trace_hold *h, struct trace_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->ts_ns = h->ts_ns;
	r->hold_ns = h->hold_ns;
	r->fill_ns = h->fill_ns;
	r->addr = h->addr;
	r->cgroup = h->cgroup;
	r->pid = h->pid;
	r->tid = h->tid;
	r->cpu = h->cpu;
	r->pages = h->pages;
	/* Never more stored than walked: the file format insists. */
	r->stored = h->stored < h->pages ? h->stored : h->pages;
	r->gup_flags = h->gup_flags;
	r->stack = h->stack_id >= 0 ? (__u32)h->stack_id : GT_NO_STACK;
	r->fills = h->fills;
	r->flags = (h->flags & TRACE_HOLD_FILL ? GT_R_FILL : 0) |
		   (h->flags & TRACE_HOLD_STORED_KNOWN ? GT_R_STORED_KNOWN : 0) |
		   (h->flags & TRACE_HOLD_WAITED ? GT_R_WAITED : 0);
	r->result = h->result < GT_RESULTS ? h->result : GT_RESULTS - 1;
	memcpy(r->comm, h->comm, sizeof(r->comm) - 1);
}

/*
 * The lock's address is a kernel address: written only where the trace
 * writes them (@addrs, --kernel-addrs), as the frames' are.
 */
void trace_wait_to_rec(const struct trace_wait *wt, struct trace_rec *r, bool addrs)
{
	memset(r, 0, sizeof(*r));
	r->kind = GT_KIND_WAIT;
	r->ts_ns = wt->ts_ns;
	r->wait_ns = wt->wait_ns;
	r->hold_ts_ns = wt->hold_ts_ns;
	r->lock = addrs ? wt->lock : 0;
	r->cgroup = wt->cgroup;
	r->pid = wt->pid;
	r->tid = wt->tid;
	r->cpu = wt->cpu;
	r->holder_pid = wt->holder_pid;
	r->holder_tid = wt->holder_tid;
	r->stack = wt->stack_id >= 0 ? (__u32)wt->stack_id : GT_NO_STACK;
	memcpy(r->comm, wt->comm, sizeof(r->comm) - 1);
}

/* A record of the ring buffer into @r: false if it is neither kind. */
static bool to_rec(const struct trace_stream *s, const void *data, size_t size,
		   struct trace_rec *r)
{
	const struct trace_hold *h = data;

	if (size < sizeof(__u32))
		return false;
	if (h->type == TRACE_REC_HOLD && size >= sizeof(*h)) {
		trace_hold_to_rec(h, r);
		return true;
	}
	if (h->type == TRACE_REC_WAIT && size >= sizeof(struct trace_wait)) {
		trace_wait_to_rec(data, r, s->addrs);
		return true;
	}
	return false;
}

int trace_stream_event(void *ctx, void *data, size_t size)
{
	struct trace_stream *s = ctx;
	struct trace_rec r;

	if (!to_rec(s, data, size, &r)) {
		s->bad++;
		return 0;
	}
	/* An id outside the map cannot be looked up: keep the record, not it. */
	if (r.stack != GT_NO_STACK && r.stack >= s->stack_entries)
		r.stack = GT_NO_STACK;
	/* Which kind used the stack: only a hold's is the walk's (add_walk_frame()). */
	if (r.stack != GT_NO_STACK)
		s->stack_seen[r.stack] |= r.kind == GT_KIND_WAIT ? SEEN_WAIT : SEEN_HOLD;
	trace_cgroups_seen(&s->cgroups, r.cgroup);
	if (s->spool)
		trace_spool_push(s->spool, &r);
	else
		trace_writer_record(&s->w, &r);
	return 0;
}

/* Frames end at the first zero address (the map zero-fills the rest). */
static __u32 stack_depth(const __u64 *ips)
{
	__u32 n = 0;

	while (n < TRACE_STACK_DEPTH && ips[n])
		n++;
	return n;
}

/* "name+0x.." and "name+0x.. [mod]" are in function "name". */
static bool same_function(const char *a, const char *b)
{
	size_t n = strcspn(a, "+");

	return n == strcspn(b, "+") && !strncmp(a, b, n);
}

/*
 * The tracer's own frames are left out: BPF programs and trampolines
 * ("[bpf]"), and the second frame a traced function gets under fentry
 * (its entry at +0x5 calls the trampoline, which runs the body), so the
 * stack reads as the kernel's: follow_page_pte, __get_user_pages, ...
 */
static bool keep_frame(const char *name, const char *prev)
{
	size_t n = strlen(name);

	if (n >= 6 && !strcmp(name + n - 6, " [bpf]"))
		return false;
	return !prev || !same_function(name, prev);
}

/* The address of the text symbol @name, 0 if none. */
static __u64 func_addr(const struct ksyms *ks, const char *name)
{
	size_t i;
	__u64 a;

	for (i = 0; ks && i < ksyms_nr(ks); i++)
		if (!strcmp(ksyms_at(ks, i, &a), name))
			return a;
	return 0;
}

/*
 * The stack is taken at follow_page_pte()'s return. 6.x's unwinder still
 * shows the function there (its entry's call into the trampoline, +0x5);
 * 7.x's, under fexit and kretprobe alike, starts at the caller. Every
 * hold is a follow_page_pte() call, so where its frame is missing it is
 * named at its entry (+0x0): every kernel's stacks start in the function
 * that held the lock, and the flame graphs of two kernels line up. A
 * waiter's stack (--waits) is taken in the spin, not in a walk: only a
 * stack no wait used gets the frame (@hold).
 */
static __u32 add_walk_frame(struct trace_stream *s, const struct ksyms *ks,
			    char (*names)[GT_NAME_MAX + 1], __u64 *kept, __u32 n,
			    bool hold)
{
	if (!hold)
		return n;
	if (!s->walk_looked) {
		s->walk_ip = func_addr(ks, "follow_page_pte");
		s->walk_looked = true;
	}
	if (!n || !s->walk_ip || !strncmp(names[0], "follow_page_pte+", 16))
		return n;
	if (n == TRACE_STACK_DEPTH)
		n--;		/* the outermost frame gives way */
	memmove(names + 1, names, n * sizeof(names[0]));
	memmove(kept + 1, kept, n * sizeof(kept[0]));
	ksyms_name(ks, s->walk_ip, names[0], sizeof(names[0]));
	kept[0] = s->walk_ip;
	return n + 1;
}

void trace_stream_write_stack(struct trace_stream *s, __u32 id, const __u64 *ips,
			      const struct ksyms *ks, bool addrs)
{
	bool hold = !(id < s->stack_entries && s->stack_seen[id] == SEEN_WAIT);
	char names[TRACE_STACK_DEPTH][GT_NAME_MAX + 1];
	const char *ptrs[TRACE_STACK_DEPTH];
	__u64 kept[TRACE_STACK_DEPTH];
	__u32 i, n = 0, depth = stack_depth(ips);

	for (i = 0; i < depth; i++) {
		ksyms_name(ks, ips[i], names[n], sizeof(names[n]));
		if (!keep_frame(names[n], n ? names[n - 1] : NULL))
			continue;
		kept[n++] = ips[i];
	}
	n = add_walk_frame(s, ks, names, kept, n, hold);
	for (i = 0; i < n; i++)
		ptrs[i] = names[i];
	trace_writer_stack(&s->w, id, n, addrs ? kept : NULL, ptrs);
}

void trace_stream_stacks(struct trace_stream *s, int fd, const struct ksyms *ks,
			 bool addrs)
{
	__u64 ips[TRACE_STACK_DEPTH];
	__u32 id;

	for (id = 0; id < s->stack_entries; id++) {
		if (!s->stack_seen[id])
			continue;
		memset(ips, 0, sizeof(ips));
		/* Gone from the map (cannot happen without REUSE): no frames. */
		if (bpf_map_lookup_elem(fd, &id, ips))
			memset(ips, 0, sizeof(ips));
		trace_stream_write_stack(s, id, ips, ks, addrs);
	}
}

void trace_stream_cgroups(struct trace_stream *s)
{
	trace_cgroups_write(&s->cgroups, &s->w);
}
