/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Telling the cache-model plugin what to count (include/gupsim.h): the
 * functions whose calls are windows, where struct pages lie, and what in
 * a window is not the call's own work (the interrupt and exception
 * entries, __switch_to_asm), all from this kernel's /proc/kallsyms; then
 * waiting for its answer. gupstat validate --sim and the counting
 * benchmark's guest side (tools/sim/gupsim-ctl.c) both use it.
 */
#ifndef __GUPSTAT_GUPSIM_SIMCTL_H
#define __GUPSTAT_GUPSIM_SIMCTL_H

#include <stddef.h>
#include <linux/types.h>
#include "gupsim.h"
#include "gupsim/simlog.h"

struct simctl {
	const char *dir;		/* shared with the host: GUPSIM_CTL, GUPSIM_LOG */
	int nr_funcs;
	const char *func[GUPSIM_MAX_FUNCS];
	__u64 addr[GUPSIM_MAX_FUNCS];
	__u64 vmemmap_start, vmemmap_end;
	int nr_irq;
	__u64 irq[GUPSIM_MAX_IRQ];
	__u64 switch_start, switch_end;
};

/*
 * Looks the @nr functions up in @kallsyms, with the handler entries and
 * __switch_to_asm; one line on stderr and -errno when one is missing.
 */
int simctl_init(struct simctl *c, const char *dir, const char *kallsyms,
		const char *const *funcs, int nr);
/* Writes GUPSIM_CTL, runs GUPSIM_CONFIG, reads the model's name into @model. */
int simctl_configure(const struct simctl *c, struct simlog *log, char *model, size_t len);
/* A "--sim: the cache model says: ..." line for an error record; -EPROTO. */
int simctl_say_error(const struct simrec *r);

#endif /* __GUPSTAT_GUPSIM_SIMCTL_H */
