/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACEFILE_SRCLINES_H
#define __GUPSTAT_TRACEFILE_SRCLINES_H

#include <stdbool.h>
#include <stddef.h>
#include "tracefile/reader.h"

/*
 * A frame's chain of source lines, innermost first (kernel/dwarf.c's,
 * given by the subcommand): their number, 0 for none. The lines must
 * outlive the trace file. Each distinct frame is asked for once in
 * name order, then again as the stacks are rewritten: @fn keeps what it
 * found.
 */
typedef int (*srclines_fn)(void *ctx, const char *frame, const struct src_line **lines);

/*
 * Every frame of @tf's stack table through @fn: a frame whose address
 * has n functions inlined in it becomes n + 1 frames, the inlined ones
 * first, each with its line; a frame @fn cannot resolve stays as it
 * was. The number of frames resolved, or -ENOMEM.
 */
long trace_file_lines(struct trace_file *tf, srclines_fn fn, void *ctx);

/*
 * How the reports print a frame: "symbol+0xoff mm/gup.c:123" resolved,
 * "helper (inlined) mm/gup.c:45" inlined, the name alone unresolved.
 */
const char *trace_frame_label(const struct trace_frame *fr, char *buf, size_t len);

/*
 * A frame as a flame graph merges it: by function ("symbol", an inlined
 * function with perf's "_[i]"; a module's " [module]" kept), or with
 * @by_address its name as the file has it.
 */
const char *trace_frame_fold(const struct trace_frame *fr, bool by_address, char *buf,
			     size_t len);

#endif /* __GUPSTAT_TRACEFILE_SRCLINES_H */
