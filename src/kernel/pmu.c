// SPDX-License-Identifier: GPL-2.0
/*
 * perf events by the names perf uses, opened once per CPU for the BPF
 * programs to read (bpf_perf_event_read_value) at call entry and exit.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "kernel/pmu.h"
#include "util/msg.h"
#include "util/options.h"
#include "util/parse.h"

struct named_event {
	const char *name;
	__u32 type;
	__u64 config;
};

static const struct named_event events[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "cpu-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branches", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cs", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
};

static const char *const caches[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};

static const char *const cache_ops[] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load",
	[PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};

/* "LLC-load-misses", "L1-dcache-loads": perf's cache event names. */
static int parse_cache(const char *name, struct perf_event_attr *attr)
{
	char buf[64];
	size_t c, op, n;
	bool miss;

	for (c = 0; c < sizeof(caches) / sizeof(caches[0]); c++) {
		n = strlen(caches[c]);
		if (strncmp(name, caches[c], n) || name[n] != '-')
			continue;
		for (op = 0; op < sizeof(cache_ops) / sizeof(cache_ops[0]); op++) {
			snprintf(buf, sizeof(buf), "%s-%ss", caches[c], cache_ops[op]);
			miss = false;
			if (strcmp(name, buf)) {
				snprintf(buf, sizeof(buf), "%s-%s-misses", caches[c], cache_ops[op]);
				miss = true;
			}
			if (strcmp(name, buf))
				continue;
			attr->type = PERF_TYPE_HW_CACHE;
			attr->config = c | op << 8 |
				(miss ? PERF_COUNT_HW_CACHE_RESULT_MISS :
					PERF_COUNT_HW_CACHE_RESULT_ACCESS) << 16;
			return 0;
		}
	}
	return -ENOENT;
}

/*
 * Fill @attr for perf event @name; -ENOENT for a name we do not know,
 * -ERANGE for a raw code (rNNNN, hex) wider than perf's 64-bit config.
 */
int pmu_parse_event(const char *name, struct perf_event_attr *attr)
{
	size_t i;
	int err;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	for (i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		if (!strcmp(name, events[i].name)) {
			attr->type = events[i].type;
			attr->config = events[i].config;
			return 0;
		}
	}
	if (name[0] == 'r' && name[1]) {
		attr->type = PERF_TYPE_RAW;
		err = parse_hex_u64(name + 1, &attr->config);
		return err == -ERANGE ? err : err ? -ENOENT : 0;
	}
	return parse_cache(name, attr);
}

/* Says so in one line when @name is not an event we know. */
bool pmu_known_event(const char *name)
{
	struct perf_event_attr attr;

	if (!pmu_parse_event(name, &attr))
		return true;
	p_err("unknown perf event '%s' (try cache-misses, LLC-load-misses, cycles, cpu-clock or rNNNN)\n",
	      name);
	return false;
}

/*
 * Open @name on every CPU. On failure prints one line saying why and
 * returns -errno; the caller goes on without counters.
 */
int pmu_open(const char *name, int **fds, int *nr)
{
	struct perf_event_attr attr;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	int cpu, err;

	if (!pmu_known_event(name))
		return -EINVAL;
	pmu_parse_event(name, &attr);
	*fds = calloc(ncpu, sizeof(int));
	if (!*fds)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpu; cpu++) {
		(*fds)[cpu] = syscall(SYS_perf_event_open, &attr, -1, cpu, -1, 0);
		if ((*fds)[cpu] < 0) {
			err = -errno;
			p_err("no '%s' counter on CPU %d (%s): going on without the counter column\n",
			      name, cpu, strerror(-err));
			pmu_close(*fds, cpu);
			*fds = NULL;
			return err;
		}
	}
	*nr = ncpu;
	return 0;
}

void pmu_close(int *fds, int nr)
{
	int i;

	for (i = 0; fds && i < nr; i++)
		close(fds[i]);
	free(fds);
}

/*
 * Put the per-CPU counters into a BPF_MAP_TYPE_PERF_EVENT_ARRAY, one per
 * CPU index, where bpf_perf_event_read_value(BPF_F_CURRENT_CPU) finds them.
 */
int pmu_install(int map_fd, const int *fds, int nr)
{
	int cpu;

	for (cpu = 0; cpu < nr; cpu++) {
		if (bpf_map_update_elem(map_fd, &cpu, &fds[cpu], BPF_ANY)) {
			p_err("cannot install the counter of CPU %d: %s\n",
			      cpu, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

error_t pmu_opt_event(const struct argp_state *state, int key, const char *arg,
		      const char **event)
{
	struct perf_event_attr attr;
	int err;

	if (!strcmp(arg, "none")) {
		*event = NULL;
		return 0;
	}
	err = pmu_parse_event(arg, &attr);
	if (err == -ERANGE)
		return opts_bad_value(state, key, "raw event code wider than 64 bits", arg);
	if (err)
		return opts_bad_value(state, key, "unknown perf event (try cache-misses, "
				      "LLC-load-misses, cycles, cpu-clock or rNNNN)", arg);
	*event = arg;
	return 0;
}
