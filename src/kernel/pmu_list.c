// SPDX-License-Identifier: GPL-2.0
/*
 * What -e takes on this machine, as perf list shows it (-e help): perf's
 * own names, the sysfs PMUs' events, the CPU's through libpfm4. Also the
 * names a mistyped event is measured against.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/pmu.h"
#include "kernel/pmu_names.h"
#include "kernel/pmu_pfm.h"
#include "kernel/pmu_sysfs.h"

void pmu_list_each(pmu_list_fn fn, void *ctx)
{
	pmu_name_each(fn, ctx);
	pmu_sysfs_each(fn, ctx);
	pmu_pfm_each(fn, ctx);
}

struct listing {
	char **lines;
	size_t nr, cap;
	int err;
};

static void collect(const char *section, const char *name, void *ctx)
{
	struct listing *l = ctx;
	char **grown;

	if (l->nr == l->cap) {
		grown = realloc(l->lines, (l->cap * 2 + 64) * sizeof(*grown));
		if (!grown) {
			l->err = 1;
			return;
		}
		l->lines = grown;
		l->cap = l->cap * 2 + 64;
	}
	if (asprintf(&l->lines[l->nr], "  %-48s [%s]", name, section) < 0)
		l->err = 1;
	else
		l->nr++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * One name a line, then its kind in brackets; perf's own names first,
 * in perf list's order, the PMUs' sorted.
 */
int pmu_list(FILE *out)
{
	struct listing l = {};
	size_t i, own;

	pmu_name_each(collect, &l);
	own = l.nr;
	pmu_sysfs_each(collect, &l);
	pmu_pfm_each(collect, &l);
	qsort(l.lines + own, l.nr - own, sizeof(*l.lines), by_name);
	for (i = 0; i < l.nr; i++) {
		fprintf(out, "%s\n", l.lines[i]);
		free(l.lines[i]);
	}
	free(l.lines);
	fprintf(out, "\nand rNNNN (a raw code of the CPU's PMU, in hex), PMU/term=value,.../\n"
		"(a sysfs PMU's terms), each with perf's modifiers: EVENT:ukhGHIDp\n");
	return l.err ? -1 : 0;
}
