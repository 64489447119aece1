/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PMU_H
#define __GUPSTAT_KERNEL_PMU_H

#include <argp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <linux/perf_event.h>

#define PMU_DEFAULT_EVENT	"cache-misses"

/*
 * @name into @attr as perf stat -e builds it (kernel/pmu_event.c): 0,
 * -ENOENT for a name nothing knows, -EINVAL for one known but refused,
 * said in @why.
 */
int pmu_parse_event_why(const char *name, struct perf_event_attr *attr, char *why, size_t len);
int pmu_parse_event(const char *name, struct perf_event_attr *attr);
bool pmu_known_event(const char *name);
int pmu_open(const char *name, int **fds, int *nr);
void pmu_close(int *fds, int nr);
int pmu_install(int map_fd, const int *fds, int nr);

/* Every name -e takes here (kernel/pmu_list.c): @fn(kind, name, @ctx). */
typedef void (*pmu_list_fn)(const char *section, const char *name, void *ctx);
void pmu_list_each(pmu_list_fn fn, void *ctx);
/* The same for -e help, one a line with its kind, as perf list prints. */
int pmu_list(FILE *out);

/*
 * -e's argument for option @key: an event pmu_open() knows, else refused
 * with opts_bad_value(); "none" gives NULL; "help" lists them and exits.
 */
error_t pmu_opt_event(const struct argp_state *state, int key, const char *arg,
		      const char **event);

#endif /* __GUPSTAT_KERNEL_PMU_H */
