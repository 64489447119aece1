/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Counting windows: one call of a function named by the guest, from its
 * entry to its return, or the span between two markers. What falls in an
 * open window is counted into it; a closed one is one line of the log.
 *
 * What runs inside a call's window but is not the call's work is counted
 * apart (GS_OTHER_*): interrupt and exception handlers, from their entry
 * to their iretq, and other tasks while the caller is switched out.
 */
#ifndef __GUPSIM_WINDOW_H
#define __GUPSIM_WINDOW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "gupsim.h"

#define MAX_WINDOWS	4

struct site;

struct window {
	int func;		/* index into the configuration */
	uint64_t slot;		/* stack slot of its return address */
	uint64_t task;		/* the caller, as struct vcpu.task names it */
	uint64_t n[GS_NR];
};

struct vcpu {
	int pending;		/* entered function, until its first store; -1 none */
	struct site *pending_site;	/* its entry block */
	uint64_t pending_insns;	/* executed since that entry */
	int nr_open;
	struct window win[MAX_WINDOWS];
	bool marked;
	uint64_t mark[GS_NR];
	uint64_t mark_task;	/* the task that began the marked span */
	unsigned int irq_depth;	/* interrupt and exception handlers entered */
	bool iret_done;		/* the block that just ran ended in an iretq */
	uint64_t task;		/* &next->thread.sp of the last switch to here */
};

struct config {
	int nr_funcs;
	uint64_t addr[GUPSIM_MAX_FUNCS];
	char name[GUPSIM_MAX_FUNCS][GUPSIM_NAME_MAX];
	uint64_t vmemmap_start, vmemmap_end;
	int nr_irq;
	uint64_t irq[GUPSIM_MAX_IRQ];
	uint64_t switch_start, switch_end;
};

int log_open(const char *path);
void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void counts_line(char *buf, size_t len, const uint64_t *n);
int config_load(struct config *c, const char *path);

void window_enter(struct vcpu *v, int func, struct site *s);
void window_first_store(struct vcpu *v, const struct config *c, uint64_t vaddr, bool push_or_call,
			unsigned int cpu);
void window_count(struct vcpu *v, struct site *s, bool sp, int missed);
void window_insns(struct vcpu *v, struct site *s, uint64_t n);
void window_mark_insns(struct vcpu *v, int64_t n);
void window_ret(struct vcpu *v, const struct config *c, uint64_t vaddr, unsigned int cpu);
void window_mark(struct vcpu *v, bool begin, unsigned int cpu);

#endif /* __GUPSIM_WINDOW_H */
