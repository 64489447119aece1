/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_IDARRAY_H
#define __GUPSTAT_UTIL_IDARRAY_H

#include <stddef.h>
#include <linux/types.h>

/*
 * Records kept sorted by the __u64 id each starts with, found or made by
 * binary search: memory grows with the distinct ids (cgroups), not with
 * the lookups (holds), and they come out in ascending ids.
 */
struct id_array {
	void *v;		/* @n records of @size bytes */
	size_t n, cap, size;
	size_t last;		/* the previous lookup's: lookups come in runs */
};

void id_array_init(struct id_array *a, size_t size);
void id_array_free(struct id_array *a);
/* The record of @id, made zeroed but for its id where missing; NULL without memory. */
void *id_array_get(struct id_array *a, __u64 id);
/* Record @i, in ascending ids (until the caller sorts a->v otherwise). */
static inline void *id_array_at(const struct id_array *a, size_t i)
{
	return (char *)a->v + i * a->size;
}

#endif /* __GUPSTAT_UTIL_IDARRAY_H */
