/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_PROBES_H
#define __GUPSTAT_PROBE_PROBES_H

#include <stdio.h>
#include "probe/attach.h"

/*
 * The kernel functions the live view observes, in report order; each
 * histogram belongs to one (src/probe/catalog.c). A row is a probe: its
 * id (P_ID), its programs' name (PROG_fentry, PROG_kprobe, ... in bpf/,
 * bpf/twins.bpf.h), the function, what it measures (--dry-run), and
 * whether gupstat trace attaches it too: trace takes only what runs in
 * or around a PTE-lock hold, since every other probe would lengthen the
 * holds it measures. probes.c may swap a row for another kernel's
 * function (try_grab_page() on 6.1, pte_offset_map_lock() on 7.x,
 * native_queued_spin_lock_slowpath() with paravirt spinlocks).
 */
#define PROBES(X)							\
	X(WALK, "walk", "follow_page_pte", "pages per call, PTE-lock hold", true) \
	X(LOCK, "lock", "__pte_offset_map_lock",			\
	  "exact PTE-lock acquire (--lock-exact, --waits)", true)		\
	X(GUP, "gup", "__get_user_pages", "pages asked/returned, latency, counter", true) \
	X(GRAB, "grab", "try_grab_folio", "refs per grab (refcount batch)", false) \
	X(UNPIN, "unpin", "unpin_user_pages", "pages per unpin, latency, counter", false) \
	X(UNPIN_DIRTY, "unpin_dirty", "unpin_user_pages_dirty_lock",	\
	  "pages per unpin, latency, counter", false)			\
	X(PUT, "put", "gup_put_folio", "refs per put", false)		\
	X(FILL, "fill", "gup_fill_pages", "pages per fill, time (batched kernel)", true) \
	X(WAIT, "wait", "queued_spin_lock_slowpath",			\
	  "spins on PTE locks walks hold (--waits)", true)

enum probe_id {
#define PROBE_ID(id, ...) P_##id,
	PROBES(PROBE_ID)
#undef PROBE_ID
	NR_PROBES,
};

struct gupstat_bpf;

/* The rows above, as a probe list before anything is chosen. */
void probes_table(struct probe *p);
void probes_init(struct probe *p, struct gupstat_bpf *skel, const struct btf *btf,
		 bool lock_exact, bool waits);
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
