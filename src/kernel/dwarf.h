/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_DWARF_H
#define __GUPSTAT_KERNEL_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include "gupstat_srcline.h"

/*
 * A kernel's vmlinux with its DWARF, read through elfutils' libdw: a
 * stack frame as a trace file keeps it ("symbol+0xoffset") to its
 * function, source file and line and the functions inlined there.
 */
struct kdwarf;

/* NULL with @why set when @path is no ELF file with DWARF. */
struct kdwarf *kdwarf_open(const char *path, char *why, size_t len);
void kdwarf_close(struct kdwarf *kd);
/* Its GNU build ID in lower-case hex; "" when it has none. */
const char *kdwarf_build_id(const struct kdwarf *kd);

/*
 * @frame's chain of source lines, innermost first, into @lines: their
 * number, or 0 when it cannot be resolved (a module's symbol, one the
 * vmlinux lacks or has twice, an address without line information).
 * Each distinct frame is resolved once; the lines live as long as @kd.
 * @kd is a struct kdwarf, untyped so that this is a tracefile srclines_fn.
 */
int kdwarf_resolve(void *kd, const char *frame, const struct src_line **lines);

/*
 * The vmlinux for a trace: @path when given, else the first of the
 * usual places for kernel @release that exists (Debian's -dbg package,
 * /boot, the build tree), whose build ID must be @build_id (from the
 * trace's header). NULL with @why set to one line otherwise; @why
 * empty when no file was named and none is installed.
 */
struct kdwarf *kdwarf_find(const char *path, const char *release, const char *build_id,
			   char *why, size_t len);

#endif /* __GUPSTAT_KERNEL_DWARF_H */
