/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_VALIDATE_PROBE_H
#define __GUPSTAT_VALIDATE_PROBE_H

#include <stdbool.h>
#include <linux/types.h>
#include <bpf/btf.h>
#include "probe/attach.h"
#include "gupstat_validate.h"
#include "results/results.h"

struct validate_bpf;

/* gupstat validate's programs (bpf/validate/), loaded for one process. */
struct v_probes {
	struct validate_bpf *skel;
	struct probe p[V_NR_SLOTS];
	int *pmu_fds, nr_pmu;
	bool census;		/* grab and put probes attached */
};

int vprobes_open(struct v_probes *vp, const struct btf *btf, bool force_kprobe,
		 const char *event, struct v_results *r);
int vprobes_census(struct v_probes *vp, bool on);
int vprobes_take(struct v_probes *vp, enum v_slot_id id, struct v_slot *out);
void vprobes_close(struct v_probes *vp);
/* The kernel function slot ID is measured on. */
const char *vprobe_func(enum v_slot_id id);
/* The vmemmap base and the number of page frames, once a pin was seen. */
void vprobes_vmemmap(const struct v_probes *vp, __u64 *start, __u64 *pfns);

#endif /* __GUPSTAT_VALIDATE_PROBE_H */
