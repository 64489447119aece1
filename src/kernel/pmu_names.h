/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PMU_NAMES_H
#define __GUPSTAT_KERNEL_PMU_NAMES_H

#include <stdbool.h>
#include <linux/perf_event.h>
#include "kernel/pmu.h"	/* pmu_list_fn */

struct pmu_name {
	const char *name, *alias;
	__u32 type;
	__u64 config;
	bool counts;
};

/*
 * perf's generic event @name into @attr's type and config: 0, -ENOENT
 * for a name perf has not, -EOPNOTSUPP for one that counts nothing.
 */
int pmu_name_parse(const char *name, struct perf_event_attr *attr);
/* perf's name for a hardware event's alias ("cycles": "cpu-cycles"). */
const char *pmu_name_hw_symbol(const char *name);

void pmu_name_each(pmu_list_fn fn, void *ctx);

#endif /* __GUPSTAT_KERNEL_PMU_NAMES_H */
