// SPDX-License-Identifier: GPL-2.0
/* Records sorted by a leading __u64 id (idarray.h). */
#include <stdlib.h>
#include <string.h>
#include "util/idarray.h"

void id_array_init(struct id_array *a, size_t size)
{
	memset(a, 0, sizeof(*a));
	a->size = size;
}

void id_array_free(struct id_array *a)
{
	free(a->v);
	id_array_init(a, a->size);
}

static __u64 id_at(const struct id_array *a, size_t i)
{
	__u64 id;

	memcpy(&id, id_array_at(a, i), sizeof(id));
	return id;
}

/* Where @id is or would go. */
static size_t find(const struct id_array *a, __u64 id)
{
	size_t lo = 0, hi = a->n;

	if (a->last < a->n && id_at(a, a->last) == id)
		return a->last;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (id_at(a, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int insert(struct id_array *a, size_t at, __u64 id)
{
	char *rec;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		void *v = realloc(a->v, cap * a->size);

		if (!v)
			return -1;
		a->v = v;
		a->cap = cap;
	}
	rec = id_array_at(a, at);
	memmove(rec + a->size, rec, (a->n - at) * a->size);
	memset(rec, 0, a->size);
	memcpy(rec, &id, sizeof(id));
	a->n++;
	return 0;
}

void *id_array_get(struct id_array *a, __u64 id)
{
	size_t at = find(a, id);

	if ((at == a->n || id_at(a, at) != id) && insert(a, at, id))
		return NULL;
	a->last = at;
	return id_array_at(a, at);
}
