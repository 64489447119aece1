/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SRCLINE_H
#define __GUPSTAT_SRCLINE_H

#include <stdbool.h>
#include <linux/types.h>

/*
 * One place in the kernel's source, from its DWARF: what the reader of
 * the debug info (src/kernel/dwarf.c) gives and the trace file's stack
 * table carries to the reports (src/tracefile/srclines.c). A frame's
 * address has a chain of them, innermost first: the functions inlined
 * at that address (@inlined), then the function they were inlined into.
 */
struct src_line {
	const char *func;	/* the function, inlined or not */
	const char *file;	/* relative to the kernel tree: "mm/gup.c" */
	__u32 line;		/* 0: not known */
	bool inlined;		/* inlined into the next one of the chain */
};

#endif /* __GUPSTAT_SRCLINE_H */
