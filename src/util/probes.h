/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_PROBES_H
#define __GUPSTAT_UTIL_PROBES_H

#include <stdio.h>
#include "util/attach.h"
#include "live/print.h"

struct gupstat_bpf;

void probes_init(struct probe *p, struct gupstat_bpf *skel, const struct btf *btf,
		 bool lock_exact);
int probes_select(struct probe *p, const struct btf *btf, enum select_mode mode);
int probes_attach(struct probe *p);
void probes_detach(struct probe *p);
void probes_list(FILE *f, const struct probe *p);

#endif /* __GUPSTAT_UTIL_PROBES_H */
