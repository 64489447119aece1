// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat report FILE: read a trace file (every part checked, one line
 * and exit 1 for anything wrong with it), print its summary and longest
 * holds, and export a timeline and a plot on request.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report/export.h"
#include "report/options.h"
#include "tracefile/reader.h"
#include "report/report.h"
#include "report/stats.h"
#include "report/text.h"

/* @path for writing, created with @mode, never through a symlink. */
static FILE *open_out(const char *path, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

typedef int (*export_fn)(FILE *f, const struct trace_file *tf,
			 const struct trace_summary *s);

static int export_to(const char *path, mode_t mode, export_fn fn,
		     const struct trace_file *tf, const struct trace_summary *s)
{
	FILE *f = open_out(path, mode);
	int err;

	if (!f) {
		fprintf(stderr, "gupstat report: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	err = fn(f, tf, s);
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		fprintf(stderr, "gupstat report: %s: %s\n", path, strerror(-err));
	return err;
}

/*
 * The timeline has every hold with its process and address: private like
 * the trace (0600). The plot is aggregate only (0644).
 */
static int exports(const struct report_opts *o, const struct trace_file *tf,
		   const struct trace_summary *s)
{
	if (o->perfetto && export_to(o->perfetto, 0600, export_perfetto, tf, s))
		return -1;
	if (o->plot && export_to(o->plot, 0644, export_plot, tf, s))
		return -1;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct trace_summary s;
	struct report_opts o;
	struct trace_file tf;
	int err;

	err = report_opts_parse(&o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	if (trace_file_read(&tf, o.path)) {
		fprintf(stderr, "gupstat report: %s: %s\n", o.path, tf.err);
		return 1;
	}
	if (trace_summarize(&tf, o.top, &s)) {
		fprintf(stderr, "gupstat report: %s: out of memory\n", o.path);
		trace_file_free(&tf);
		return 1;
	}
	trace_text_print(stdout, o.path, &tf, &s);
	err = exports(&o, &tf, &s) ? 1 : 0;
	trace_summary_free(&s);
	trace_file_free(&tf);
	return err;
}
