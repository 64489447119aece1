/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_VALIDATE_MEM_H
#define __GUPSTAT_VALIDATE_MEM_H

#include <stddef.h>
#include "kernel/folio.h"
#include "results/results.h"

/* A range of anonymous memory populated with one folio size. */
struct v_region {
	char *addr;
	size_t len;
	void *map;
	size_t map_len;
};

/*
 * The THP settings as found, to put back at the end (folio_restore()):
 * 0, or -errno said.
 */
int thp_save(struct folio_sizes *fs);
int thp_select(struct folio_sizes *fs, enum v_folio f);

int region_populate(struct v_region *r, size_t len, enum v_folio f);
int region_layout(const struct v_region *r, enum v_folio f,
		  unsigned long *pages, unsigned long *folios);
void region_free(struct v_region *r);

unsigned long evict_default_bytes(void);
int evict_setup(size_t bytes);
void evict_caches(void);
void evict_free(void);

#endif /* __GUPSTAT_VALIDATE_MEM_H */
