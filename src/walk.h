/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_WALK_H
#define __GUPSTAT_WALK_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/types.h>
#include "gupstat.h"

int walk_stats_read(int map_fd, struct walk_stats *sum);
void walk_stats_print(FILE *f, const struct walk_stats *st,
		      const char *method, bool returns_count);

#endif /* __GUPSTAT_WALK_H */
