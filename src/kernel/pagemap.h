/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_PAGEMAP_H
#define __GUPSTAT_KERNEL_PAGEMAP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * What the kernel says of this process's pages and of physical pages:
 * /proc/self/pagemap (pfn, soft-dirty, uffd-wp; root sees pfns),
 * /proc/kpageflags, and counters from /proc/vmstat and /proc/zoneinfo.
 */
#define PM_PFN_MASK	((1ULL << 55) - 1)
#define PM_SOFT_DIRTY	(1ULL << 55)
#define PM_UFFD_WP	(1ULL << 57)
#define PM_PRESENT	(1ULL << 63)

#define KPF_DIRTY	4
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
#define KPF_HUGE	17
#define KPF_THP		22

/* The pagemap entry of the page at @addr; 0 where it cannot be read. */
uint64_t pagemap_entry(const void *addr);
/* Its pfn, or 0 where the page is not present. */
uint64_t pagemap_pfn(const void *addr);
/* /proc/kpageflags of @pfn; 0 where it cannot be read. */
uint64_t pagemap_kpageflags(uint64_t pfn);
static inline bool pagemap_flag(uint64_t flags, int bit)
{
	return flags & (1ULL << bit);
}
/*
 * Many pages, as validate checks a range's folios: both files held open,
 * pagemap_open() 0 or -errno (r->pagemap < 0: it was pagemap that failed).
 */
struct pagemap_reader {
	int pagemap, kpageflags;
};

int pagemap_open(struct pagemap_reader *r);
/* The pfn of this process's page at @addr, 0 where not present or unreadable. */
uint64_t pagemap_read_pfn(const struct pagemap_reader *r, const void *addr);
/* /proc/kpageflags of @pfn into @flags: 0, or -EIO where it cannot be read. */
int pagemap_read_flags(const struct pagemap_reader *r, uint64_t pfn, uint64_t *flags);
void pagemap_close(struct pagemap_reader *r);

/* A /proc/vmstat counter, or -1 where the kernel has none by that name. */
long long pagemap_vmstat(const char *name);
/* First and last+1 pfn of node 0's ZONE_MOVABLE; false where it is empty. */
bool pagemap_movable_zone(uint64_t *start, uint64_t *end);

#endif /* __GUPSTAT_KERNEL_PAGEMAP_H */
