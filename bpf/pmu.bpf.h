/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hardware (or software) counters per traced call: pmu_events
 * (shared.bpf.h), read at entry and exit.
 */
#ifndef __GUPSTAT_PMU_BPF_H
#define __GUPSTAT_PMU_BPF_H

#include "common.bpf.h"

/* Where a counted call started: the counter and the CPU it was read on. */
struct pmu_mark {
	__u64 value;
	__u32 cpu;
	__u32 valid;
};

static __always_inline void pmu_start(struct pmu_mark *m)
{
	struct bpf_perf_event_value v;

	m->valid = 0;
	if (!pmu_on)
		return;
	if (bpf_perf_event_read_value(&pmu_events, BPF_F_CURRENT_CPU, &v, sizeof(v)))
		return;
	m->value = v.counter;
	m->cpu = bpf_get_smp_processor_id();
	m->valid = 1;
}

/*
 * The counter delta into histogram @id. A call that moved to another CPU
 * cannot be measured with per-CPU counters: it counts as a miss.
 */
static __always_inline void pmu_stop(const struct pmu_mark *m, __u32 id)
{
	struct bpf_perf_event_value v;
	struct counters *c;

	if (!pmu_on)
		return;
	if (m->valid && m->cpu == bpf_get_smp_processor_id() &&
	    !bpf_perf_event_read_value(&pmu_events, BPF_F_CURRENT_CPU, &v, sizeof(v))) {
		hist_add(id, v.counter - m->value);
		return;
	}
	c = counters_get();
	if (c)
		c->pmu_misses++;
}

#endif /* __GUPSTAT_PMU_BPF_H */
