/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gupstat validate unpin's results: the measurement model shared by the
 * runner (src/validate/), the results file (json.c) and gupstat compare.
 */
#ifndef __GUPSTAT_RESULTS_RESULTS_H
#define __GUPSTAT_RESULTS_RESULTS_H

#include <stdbool.h>
#include <stdio.h>
#include "gupsim.h"

#define V_MAX_REPEATS	1000
#define V_MAX_RUNS	32
#define V_FORMAT	1	/* results file format version */

enum v_folio { VF_4K, VF_64K, VF_2M, VF_NR };

/*
 * The conditions of every repeat: unpin right after the pin (warm), after
 * evicting the caches between pin and unpin (cold, the control), or pin
 * and unpin after evicting before the pin (cold_pin: whatever the unpin
 * finds cached, the pin brought in; the claim's mechanism alone).
 */
enum v_cond { VC_WARM, VC_COLD, VC_COLD_PIN, VC_NR };

/* One measured quantity over the repeats: the samples, in run order. */
struct v_series {
	double v[V_MAX_REPEATS];
	int n;
};

struct v_summary {
	double median, p25, p75, min, max;
	int n;
};

/* What one condition measured over the repeats: per phase, nanoseconds,
 * (where a counter was open) counter deltas per call, and (with --sim)
 * the cache model's counts per call, in enum gupsim_count order. */
struct v_cond_result {
	struct v_series pin_ns, unpin_ns, pin_ctr, unpin_ctr;
	struct v_series pin_sim[GS_NR], unpin_sim[GS_NR];
};

/* Counted once per run in an untimed census repeat. */
struct v_census {
	double pin_calls, pin_pages, grabs, grab_refs;
	double unpin_calls, unpin_pages, puts, put_refs;
};

struct v_run {
	enum v_folio folio;
	unsigned int size_mb;
	unsigned long pages;		/* in the range */
	unsigned long folios;		/* ... and folios, from the page flags */
	struct v_census census;
	struct v_cond_result cond[VC_NR];
};

struct v_results {
	char kernel[128];		/* uname -r */
	char kernel_version[256];	/* uname -v */
	char walk[16];			/* "page" (base) or "count" (batched) */
	char attach[16];		/* fentry or kprobe */
	char event[64];			/* counter name; "" when none was open */
	char no_event_reason[160];	/* why not, when not */
	char sim_model[256];		/* the cache model in words; "" without --sim */
	unsigned long long vmemmap_start, vmemmap_end;	/* struct page lines, for it */
	unsigned int sim_retried;	/* repeats run again: a call the model could not frame */
	unsigned long evict_bytes;
	unsigned int repeats;
	int cpu;
	int nr_runs;
	struct v_run runs[V_MAX_RUNS];
};

extern const char *const v_folio_names[VF_NR];
extern const char *const v_cond_names[VC_NR];
/* "sim:LLC-miss", ...: named as simulated wherever they are printed. */
extern const char *const v_sim_names[GS_NR];

unsigned long v_folio_bytes(enum v_folio f);
int v_folio_parse(const char *s, enum v_folio *f);

void v_series_add(struct v_series *s, double v);
void v_summarise(const struct v_series *s, struct v_summary *out);

void v_results_write(FILE *f, const struct v_results *r);
int v_results_read(const char *path, struct v_results *r);

#endif /* __GUPSTAT_RESULTS_RESULTS_H */
