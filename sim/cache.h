/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A set-associative cache hierarchy: per vCPU an L1d and an L2, one last
 * level shared by all. What it models and what it leaves out is in
 * docs/validate.md ("The simulated cache").
 */
#ifndef __GUPSIM_CACHE_H
#define __GUPSIM_CACHE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct cache_geom {
	uint64_t size;		/* bytes */
	unsigned int ways;
};

/* A named real CPU's data caches, as its vendor documents them. */
struct cache_model {
	const char *name;	/* plugin argument model=NAME */
	const char *cpu;	/* in words, printed with every result */
	unsigned int line;	/* bytes, a power of two */
	struct cache_geom l1d, l2, llc;
};

struct cache {
	uint64_t sets;
	unsigned int ways;
	uint64_t *tag;		/* line number + 1; 0 is an empty way */
	uint64_t *stamp;	/* last use, for LRU */
	uint64_t clock;
};

/* Where an access was satisfied. */
enum cache_level { HIT_L1, HIT_L2, HIT_LLC, HIT_MEMORY };

struct hierarchy {
	const struct cache_model *model;
	unsigned int line_shift, nr_cpus;
	struct cache *l1d, *l2;	/* one per vCPU */
	struct cache llc;
	pthread_mutex_t llc_lock;
};

const struct cache_model *cache_model_find(const char *name);
int hierarchy_init(struct hierarchy *h, const struct cache_model *m, unsigned int nr_cpus);
enum cache_level hierarchy_access(struct hierarchy *h, unsigned int cpu, uint64_t paddr);
int cache_model_describe(const struct cache_model *m, char *buf, int len);

#endif /* __GUPSIM_CACHE_H */
