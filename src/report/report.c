// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report FILE: read a trace file (every part checked, one line
 * and exit 1 for anything wrong with it), print its summary and longest
 * holds (as text, or JSON with -j), and export a timeline, a plot and
 * folded stacks on request.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/export.h"
#include "report/json.h"
#include "report/options.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/text.h"
#include "kernel/dwarf.h"
#include "tracefile/reader.h"
#include "tracefile/srclines.h"
#include "util/msg.h"
#include "util/output.h"

typedef int (*export_fn)(FILE *f, struct trace_file *tf,
			 const struct trace_summary *s);

enum { EXPORT_PERFETTO, EXPORT_PLOT, EXPORT_FOLDED, NR_EXPORTS };

static const export_fn export_fns[NR_EXPORTS] = {
	export_perfetto, export_plot, export_folded_ns
};

/* "--folded -": to stdout, in the text's place, so that it can be piped. */
static bool to_stdout(const struct report_opts *o, int i)
{
	return i == EXPORT_FOLDED && !strcmp(o->folded, "-");
}

static int export_run(const struct report_opts *o, int i, FILE *f, struct trace_file *tf,
		      const struct trace_summary *s)
{
	if (i == EXPORT_FOLDED)
		return export_folded(f, tf, s, o->folded_weight, o->folded_by_address);
	return export_fns[i](f, tf, s);
}

static void export_paths(const struct report_opts *o, const char **paths)
{
	paths[EXPORT_PERFETTO] = o->perfetto;
	paths[EXPORT_PLOT] = o->plot;
	paths[EXPORT_FOLDED] = o->folded;
}

static void exports_discard(struct output *out)
{
	int i;

	for (i = 0; i < NR_EXPORTS; i++)
		output_discard(&out[i]);
}

/* Opened before the text prints, so that a bad path prints nothing. */
static int exports_open(const struct report_opts *o, struct output *out)
{
	const char *const inputs[] = { o->path, NULL };
	const char *paths[NR_EXPORTS];
	int i;

	/* Names shared between exports are refused by report_opts_parse(). */
	export_paths(o, paths);
	for (i = 0; i < NR_EXPORTS; i++) {
		if (paths[i] && !to_stdout(o, i) && output_open(&out[i], paths[i], inputs)) {
			exports_discard(out);
			return -1;
		}
	}
	return 0;
}

/* Each export in full, or its old file left as it was. */
static int exports_write(const struct report_opts *o, struct output *out,
			 struct trace_file *tf, const struct trace_summary *s)
{
	const char *paths[NR_EXPORTS];
	int i, err = 0;

	export_paths(o, paths);
	for (i = 0; i < NR_EXPORTS; i++) {
		if (!paths[i])
			continue;
		if (err) {
			output_discard(&out[i]);
			continue;
		}
		tf->err[0] = '\0';
		if (to_stdout(o, i)) {
			/* Not atomic: stdout's errors are main()'s to report. */
			err = export_run(o, i, stdout, tf, s);
			if (err)
				p_err("%s: %s\n", o->path, tf->err[0] ? tf->err : strerror(-err));
			continue;
		}
		err = export_run(o, i, out[i].f, tf, s);
		if (err && tf->err[0]) {
			/* The trace, read again, is what failed. */
			p_err("%s: %s\n", o->path, tf->err);
			output_discard(&out[i]);
		} else {
			err = err ? output_fail(&out[i], err) : output_commit(&out[i]);
		}
	}
	return err;
}

/*
 * The frames' source lines, from the vmlinux --vmlinux names or the one
 * found for the trace's kernel: NULL when there is none, or it is not
 * the traced kernel's (one line says so). Nothing is said when no
 * vmlinux was asked for and none is installed: debug info is optional.
 */
static struct kdwarf *source_lines(const struct report_opts *o, struct trace_file *tf)
{
	const char *release = trace_file_string(tf, "kernel");
	struct kdwarf *kd;
	char why[1024];

	if (!tf->nr_stacks)
		return NULL;
	kd = kdwarf_find(o->vmlinux, release, trace_file_string(tf, "build_id"), why,
			 sizeof(why));
	if (!kd) {
		if (why[0])
			p_err("%s: frames not resolved to source lines: %s\n", o->path, why);
		return NULL;
	}
	if (trace_file_lines(tf, kdwarf_resolve, kd) < 0)
		p_err("%s: out of memory resolving frames to source lines\n", o->path);
	return kd;
}

/* The summary pass: every record read and checked, or one line why not. */
static int summarize(const struct report_opts *o, struct trace_file *tf,
		     struct trace_summary *s)
{
	int err = summary_read(tf, o->top, s);

	if (err == -ENOMEM)
		p_err("%s: out of memory\n", o->path);
	else if (err)
		p_err("%s: %s\n", o->path, tf->err);
	else if (tf->incomplete)
		p_err("%s: incomplete trace (no trailer): %zu holds recovered\n", o->path,
		      trace_file_holds(tf));
	return err;
}

int cmd_report(int argc, char **argv)
{
	const char *why;
	struct output out[NR_EXPORTS] = {};
	struct trace_summary s;
	struct report_opts o;
	struct trace_file tf;
	struct kdwarf *kd;
	int err;

	err = report_opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	/* Header, trailer and stacks: the records are read as they are used. */
	if (trace_file_open(&tf, o.path)) {
		p_err("%s: %s\n", o.path, tf.err);
		return 1;
	}
	if (tf.incomplete && o.strict) {
		p_err("%s: incomplete trace (no trailer: the trace did not end cleanly)\n", o.path);
		trace_file_free(&tf);
		return 1;
	}
	why = o.folded ? folded_refusal(&tf, o.folded_weight) : NULL;
	if (why) {
		p_err("%s: cannot write --folded: %s\n", o.path, why);
		trace_file_free(&tf);
		return 1;
	}
	if (exports_open(&o, out)) {
		trace_file_free(&tf);
		return 1;
	}
	kd = source_lines(&o, &tf);
	if (summarize(&o, &tf, &s)) {
		exports_discard(out);
		trace_file_free(&tf);
		kdwarf_close(kd);
		return 1;
	}
	if (o.json)
		trace_json_print(stdout, o.path, &tf, &s);
	else if (!o.folded || strcmp(o.folded, "-"))
		trace_text_print(stdout, o.path, &tf, &s);
	err = exports_write(&o, out, &tf, &s) ? 1 : 0;
	summary_free(&s);
	trace_file_free(&tf);
	/* After the file: its frames point at the lines. */
	kdwarf_close(kd);
	return err;
}
