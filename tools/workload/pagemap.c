// SPDX-License-Identifier: GPL-2.0
/* Reading pagemap, kpageflags, vmstat and zoneinfo for the workloads. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pagemap.h"

static uint64_t read_u64_at(const char *path, uint64_t index)
{
	uint64_t v = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &v, sizeof(v), index * sizeof(v)) != sizeof(v))
		v = 0;
	close(fd);
	return v;
}

uint64_t pagemap_entry(const void *addr)
{
	return read_u64_at("/proc/self/pagemap",
			   (uintptr_t)addr / (uint64_t)sysconf(_SC_PAGESIZE));
}

uint64_t pagemap_pfn(const void *addr)
{
	uint64_t e = pagemap_entry(addr);

	return e & PM_PRESENT ? e & PM_PFN_MASK : 0;
}

uint64_t kpageflags(uint64_t pfn)
{
	return read_u64_at("/proc/kpageflags", pfn);
}

long long vmstat(const char *name)
{
	char key[64];
	long long v, found = -1;
	FILE *f = fopen("/proc/vmstat", "re");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", key, &v) == 2) {
		if (!strcmp(key, name)) {
			found = v;
			break;
		}
	}
	fclose(f);
	return found;
}

/*
 * /proc/zoneinfo: "Node 0, zone  Movable", then "spanned N" and
 * "start_pfn: N" among the zone's lines.
 */
bool movable_zone(uint64_t *start, uint64_t *end)
{
	char line[256];
	unsigned long long v;
	unsigned long long spanned = 0, first = 0;
	bool in = false;
	FILE *f = fopen("/proc/zoneinfo", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Node ", 5)) {
			if (in)
				break;
			in = strstr(line, "zone  Movable") != NULL;
		} else if (in && sscanf(line, " spanned %llu", &v) == 1) {
			spanned = v;
		} else if (in && sscanf(line, " start_pfn: %llu", &v) == 1) {
			first = v;
		}
	}
	fclose(f);
	*start = first;
	*end = first + spanned;
	return spanned > 0;
}
