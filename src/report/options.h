/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_REPORT_OPTIONS_H
#define __GUPSTAT_REPORT_OPTIONS_H

#include <stdbool.h>
#include "tracefile/folded.h"

struct report_opts {
	const char *path;	/* FILE: the trace to read */
	const char *perfetto;	/* --perfetto OUT */
	const char *plot;	/* --plot OUT */
	const char *folded;	/* --folded OUT; "-" for stdout */
	enum folded_weight folded_weight;	/* --folded-weight: ns, holds or waits */
	bool folded_by_address;	/* --folded-by address: offsets kept apart */
	const char *vmlinux;	/* --vmlinux FILE: the kernel's DWARF */
	unsigned int top;	/* -n: the N longest holds */
	bool strict;		/* --strict: refuse a file without its trailer */
	bool json;		/* -j: JSON instead of the text */
};

/* 0 to run, 1 when help or the version was printed, -EINVAL after the error. */
int report_opts_parse(struct report_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_REPORT_OPTIONS_H */
