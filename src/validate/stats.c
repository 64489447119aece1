// SPDX-License-Identifier: GPL-2.0
/* Folio kinds and order statistics of gupstat validate's samples. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "validate/validate.h"

const char *const v_folio_names[VF_NR] = { "4k", "64k", "2m" };
const char *const v_cond_names[VC_NR] = { "warm", "cold" };

unsigned long v_folio_bytes(enum v_folio f)
{
	static const unsigned long bytes[VF_NR] = { 4096, 65536, 2097152 };

	return bytes[f];
}

int v_folio_parse(const char *s, enum v_folio *f)
{
	int i;

	for (i = 0; i < VF_NR; i++) {
		if (!strcasecmp(s, v_folio_names[i])) {
			*f = i;
			return 0;
		}
	}
	return -EINVAL;
}

void v_series_add(struct v_series *s, double v)
{
	if (s->n < V_MAX_REPEATS)
		s->v[s->n++] = v;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Linear interpolation between the order statistics around q (0..1). */
static double quantile(const double *sorted, int n, double q)
{
	double pos = q * (n - 1);
	int lo = (int)pos;

	if (lo >= n - 1)
		return sorted[n - 1];
	return sorted[lo] + (pos - lo) * (sorted[lo + 1] - sorted[lo]);
}

void v_summarise(const struct v_series *s, struct v_summary *out)
{
	double sorted[V_MAX_REPEATS];

	memset(out, 0, sizeof(*out));
	out->n = s->n;
	if (!s->n)
		return;
	memcpy(sorted, s->v, s->n * sizeof(double));
	qsort(sorted, s->n, sizeof(double), cmp_double);
	out->min = sorted[0];
	out->max = sorted[s->n - 1];
	out->median = quantile(sorted, s->n, 0.5);
	out->p25 = quantile(sorted, s->n, 0.25);
	out->p75 = quantile(sorted, s->n, 0.75);
}
