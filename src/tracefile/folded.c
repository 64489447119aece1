// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks, the format flame graph tools read (flamegraph.pl,
 * inferno, speedscope): one line per distinct kernel stack, its frames
 * root first and joined by ';', a space, then its weight: the holds'
 * time in ns, or their count; or (--waits) the waiters' stacks by the
 * time they spun. Records without a stack share one line, "[no stack]
 * N", so that the lines always add up to the report's total.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tracefile/folded.h"
#include "util/msg.h"

#define NO_STACK_LINE	"[no stack]"

/* One stack's line: its frames' text and the holds (or waits) under it. */
struct folded_line {
	char *text;
	__u64 ns, holds;
};

struct folding {
	struct folded_line *lines;	/* one per stack of the table, then [no stack] */
	size_t n;
	__u64 total_ns, holds;
};

const char *folded_refusal(const struct trace_file *tf, enum folded_weight weight)
{
	const char *stacks = trace_file_string(tf, "stacks");

	/* Without --waits, no line could be drawn: not an empty profile. */
	if (weight == FOLDED_WAITS && !(tf->flags & GT_F_WAITS))
		return "the trace has no waits (traced without --waits)";
	if (tf->incomplete)
		return "the trace did not end cleanly (no trailer), so its stacks were never written";
	if (stacks && !strncmp(stacks, "not taken", 9))
		return "the trace has no stacks (written with --no-stacks)";
	/* A file from a writer that did not say: no stack at all. */
	if (!stacks && !tf->nr_stacks && tf->nr_recs)
		return "the trace has no stacks";
	return NULL;
}

/*
 * Frames root first (the file keeps them innermost first), as the report
 * prints them. A ';' would split a frame in two: kallsyms never has one,
 * but a file may, so it becomes ':'. A frame is at most a name and
 * "_[i]" (srclines.c): no longer than GT_NAME_MAX and a function's name.
 */
static char *stack_text(const struct trace_stack *st, bool by_address)
{
	char buf[2 * GT_NAME_MAX + 8];
	size_t len = 1, i;
	char *t, *p;
	__u32 k;

	for (k = 0; k < st->nr_frames; k++)
		len += strlen(trace_frame_fold(&st->frames[k], by_address, buf, sizeof(buf))) + 1;
	t = malloc(len);
	if (!t)
		return NULL;
	p = t;
	for (k = st->nr_frames; k-- > 0; ) {
		const char *name = trace_frame_fold(&st->frames[k], by_address, buf, sizeof(buf));

		for (i = 0; name[i]; i++)
			*p++ = name[i] == ';' ? ':' : name[i];
		if (k)
			*p++ = ';';
	}
	*p = '\0';
	return t;
}

static int folding_init(struct folding *fo, const struct trace_file *tf, bool by_address)
{
	__u32 i;

	fo->n = tf->nr_stacks + 1;
	fo->lines = calloc(fo->n, sizeof(*fo->lines));
	if (!fo->lines)
		return -ENOMEM;
	for (i = 0; i < tf->nr_stacks; i++) {
		/* An empty stack would print as a line of no frame. */
		fo->lines[i].text = tf->stacks[i].nr_frames ? stack_text(&tf->stacks[i], by_address) :
				    strdup(NO_STACK_LINE);
		if (!fo->lines[i].text)
			return -ENOMEM;
	}
	fo->lines[tf->nr_stacks].text = strdup(NO_STACK_LINE);
	return fo->lines[tf->nr_stacks].text ? 0 : -ENOMEM;
}

static void folding_free(struct folding *fo)
{
	size_t i;

	for (i = 0; fo->lines && i < fo->n; i++)
		free(fo->lines[i].text);
	free(fo->lines);
}

/*
 * Each hold onto its stack's line, or with @waits each wait onto its
 * waiter's, weighing its time spun; an id the table lacks has none.
 */
static int folding_read(struct folding *fo, struct trace_file *tf, bool waits)
{
	const struct trace_stack *st;
	struct trace_rec r;
	size_t at;
	__u64 ns;
	int ret;

	trace_file_rewind(tf);
	while ((ret = trace_file_next(tf, &r)) > 0) {
		if ((r.kind == GT_KIND_WAIT) != waits)
			continue;
		ns = waits ? r.wait_ns : r.hold_ns;
		st = r.stack == GT_NO_STACK ? NULL : trace_file_stack(tf, r.stack);
		at = st ? (size_t)(st - tf->stacks) : tf->nr_stacks;
		fo->lines[at].ns += ns;
		fo->lines[at].holds++;
		fo->total_ns += ns;
		fo->holds++;
	}
	return ret;
}

