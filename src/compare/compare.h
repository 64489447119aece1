/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_COMPARE_COMPARE_H
#define __GUPSTAT_COMPARE_COMPARE_H

#include <stdio.h>
#include "results/results.h"

/* How one measured quantity moved from the base to the other kernel. */
enum v_change { VCH_SAME, VCH_HIGHER, VCH_LOWER, VCH_NO_DATA };

enum v_verdict { VV_HOLDS, VV_FAILS, VV_INCONCLUSIVE, VV_NOT_APPLICABLE };

struct v_claim {
	const char *claim;
	enum v_verdict verdict;
	char evidence[640];
};

#define V_NR_CLAIMS	4
/* Changed: medians this far apart (and the interquartile ranges apart). */
#define V_MIN_CHANGE	1.10

/* One quantity set side by side: a table in the text, an entry in -j. */
struct v_column {
	const char *title;	/* the text adds ", us" to a time's */
	enum v_cond cond;
	bool unpin;
	bool counter;
	double scale;		/* to the unit printed: 1e3 for a time, in us */
	int sim;		/* a simulated count (enum gupsim_count), or -1 */
};

extern const struct v_column v_columns[];
extern const size_t v_nr_columns;

const struct v_series *v_column_series(const struct v_run *r, const struct v_column *c);
/* Whether both files measured it: counters and the cache model are optional. */
bool v_column_shown(const struct v_column *c, const struct v_results *a,
		    const struct v_results *b);

enum v_change v_change_of(const struct v_series *base, const struct v_series *other);
const struct v_run *v_find_run(const struct v_results *r, enum v_folio f, unsigned int mb);
int v_claims(const struct v_results *base, const struct v_results *other, enum v_folio f,
	     struct v_claim *out);
const char *v_verdict_name(enum v_verdict v);
/* "unchanged", "higher", "lower", "not measured": as the evidence says it. */
const char *v_change_name(enum v_change c);

void compare_plot(FILE *f, const struct v_results *base, const struct v_results *other,
		  const char *base_name, const char *other_name);
/* compare -j: the text's figures as one JSON document. */
void compare_json(FILE *f, const char *base_name, const struct v_results *base,
		  const char *other_name, const struct v_results *other);
int cmd_compare(int argc, char **argv);

#endif /* __GUPSTAT_COMPARE_COMPARE_H */
