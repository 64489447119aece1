// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's frames with their source lines: the stack table rewritten
 * once, after it is read, so that every report (text, -j, Perfetto,
 * folded) prints the same frames, the inlined functions among them,
 * without knowing where the lines came from.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tracefile/srclines.h"

/* One stack: each frame, or the frames of its chain. */
static long stack_lines(struct trace_stack *st, srclines_fn fn, void *ctx)
{
	const struct src_line **chains = calloc(st->nr_frames + 1, sizeof(*chains));
	int *nrs = calloc(st->nr_frames + 1, sizeof(*nrs));
	struct trace_frame *out = NULL;
	__u32 i, n = 0, total = 0;
	long resolved = 0;
	int k;

	if (!chains || !nrs)
		goto fail;
	for (i = 0; i < st->nr_frames; i++) {
		nrs[i] = fn(ctx, st->frames[i].name, &chains[i]);
		total += nrs[i] ? nrs[i] : 1;
		resolved += nrs[i] > 0;
	}
	out = calloc(total ? total : 1, sizeof(*out));
	if (!out)
		goto fail;
	for (i = 0; i < st->nr_frames; i++) {
		if (!nrs[i])
			out[n++] = st->frames[i];
		for (k = 0; k < nrs[i]; k++)
			out[n++] = (struct trace_frame){ st->frames[i].addr, st->frames[i].name,
							 &chains[i][k] };
	}
	free(st->frames);
	st->frames = out;
	st->nr_frames = n;
	free(chains);
	free(nrs);
	return resolved;
fail:
	free(chains);
	free(nrs);
	return -ENOMEM;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Every distinct frame through @fn once, in name order: one function's
 * offsets one after the other, so that a resolver that keeps a bounded
 * number of functions' debug info at a time reads each function once.
 */
static int prime(struct trace_file *tf, srclines_fn fn, void *ctx)
{
	const struct src_line *lines;
	size_t n = 0, i;
	char **names;
	__u32 k;

	for (i = 0; i < tf->nr_stacks; i++)
		n += tf->stacks[i].nr_frames;
	names = malloc((n ? n : 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (n = 0, i = 0; i < tf->nr_stacks; i++)
		for (k = 0; k < tf->stacks[i].nr_frames; k++)
			names[n++] = tf->stacks[i].frames[k].name;
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++)
		if (!i || strcmp(names[i - 1], names[i]))
			fn(ctx, names[i], &lines);
	free(names);
	return 0;
}

long trace_file_lines(struct trace_file *tf, srclines_fn fn, void *ctx)
{
	long resolved = 0, n;
	__u32 i;

	if (prime(tf, fn, ctx))
		return -ENOMEM;
	for (i = 0; i < tf->nr_stacks; i++) {
		n = stack_lines(&tf->stacks[i], fn, ctx);
		if (n < 0)
			return n;
		resolved += n;
	}
	return resolved;
}

const char *trace_frame_label(const struct trace_frame *fr, char *buf, size_t len)
{
	const struct src_line *l = fr->src;

	if (!l)
		return fr->name;
	if (l->inlined)
		snprintf(buf, len, "%s (inlined) %s:%u", l->func, l->file, l->line);
	else
		snprintf(buf, len, "%s %s:%u", fr->name, l->file, l->line);
	return buf;
}

const char *trace_frame_fold(const struct trace_frame *fr, bool by_address, char *buf,
			     size_t len)
{
	const char *plus = strrchr(fr->name, '+'), *mod;

	if (fr->src && fr->src->inlined)
		snprintf(buf, len, "%s_[i]", fr->src->func);
	else if (by_address || !plus)
		return fr->name;
	else if ((mod = strchr(plus, ' ')))
		snprintf(buf, len, "%.*s%s", (int)(plus - fr->name), fr->name, mod);
	else
		snprintf(buf, len, "%.*s", (int)(plus - fr->name), fr->name);
	return buf;
}
