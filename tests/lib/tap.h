/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP for the C unit tests: CHECK() per case, SKIP() for a missing tool,
 * check_done() prints the plan.
 */
#ifndef __GUPSTAT_TAP_H
#define __GUPSTAT_TAP_H

#include <stdio.h>

static int check_nr, check_failed;

#define CHECK(cond, ...) do {						\
	check_nr++;							\
	if (cond) {							\
		printf("ok %d - ", check_nr);				\
	} else {							\
		check_failed++;						\
		printf("not ok %d - %s:%d: ", check_nr, __FILE__, __LINE__); \
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

/*
 * A case this machine cannot run for want of a tool: TAP's skip, with
 * the reason and what installs the tool, so that prove counts it apart.
 */
#define SKIP(...) do {							\
	check_nr++;							\
	printf("ok %d # skip ", check_nr);				\
	printf(__VA_ARGS__);						\
	printf("\n");							\
} while (0)

static inline int check_done(void)
{
	printf("1..%d\n", check_nr);
	return check_failed ? 1 : 0;
}

#endif /* __GUPSTAT_TAP_H */
