/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_COMPARE_OPTIONS_H
#define __GUPSTAT_COMPARE_OPTIONS_H

#include <stdbool.h>

struct compare_opts {
	const char *base;	/* BASE.json */
	const char *other;	/* OTHER.json */
	const char *plot;	/* --plot FILE.svg */
	bool json;		/* -j: JSON instead of the text */
};

/* 0 to run, 1 when help or the version was printed, -EINVAL after the error. */
int compare_opts_parse(struct compare_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_COMPARE_OPTIONS_H */
