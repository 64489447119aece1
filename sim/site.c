// SPDX-License-Identifier: GPL-2.0
/*
 * Sites, hashed by address. Made and looked up at translation time
 * only, never on the execution path: the block's callbacks carry their
 * site.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "site.h"
#include "window.h"

#define HASH_BITS	16

static struct site *table[1 << HASH_BITS];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int hash(uint64_t vaddr)
{
	return (unsigned int)((vaddr * 0x9e3779b97f4a7c15ull) >> (64 - HASH_BITS));
}

static bool is_irq_entry(const struct config *c, uint64_t vaddr)
{
	int i;

	for (i = 0; i < c->nr_irq; i++)
		if (c->irq[i] == vaddr)
			return true;
	return false;
}

static unsigned int flags_of(const struct config *c, uint64_t vaddr)
{
	unsigned int f = is_irq_entry(c, vaddr) ? SITE_IRQ_ENTRY : 0;

	if (vaddr >= c->switch_start && vaddr < c->switch_end)
		f |= SITE_SWITCH;
	return f;
}

struct site *site_get(uint64_t vaddr, unsigned int n_insns, const struct config *c)
{
	struct site **head = &table[hash(vaddr)], *s;

	pthread_mutex_lock(&table_lock);
	for (s = *head; s && s->vaddr != vaddr; s = s->next)
		;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (s) {
			s->vaddr = vaddr;
			s->flags = flags_of(c, vaddr);
			s->next = *head;
			*head = s;
		}
	}
	if (s)
		s->n_insns = n_insns;
	pthread_mutex_unlock(&table_lock);
	return s;
}

/* @fn on every site, under the table's lock. */
static void sites_walk(void (*fn)(struct site *s, const struct config *c),
		       const struct config *c)
{
	struct site *s;
	size_t i;

	pthread_mutex_lock(&table_lock);
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		for (s = table[i]; s; s = s->next)
			fn(s, c);
	pthread_mutex_unlock(&table_lock);
}

static void site_reflag(struct site *s, const struct config *c)
{
	s->flags = flags_of(c, s->vaddr);
}

void sites_reflag(const struct config *c)
{
	sites_walk(site_reflag, c);
}

uint64_t *site_prof(struct site *s, int func)
{
	if (!s->prof)
		s->prof = calloc(GUPSIM_MAX_FUNCS, sizeof(*s->prof));
	return s->prof ? s->prof[func] : NULL;
}

static void site_dump(struct site *s, const struct config *c)
{
	char counts[512];
	int f;

	if (!s->prof)
		return;
	for (f = 0; f < c->nr_funcs; f++) {
		if (!s->prof[f][GS_INSNS] && !s->prof[f][GS_ACCESS])
			continue;
		counts_line(counts, sizeof(counts), s->prof[f]);
		log_line("prof %s 0x%" PRIx64 "%s", c->name[f], s->vaddr, counts);
	}
	memset(s->prof, 0, GUPSIM_MAX_FUNCS * sizeof(*s->prof));
}

void sites_dump(const struct config *c)
{
	sites_walk(site_dump, c);
	log_line("profend");
}
