/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A site is one kernel code block, by the guest virtual address it
 * starts at: what the plugin knows of it (how many instructions its
 * latest translation has, whether it is an interrupt entry or
 * __switch_to_asm) and, per counted function, what the calls of that
 * function did there: the flat profile GUPSIM_PROFILE dumps.
 *
 * Kernel text does not move once booted, so a block keeps its site for
 * the whole run; a block retranslated after its code changed (ftrace
 * patching a call site, a BPF program JITed at a reused address) updates
 * its instruction count.
 */
#ifndef __GUPSIM_SITE_H
#define __GUPSIM_SITE_H

#include <stdbool.h>
#include <stdint.h>
#include "gupsim.h"

enum site_flags {
	SITE_IRQ_ENTRY = 1,	/* an interrupt or exception vector's entry */
	SITE_SWITCH = 2,	/* inside __switch_to_asm */
};

struct site {
	uint64_t vaddr;
	unsigned int n_insns;
	unsigned int flags;
	uint64_t (*prof)[GS_NR];	/* [GUPSIM_MAX_FUNCS], from its first count */
	struct site *next;		/* hash chain */
};

struct config;

/* The site of the block at VADDR, made on its first translation. */
struct site *site_get(uint64_t vaddr, unsigned int n_insns, const struct config *c);
/* The configuration changed: every site's flags again. */
void sites_reflag(const struct config *c);
/* A count of function FUNC's call in this site; NULL if out of memory. */
uint64_t *site_prof(struct site *s, int func);
/* One "prof" line per site and function counted, then "profend"; reset. */
void sites_dump(const struct config *c);

#endif /* __GUPSIM_SITE_H */
