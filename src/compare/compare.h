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

enum v_change v_change_of(const struct v_series *base, const struct v_series *other);
const struct v_run *v_find_run(const struct v_results *r, enum v_folio f, unsigned int mb);
int v_claims(const struct v_results *base, const struct v_results *other, enum v_folio f,
	     struct v_claim *out);
const char *v_verdict_name(enum v_verdict v);

void compare_plot(FILE *f, const struct v_results *base, const struct v_results *other,
		  const char *base_name, const char *other_name);
int cmd_compare(int argc, char **argv);

#endif /* __GUPSTAT_COMPARE_COMPARE_H */
