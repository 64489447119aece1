// SPDX-License-Identifier: GPL-2.0
/*
 * The perf counter per call: -e checked (and refused in one line naming
 * the nearest known event), opened once per CPU for the BPF programs to
 * read (bpf_perf_event_read_value) at call entry and exit.
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
#include "util/strdist.h"

static void offer(const char *section, const char *name, void *ctx)
{
	strdist_offer(ctx, name);
}

/* Why @name is refused, in @buf: the nearest known name for a typo. */
static const char *refusal(const char *name, char *buf, size_t len)
{
	struct perf_event_attr attr;
	struct strdist sd;
	char why[160];
	const char *best;

	if (pmu_parse_event_why(name, &attr, why, sizeof(why)) != -ENOENT)
		return snprintf(buf, len, "%s", why), buf;
	strdist_init(&sd, name);
	pmu_list_each(offer, &sd);
	best = strdist_best(&sd);
	if (best)
		snprintf(buf, len, "unknown perf event (did you mean %s? -e help lists them)", best);
	else
		snprintf(buf, len, "unknown perf event (-e help lists them; a raw one is rNNNN)");
	return buf;
}

/* Says so in one line when @name is not an event we know. */
bool pmu_known_event(const char *name)
{
	struct perf_event_attr attr;
	char why[256];

	if (!pmu_parse_event(name, &attr))
		return true;
	p_err("-e: %s: '%s'\n", refusal(name, why, sizeof(why)), name);
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
	char why[256];

	if (!strcmp(arg, "none")) {
		*event = NULL;
		return 0;
	}
	if (!strcmp(arg, "help")) {
		pmu_list(stdout);
		exit(ferror(stdout) || fflush(stdout) ? 1 : 0);
	}
	if (pmu_parse_event(arg, &attr))
		return opts_bad_value(state, key, refusal(arg, why, sizeof(why)), arg);
	*event = arg;
	return 0;
}
