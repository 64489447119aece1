/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_VALIDATE_MEM_H
#define __GUPSTAT_VALIDATE_MEM_H

#include <stddef.h>
#include "results/results.h"

#define THP_SYSFS	"/sys/kernel/mm/transparent_hugepage"
#define THP_MAX_SIZES	16

/* The per-size THP settings as found, to put back at the end. */
struct thp_saved {
	char names[THP_MAX_SIZES][32];	/* hugepages-64kB ... */
	char modes[THP_MAX_SIZES][16];	/* always, inherit, madvise, never */
	int nr;
};

/* A range of anonymous memory populated with one folio size. */
struct v_region {
	char *addr;
	size_t len;
	void *map;
	size_t map_len;
};

int thp_save(struct thp_saved *s);
void thp_restore(const struct thp_saved *s);
int thp_select(const struct thp_saved *s, enum v_folio f);

int region_populate(struct v_region *r, size_t len, enum v_folio f);
int region_layout(const struct v_region *r, enum v_folio f,
		  unsigned long *pages, unsigned long *folios);
void region_free(struct v_region *r);

unsigned long evict_default_bytes(void);
int evict_setup(size_t bytes);
void evict_caches(void);
void evict_free(void);

#endif /* __GUPSTAT_VALIDATE_MEM_H */
