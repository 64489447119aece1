/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PMU_H
#define __GUPSTAT_KERNEL_PMU_H

#include <argp.h>
#include <stdbool.h>
#include <linux/perf_event.h>

#define PMU_DEFAULT_EVENT	"cache-misses"

int pmu_parse_event(const char *name, struct perf_event_attr *attr);
bool pmu_known_event(const char *name);
int pmu_open(const char *name, int **fds, int *nr);
void pmu_close(int *fds, int nr);
int pmu_install(int map_fd, const int *fds, int nr);
/*
 * -e's argument for option @key: an event pmu_open() knows, else refused
 * with opts_bad_value(); "none" gives NULL.
 */
error_t pmu_opt_event(const struct argp_state *state, int key, const char *arg,
		      const char **event);

#endif /* __GUPSTAT_KERNEL_PMU_H */
