/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_FOLIO_H
#define __GUPSTAT_KERNEL_FOLIO_H

#include <stdbool.h>

#define FOLIO_MAX_SIZES	16
#define FOLIO_THP_DIR	"/sys/kernel/mm/transparent_hugepage"

/*
 * Anonymous folio size through the per-size THP knobs
 * (/sys/kernel/mm/transparent_hugepage/hugepages-<N>kB/enabled), and the
 * per-size anon_fault_alloc counters that confirm what faults allocated.
 * With @shmem, the same for anonymous shared memory: the shmem_enabled
 * knobs and the shmem_alloc/shmem_fallback counters.
 * A kernel without them has the top-level switch and /proc/vmstat's
 * thp_fault_alloc: base pages and the PMD size only (folio_select() says
 * -EOPNOTSUPP for any other). The base page is the kernel's page size
 * (folio_base_kb()): 4 kB on x86, 4 kB or 64 kB on the arm64 kernels.
 */
struct folio_sizes {
	int nr;
	bool legacy;	/* no per-size knobs: the top-level switch, PMD size */
	bool shmem;	/* MAP_SHARED anonymous memory: the shmem knobs */
	bool madvise;	/* folio_select() sets "madvise", not "always" */
	unsigned long kb[FOLIO_MAX_SIZES];
	char saved[FOLIO_MAX_SIZES][16];	/* knob values to restore */
	/* the alloc and fallback counters at folio_snapshot() */
	unsigned long long allocs[FOLIO_MAX_SIZES];
	unsigned long long fallbacks[FOLIO_MAX_SIZES];
};

int folio_parse_size(const char *s, unsigned long *kb);
unsigned long folio_base_kb(void);
int folio_discover(struct folio_sizes *fs, bool shmem);
int folio_select(struct folio_sizes *fs, unsigned long kb);
/* A per-size knob (not the legacy switch) for folios of @kb. */
bool folio_has_size(const struct folio_sizes *fs, unsigned long kb);
void folio_restore(const struct folio_sizes *fs);
int folio_snapshot(struct folio_sizes *fs);
/* Size @i's alloc and fallback counters now, and their names. */
int folio_stats(const struct folio_sizes *fs, int i, unsigned long long *alloc,
		unsigned long long *fallback);
const char *folio_alloc_stat(const struct folio_sizes *fs);
const char *folio_fallback_stat(const struct folio_sizes *fs);

#endif /* __GUPSTAT_KERNEL_FOLIO_H */
