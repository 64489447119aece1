/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gupstat validate --sim: the cache model's counts per pin and unpin
 * call, from the QEMU plugin of tools/vmrun --cache-sim
 * (include/gupsim.h says how the two talk).
 */
#ifndef __GUPSTAT_VALIDATE_SIM_H
#define __GUPSTAT_VALIDATE_SIM_H

#include <stdbool.h>
#include <bpf/btf.h>
#include "gupsim/simctl.h"
#include "gupsim/simlog.h"
#include "results/results.h"

struct vsim {
	struct simctl ctl;	/* the pin's and the unpin's function */
	struct simlog log;
	bool ready;		/* the plugin answered */
};

struct vsim_call {
	struct simrec pin, unpin;
};

int vsim_open(struct vsim *s, const char *dir);
/* Names the functions and the vmemmap range; the model's answer goes in @r. */
int vsim_configure(struct vsim *s, struct v_results *r, const struct btf *btf,
		   __u64 vmemmap_start, __u64 pfns);
/*
 * The one pin and one unpin counted on @cpu since the last take: 0, a
 * negative errno, or VSIM_LOST when the model lost one of them (the
 * repeat is to be run again).
 */
#define VSIM_LOST 1
int vsim_take(struct vsim *s, int cpu, struct vsim_call *out);
void vsim_close(struct vsim *s);

#endif /* __GUPSTAT_VALIDATE_SIM_H */
