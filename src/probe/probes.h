/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_PROBES_H
#define __GUPSTAT_PROBE_PROBES_H

#include <stdio.h>
#include "probe/attach.h"

/* The probes in report order; each histogram belongs to one. */
enum probe_id {
	P_WALK,		/* follow_page_pte */
	P_LOCK,		/* (__)pte_offset_map_lock, --lock-exact only */
	P_GUP,		/* __get_user_pages */
	P_GRAB,		/* try_grab_folio */
	P_UNPIN,	/* unpin_user_pages */
	P_UNPIN_DIRTY,	/* unpin_user_pages_dirty_lock */
	P_PUT,		/* gup_put_folio */
	P_FILL,		/* gup_fill_pages */
	NR_PROBES,
};

struct gupstat_bpf;

void probes_init(struct probe *p, struct gupstat_bpf *skel, const struct btf *btf,
		 bool lock_exact);
int probes_select(struct probe *p, const struct btf *btf, enum select_mode mode);
int probes_attach(struct probe *p);
void probes_detach(struct probe *p);
void probes_list(FILE *f, const struct probe *p);
/* On any probe list, the live view's or validate's: */
void probes_find_symbols(struct probe *p, int nr);
void probes_say_none(const struct probe *p, int nr);
/* Runs of all NR_PROBES' programs the kernel skipped, since they loaded. */
__u64 probes_missed(const struct probe *p);

#endif /* __GUPSTAT_PROBE_PROBES_H */
