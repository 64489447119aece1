/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PMU_PFM_H
#define __GUPSTAT_KERNEL_PMU_PFM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/perf_event.h>
#include "kernel/pmu.h"	/* pmu_list_fn */

/*
 * The CPU's own event names (perf list's "mem_load_retired.l3_miss"),
 * through libpfm4 as perf's --pfm-events has them, for the CPU libpfm4
 * detects (or LIBPFM_FORCE_PMU names): 0, -ENOENT for a name it has
 * not, -EINVAL with @why said for one it refuses.
 */
int pmu_pfm_parse(const char *name, struct perf_event_attr *attr, char *why, size_t len);

/* Whether gupstat was built with libpfm4 (libpfm4-dev). */
extern const bool pmu_pfm_linked;

/* Every event and event.umask of the CPU's PMUs, lower case. */
void pmu_pfm_each(pmu_list_fn fn, void *ctx);

#endif /* __GUPSTAT_KERNEL_PMU_PFM_H */
