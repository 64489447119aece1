// SPDX-License-Identifier: GPL-2.0
/*
 * The clocks a trace file's timestamps may be on. The tracer reads
 * CLOCK_MONOTONIC (bpf_ktime_get_ns()), ftrace's "mono" and perf's
 * -k CLOCK_MONOTONIC; CLOCK_BOOTTIME, which goes on counting in suspend,
 * is what a tracer on bpf_ktime_get_boot_ns() would write.
 */
#include <stddef.h>
#include <time.h>
#include "tracefile/clock.h"

static const struct {
	unsigned int id;
	const char *name;
	const char *helper;
} clocks[] = {
	{ CLOCK_MONOTONIC, "CLOCK_MONOTONIC", "bpf_ktime_get_ns()" },
	{ CLOCK_BOOTTIME, "CLOCK_BOOTTIME", "bpf_ktime_get_boot_ns()" },
};

static int clock_index(unsigned int clock_id)
{
	size_t i;

	for (i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		if (clocks[i].id == clock_id)
			return i;
	return -1;
}

const char *trace_clock_name(unsigned int clock_id)
{
	int i = clock_index(clock_id);

	return i < 0 ? NULL : clocks[i].name;
}

const char *trace_clock_helper(unsigned int clock_id)
{
	int i = clock_index(clock_id);

	return i < 0 ? NULL : clocks[i].helper;
}