static int cmp_text(const void *a, const void *b)
{
	const struct folded_line *x = a, *y = b;

	return strcmp(x->text, y->text);
}

/*
 * Two ids whose frames read the same are one stack to a flame graph: by
 * function, every stack that passed through the same functions.
 */
static void folding_merge(struct folding *fo)
{
	size_t i, n = 0;

	qsort(fo->lines, fo->n, sizeof(*fo->lines), cmp_text);
	for (i = 0; i < fo->n; i++) {
		if (n && !strcmp(fo->lines[n - 1].text, fo->lines[i].text)) {
			fo->lines[n - 1].ns += fo->lines[i].ns;
			fo->lines[n - 1].holds += fo->lines[i].holds;
			free(fo->lines[i].text);
			continue;
		}
		fo->lines[n++] = fo->lines[i];
	}
	fo->n = n;
}

/* Heaviest first, then by the stack's text: the same file every time. */
static int cmp_weight(const void *a, const void *b, void *holds)
{
	const struct folded_line *x = a, *y = b;
	bool h = *(const bool *)holds;
	__u64 wx = h ? x->holds : x->ns, wy = h ? y->holds : y->ns;

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return strcmp(x->text, y->text);
}

static void folding_print(FILE *f, struct folding *fo, bool holds)
{
	size_t i;

	qsort_r(fo->lines, fo->n, sizeof(*fo->lines), cmp_weight, &holds);
	for (i = 0; i < fo->n; i++)
		if (fo->lines[i].holds)
			fprintf(f, "%s %llu\n", fo->lines[i].text, (unsigned long long)
				(holds ? fo->lines[i].holds : fo->lines[i].ns));
}

int folded_write(FILE *f, struct trace_file *tf, const struct folded_totals *want,
		 const struct folded_how *how)
{
	bool waits = how->weight == FOLDED_WAITS;
	struct folding fo = {};
	int err = folding_init(&fo, tf, how->by_address) ?: folding_read(&fo, tf, waits);

	if (!err && want && (fo.holds != want->holds || fo.total_ns != want->ns)) {
		snprintf(tf->err, sizeof(tf->err), "%llu %s of %llu ns at the first reading, %llu of %llu ns at the second: the file changed",
			 (unsigned long long)want->holds, waits ? "waits" : "holds",
			 (unsigned long long)want->ns,
			 (unsigned long long)fo.holds, (unsigned long long)fo.total_ns);
		err = -EIO;
	}
	if (!err) {
		folding_merge(&fo);
		folding_print(f, &fo, how->weight == FOLDED_HOLDS);
	}
	folding_free(&fo);
	return err;
}

/* The file folded into @f by hold time: 0, or -errno after one line. */
static int fold_into(FILE *f, const char *path, struct trace_file *tf,
		     const struct folded_how *how)
{
	const char *why = folded_refusal(tf, FOLDED_NS);
	struct folded_how ns = *how;
	int err;

	if (why) {
		p_err("%s: cannot write --folded: %s\n", path, why);
		return -EINVAL;
	}
	if (how->lines && trace_file_lines(tf, how->lines, how->lines_ctx) < 0) {
		p_err("%s: out of memory\n", path);
		return -ENOMEM;
	}
	/* Its own file just ended: no first reading to hold it to. */
	tf->err[0] = '\0';
	ns.weight = FOLDED_NS;
	err = folded_write(f, tf, NULL, &ns);
	if (err)
		p_err("%s: %s\n", path, tf->err[0] ? tf->err : strerror(-err));
	return err;
}

int folded_file(const char *path, struct output *out, const struct folded_how *how)
{
	struct trace_file tf;
	int err;

	if (trace_file_open(&tf, path)) {
		p_err("%s: %s\n", path, tf.err);
		if (out)
			output_discard(out);
		return -EIO;
	}
	err = fold_into(out ? out->f : stdout, path, &tf, how);
	trace_file_free(&tf);
	if (out && err)
		output_discard(out);
	else if (out)
		err = output_commit(out);
	return err;
}
