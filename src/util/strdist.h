/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_STRDIST_H
#define __GUPSTAT_UTIL_STRDIST_H

#include <stddef.h>

/*
 * The nearest of many names to one mistyped: strdist_offer() each
 * candidate, then ->best is the one fewest edits away (Levenshtein),
 * or NULL when none is close enough to be a typo.
 */
struct strdist {
	const char *word;	/* what was typed */
	char best[128];
	size_t dist;
};

void strdist_init(struct strdist *sd, const char *word);
void strdist_offer(struct strdist *sd, const char *name);
/* The nearest name, or NULL when none is within a third of its length. */
const char *strdist_best(const struct strdist *sd);
size_t strdist(const char *a, const char *b);

#endif /* __GUPSTAT_UTIL_STRDIST_H */
