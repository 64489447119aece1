/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting windows: one call of a function named by the guest, from its
 * entry to its return, or the span between two markers. What falls in an
 * open window is counted into it; a closed one is one line of the log.
 */
#ifndef __GUPSIM_WINDOW_H
#define __GUPSIM_WINDOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "gupsim.h"

#define MAX_WINDOWS	4

struct window {
	int func;		/* index into the configuration */
	uint64_t slot;		/* stack slot of its return address */
	uint64_t n[GS_NR];
};

struct vcpu {
	int pending;		/* entered function, until its first store; -1 none */
	int nr_open;
	struct window win[MAX_WINDOWS];
	bool marked;
	uint64_t mark[GS_NR];
};

struct config {
	int nr_funcs;
	uint64_t addr[GUPSIM_MAX_FUNCS];
	char name[GUPSIM_MAX_FUNCS][GUPSIM_NAME_MAX];
	uint64_t vmemmap_start, vmemmap_end;
};

int log_open(const char *path);
void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int config_load(struct config *c, const char *path);

void window_enter(struct vcpu *v, int func);
void window_first_store(struct vcpu *v, const struct config *c, uint64_t vaddr, bool push_or_call,
			unsigned int cpu);
void window_count(struct vcpu *v, bool sp, int missed);
void window_ret(struct vcpu *v, const struct config *c, uint64_t vaddr, unsigned int cpu);
void window_mark(struct vcpu *v, bool begin, unsigned int cpu);

#endif /* __GUPSIM_WINDOW_H */
