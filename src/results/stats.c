// SPDX-License-Identifier: GPL-2.0
/* Folio kinds and order statistics of gupstat validate's samples. */
#include <errno.h>
#include <string.h>
#include <strings.h>
#include "util/stats.h"
#include "results/results.h"

const char *const v_folio_names[VF_NR] = { "4k", "64k", "2m" };
const char *const v_cond_names[VC_NR] = { "warm", "cold", "cold_pin" };
const char *const v_sim_names[GS_NR] = {
	"sim:access", "sim:L1d-miss", "sim:L2-miss", "sim:LLC-miss",
	"sim:struct-page-access", "sim:struct-page-L1d-miss", "sim:struct-page-L2-miss",
	"sim:struct-page-LLC-miss", "sim:insns", "sim:other-insns", "sim:other-access",
};

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

void v_summarise(const struct v_series *s, struct v_summary *out)
{
	double sorted[V_MAX_REPEATS];

	memset(out, 0, sizeof(*out));
	out->n = s->n;
	if (!s->n)
		return;
	memcpy(sorted, s->v, s->n * sizeof(double));
	stats_sort_double(sorted, s->n);
	out->min = sorted[0];
	out->max = sorted[s->n - 1];
	out->median = stats_quantile(sorted, s->n, 50, STATS_INTERPOLATE);
	out->p25 = stats_quantile(sorted, s->n, 25, STATS_INTERPOLATE);
	out->p75 = stats_quantile(sorted, s->n, 75, STATS_INTERPOLATE);
}
