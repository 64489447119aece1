// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model: physically indexed and tagged, true LRU in each set,
 * write-allocate with stores treated as loads, and a miss fills every
 * level it passed (no victim cache, no back-invalidation, no
 * prefetcher, no coherence between the private levels). Simple on
 * purpose: the question it answers is which lines a kernel call finds
 * missing, not how long the misses take.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cache.h"

static const struct cache_model models[] = {
	{
		/* AMD's EPYC 7003 series: per core 32 KiB 8-way L1d and
		 * 512 KiB 8-way L2; 32 MiB 16-way L3 per 8-core complex. */
		.name = "zen3", .cpu = "AMD Zen 3 (EPYC 7003)", .line = 64,
		.l1d = { 32 << 10, 8 }, .l2 = { 512 << 10, 8 }, .llc = { 32 << 20, 16 },
	},
	{
		/* Intel's Xeon Scalable 8100 series: per core 32 KiB 8-way
		 * L1d and 1 MiB 16-way L2; 1.375 MiB of 11-way L3 per core,
		 * here the 28-core part's 38.5 MiB. */
		.name = "skylake-sp", .cpu = "Intel Skylake-SP (Xeon 8180)", .line = 64,
		.l1d = { 32 << 10, 8 }, .l2 = { 1 << 20, 16 }, .llc = { 28 * (1408 << 10), 11 },
	},
};

const struct cache_model *cache_model_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, name))
			return &models[i];
	return NULL;
}

static int cache_init(struct cache *c, const struct cache_geom *g, unsigned int line)
{
	c->ways = g->ways;
	c->sets = g->size / line / g->ways;
	c->tag = calloc(c->sets * c->ways, sizeof(*c->tag));
	c->stamp = calloc(c->sets * c->ways, sizeof(*c->stamp));
	c->clock = 0;
	return c->tag && c->stamp && c->sets ? 0 : -ENOMEM;
}

/* True on a hit. A miss takes the least recently used way. */
static bool cache_access(struct cache *c, uint64_t lineno)
{
	uint64_t set = lineno % c->sets, want = lineno + 1;
	uint64_t *tag = &c->tag[set * c->ways], *stamp = &c->stamp[set * c->ways];
	unsigned int i, victim = 0;

	c->clock++;
	for (i = 0; i < c->ways; i++) {
		if (tag[i] == want) {
			stamp[i] = c->clock;
			return true;
		}
		if (stamp[i] < stamp[victim])
			victim = i;
	}
	tag[victim] = want;
	stamp[victim] = c->clock;
	return false;
}

int hierarchy_init(struct hierarchy *h, const struct cache_model *m, unsigned int nr_cpus)
{
	unsigned int i;
	int err;

	h->model = m;
	h->nr_cpus = nr_cpus;
	h->line_shift = __builtin_ctz(m->line);
	h->l1d = calloc(nr_cpus, sizeof(*h->l1d));
	h->l2 = calloc(nr_cpus, sizeof(*h->l2));
	if (!h->l1d || !h->l2)
		return -ENOMEM;
	for (i = 0; i < nr_cpus; i++) {
		err = cache_init(&h->l1d[i], &m->l1d, m->line) ?:
		      cache_init(&h->l2[i], &m->l2, m->line);
		if (err)
			return err;
	}
	pthread_mutex_init(&h->llc_lock, NULL);
	return cache_init(&h->llc, &m->llc, m->line);
}

/* The private levels need no lock: each vCPU's are touched by its thread. */
enum cache_level hierarchy_access(struct hierarchy *h, unsigned int cpu, uint64_t paddr)
{
	uint64_t lineno = paddr >> h->line_shift;
	bool hit;

	if (cache_access(&h->l1d[cpu], lineno))
		return HIT_L1;
	if (cache_access(&h->l2[cpu], lineno))
		return HIT_L2;
	pthread_mutex_lock(&h->llc_lock);
	hit = cache_access(&h->llc, lineno);
	pthread_mutex_unlock(&h->llc_lock);
	return hit ? HIT_LLC : HIT_MEMORY;
}

static int geom_describe(const char *name, const struct cache_geom *g, char *buf, int len)
{
	return snprintf(buf, len, " %s %llu KiB %u-way", name,
			(unsigned long long)g->size >> 10, g->ways);
}

int cache_model_describe(const struct cache_model *m, char *buf, int len)
{
	int n = snprintf(buf, len, "%s: %s, %u B lines;", m->name, m->cpu, m->line);

	n += geom_describe("L1d", &m->l1d, buf + n, len - n);
	n += geom_describe("L2", &m->l2, buf + n, len - n);
	n += geom_describe("LLC (shared)", &m->llc, buf + n, len - n);
	n += snprintf(buf + n, len - n, "; LRU, fill on miss, no prefetcher");
	return n;
}
