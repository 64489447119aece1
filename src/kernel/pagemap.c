// SPDX-License-Identifier: GPL-2.0
/* Reading pagemap, kpageflags, vmstat and zoneinfo: the workloads' and validate's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/pagemap.h"

/* The @index'th u64 of an open file; 0 where it cannot be read. */
static uint64_t read_u64(int fd, uint64_t index)
{
	uint64_t v = 0;

	if (pread(fd, &v, sizeof(v), index * sizeof(v)) != sizeof(v))
		v = 0;
	return v;
}

static uint64_t read_u64_at(const char *path, uint64_t index)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	uint64_t v;

	if (fd < 0)
		return 0;
	v = read_u64(fd, index);
	close(fd);
	return v;
}

static uint64_t page_index(const void *addr)
{
	return (uintptr_t)addr / (uint64_t)sysconf(_SC_PAGESIZE);
}

int pagemap_open(struct pagemap_reader *r)
{
	r->kpageflags = -1;
	r->pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (r->pagemap < 0)
		return -errno;
	r->kpageflags = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC);
	if (r->kpageflags < 0) {
		int err = -errno;

		close(r->pagemap);
		return err;
	}
	return 0;
}

uint64_t pagemap_read_pfn(const struct pagemap_reader *r, const void *addr)
{
	uint64_t e = read_u64(r->pagemap, page_index(addr));

	return e & PM_PRESENT ? e & PM_PFN_MASK : 0;
}

int pagemap_read_flags(const struct pagemap_reader *r, uint64_t pfn, uint64_t *flags)
{
	return pread(r->kpageflags, flags, sizeof(*flags), pfn * sizeof(*flags)) ==
	       sizeof(*flags) ? 0 : -EIO;
}

void pagemap_close(struct pagemap_reader *r)
{
	close(r->pagemap);
	close(r->kpageflags);
}

uint64_t pagemap_entry(const void *addr)
{
	return read_u64_at("/proc/self/pagemap", page_index(addr));
}

uint64_t pagemap_pfn(const void *addr)
{
	uint64_t e = pagemap_entry(addr);

	return e & PM_PRESENT ? e & PM_PFN_MASK : 0;
}

uint64_t pagemap_kpageflags(uint64_t pfn)
{
	return read_u64_at("/proc/kpageflags", pfn);
}

long long pagemap_vmstat(const char *name)
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
bool pagemap_movable_zone(uint64_t *start, uint64_t *end)
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
