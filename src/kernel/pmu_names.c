// SPDX-License-Identifier: GPL-2.0
/*
 * perf's own event names: the hardware, software and cache events it
 * knows without a PMU (tools/perf/util/parse-events.c, evsel.c of perf
 * 6.1), spelt as perf spells them and taken with its aliases.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "kernel/pmu_names.h"

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))

/* perf list's name first; @counts is false for what counts nothing. */
static const struct pmu_name generic[] = {
	{ "cpu-cycles", "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, true },
	{ "instructions", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, true },
	{ "cache-references", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, true },
	{ "cache-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, true },
	{ "branch-instructions", "branches", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_BRANCH_INSTRUCTIONS, true },
	{ "branch-misses", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, true },
	{ "bus-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES, true },
	{ "stalled-cycles-frontend", "idle-cycles-frontend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, true },
	{ "stalled-cycles-backend", "idle-cycles-backend", PERF_TYPE_HARDWARE,
	  PERF_COUNT_HW_STALLED_CYCLES_BACKEND, true },
	{ "ref-cycles", NULL, PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, true },
	{ "cpu-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, true },
	{ "task-clock", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, true },
	{ "page-faults", "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, true },
	{ "context-switches", "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, true },
	{ "cpu-migrations", "migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, true },
	{ "minor-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, true },
	{ "major-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, true },
	{ "alignment-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, true },
	{ "emulation-faults", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_EMULATION_FAULTS, true },
	{ "cgroup-switches", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CGROUP_SWITCHES, true },
	/* Placeholders that never count: perf takes them, -e cannot. */
	{ "dummy", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, false },
	{ "bpf-output", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_BPF_OUTPUT, false },
};

/*
 * evsel__hw_cache[]: perf list's spelling first; not "branches", which
 * perf's lexer takes for the hardware event alone.
 */
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][5] = {
	[PERF_COUNT_HW_CACHE_L1D] = { "L1-dcache", "l1-d", "l1d", "L1-data" },
	[PERF_COUNT_HW_CACHE_L1I] = { "L1-icache", "l1-i", "l1i", "L1-instruction" },
	[PERF_COUNT_HW_CACHE_LL] = { "LLC", "L2" },
	[PERF_COUNT_HW_CACHE_DTLB] = { "dTLB", "d-tlb", "Data-TLB" },
	[PERF_COUNT_HW_CACHE_ITLB] = { "iTLB", "i-tlb", "Instruction-TLB" },
	[PERF_COUNT_HW_CACHE_BPU] = { "branch", "bpu", "btb", "bpc" },
	[PERF_COUNT_HW_CACHE_NODE] = { "node" },
};

/* evsel__hw_cache_op[]: [1] is perf list's for accesses, [0] for misses. */
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][5] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = { "load", "loads", "read" },
	[PERF_COUNT_HW_CACHE_OP_WRITE] = { "store", "stores", "write" },
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = { "prefetch", "prefetches", "speculative-read",
					      "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][5] = {
	[PERF_COUNT_HW_CACHE_RESULT_ACCESS] = { "refs", "Reference", "ops", "access" },
	[PERF_COUNT_HW_CACHE_RESULT_MISS] = { "misses", "miss" },
};

/* evsel__is_cache_op_valid(): which operations each cache has. */
static const unsigned int cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = 7,
	[PERF_COUNT_HW_CACHE_L1I] = 1 | 4,
	[PERF_COUNT_HW_CACHE_LL] = 7,
	[PERF_COUNT_HW_CACHE_DTLB] = 7,
	[PERF_COUNT_HW_CACHE_ITLB] = 1,
	[PERF_COUNT_HW_CACHE_BPU] = 1,
	[PERF_COUNT_HW_CACHE_NODE] = 7,
};

/*
 * The alias of @table (rows of up to five) that @s starts with, ending
 * at '-' or the end; the longest wins ("L1-dcache" before "l1-d"). Its
 * row, or -1, with its length in @len.
 */
static int match_alias(const char *s, const char *const (*table)[5], size_t rows,
		       size_t *len)
{
	size_t r, a, n;
	int row = -1;

	*len = 0;
	for (r = 0; r < rows; r++) {
		for (a = 0; a < 5 && table[r][a]; a++) {
			n = strlen(table[r][a]);
			if (n > *len && !strncmp(s, table[r][a], n) &&
			    (s[n] == '-' || !s[n])) {
				*len = n;
				row = r;
			}
		}
	}
	return row;
}

/*
 * One of perf's cache events: a cache, then up to two of an operation
 * and a result in either order, each defaulting (to load, to accesses)
 * as perf's parse_events_add_cache() has them.
 */
static int parse_cache(const char *name, __u64 *config)
{
	int type, op = -1, res = -1, r;
	size_t len, part;

	type = match_alias(name, cache_types, PERF_COUNT_HW_CACHE_MAX, &len);
	if (type < 0)
		return -ENOENT;
	name += len;
	for (part = 0; part < 2 && *name; part++) {
		name++;		/* the '-' */
		r = op < 0 ? match_alias(name, cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, &len) : -1;
		if (r >= 0) {
			if (!(cache_valid_ops[type] & 1u << r))
				return -ENOENT;
			op = r;
		} else {
			r = res < 0 ? match_alias(name, cache_results,
						  PERF_COUNT_HW_CACHE_RESULT_MAX, &len) : -1;
			if (r < 0)
				return -ENOENT;
			res = r;
		}
		name += len;
	}
	if (*name)
		return -ENOENT;
	*config = type | (__u64)(op < 0 ? 0 : op) << 8 | (__u64)(res < 0 ? 0 : res) << 16;
	return 0;
}

/* "branch-misses-load": perf's lexer reads a generic name and refuses the rest. */
static bool generic_prefix(const char *name)
{
	size_t i, n;

	for (i = 0; i < ARRAY_LEN(generic); i++) {
		n = strlen(generic[i].name);
		if (!strncmp(name, generic[i].name, n) && name[n] == '-')
			return true;
	}
	return false;
}

int pmu_name_parse(const char *name, struct perf_event_attr *attr)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(generic); i++) {
		if (strcmp(name, generic[i].name) &&
		    (!generic[i].alias || strcmp(name, generic[i].alias)))
			continue;
		if (!generic[i].counts)
			return -EOPNOTSUPP;
		attr->type = generic[i].type;
		attr->config = generic[i].config;
		return 0;
	}
	if (generic_prefix(name) || parse_cache(name, &attr->config))
		return -ENOENT;
	attr->type = PERF_TYPE_HW_CACHE;
	return 0;
}

const char *pmu_name_hw_symbol(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_LEN(generic); i++)
		if (generic[i].type == PERF_TYPE_HARDWARE && generic[i].alias &&
		    !strcmp(name, generic[i].alias))
			return generic[i].name;
	return name;
}

/*
 * Every name the table takes, perf list's spelling and the aliases, and
 * each cache event as perf list spells it: @fn(@section, name, @ctx).
 */
void pmu_name_each(pmu_list_fn fn, void *ctx)
{
	char buf[64];
	size_t i, c, op;

	for (i = 0; i < ARRAY_LEN(generic); i++) {
		if (!generic[i].counts)
			continue;
		fn(generic[i].type == PERF_TYPE_HARDWARE ? "Hardware event" : "Software event",
		   generic[i].name, ctx);
		if (generic[i].alias)
			fn(generic[i].type == PERF_TYPE_HARDWARE ? "Hardware event" : "Software event",
			   generic[i].alias, ctx);
	}
	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_valid_ops[c] & 1u << op))
				continue;
			snprintf(buf, sizeof(buf), "%s-%s", cache_types[c][0], cache_ops[op][1]);
			fn("Hardware cache event", buf, ctx);
			snprintf(buf, sizeof(buf), "%s-%s-misses", cache_types[c][0],
				 cache_ops[op][0]);
			fn("Hardware cache event", buf, ctx);
		}
	}
}
