/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PMU_SYSFS_H
#define __GUPSTAT_KERNEL_PMU_SYSFS_H

#include <stddef.h>
#include <linux/perf_event.h>
#include "kernel/pmu.h"	/* pmu_list_fn */

#define PMU_SYSFS_ROOT	"/sys/bus/event_source/devices"

/* Where the PMUs are read: the tests point it at a directory of their own. */
void pmu_sysfs_set_root(const char *dir);

/*
 * "PMU/term=value,.../" (without modifiers) into @attr's type and
 * config words, by PMU/type, PMU/format/ and PMU/events/ as perf reads
 * them: 0, -ENOENT when @name is not of that form or has no such PMU,
 * -EINVAL with @why said for a term the PMU refuses.
 */
int pmu_sysfs_parse(const char *name, struct perf_event_attr *attr, char *why, size_t len);

/* Every PMU/EVENT/ this machine has: @fn(kind, "PMU/EVENT/", @ctx). */
void pmu_sysfs_each(pmu_list_fn fn, void *ctx);

#endif /* __GUPSTAT_KERNEL_PMU_SYSFS_H */
