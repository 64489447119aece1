// SPDX-License-Identifier: GPL-2.0
/* The kernel functions gupstat observes, and the programs for each. */
#include <errno.h>
#include <string.h>
#include "gupstat.skel.h"
#include "probes.h"

#define PROBE(id_, func_, what_, en, ex, kp, krp, wanted_)		\
	p[id_] = (struct probe){ .func = func_, .what = what_,		\
		.fentry = en, .fexit = ex, .kprobe = kp, .kretprobe = krp,	\
		.wanted = wanted_ }

void probes_init(struct probe *p, struct gupstat_bpf *skel, bool lock_exact)
{
	__typeof__(skel->progs) *g = &skel->progs;

	PROBE(P_WALK, "follow_page_pte", "pages per call, PTE-lock hold",
	      g->walk_fentry, g->walk_fexit, g->walk_kprobe, g->walk_kretprobe, true);
	PROBE(P_LOCK, "__pte_offset_map_lock", "exact PTE-lock acquire (--lock-exact)",
	      NULL, g->lock_fexit, NULL, g->lock_kretprobe, lock_exact);
	PROBE(P_GUP, "__get_user_pages", "pages asked/returned, latency, counter",
	      g->gup_fentry, g->gup_fexit, g->gup_kprobe, g->gup_kretprobe, true);
	PROBE(P_GRAB, "try_grab_folio", "refs per grab (refcount batch)",
	      g->grab_fentry, NULL, g->grab_kprobe, NULL, true);
	PROBE(P_UNPIN, "unpin_user_pages", "pages per unpin, latency, counter",
	      g->unpin_fentry, g->unpin_fexit, g->unpin_kprobe, g->unpin_kretprobe, true);
	PROBE(P_UNPIN_DIRTY, "unpin_user_pages_dirty_lock", "pages per unpin, latency, counter",
	      g->unpin_dirty_fentry, g->unpin_dirty_fexit, g->unpin_dirty_kprobe,
	      g->unpin_dirty_kretprobe, true);
	PROBE(P_PUT, "gup_put_folio", "refs per put",
	      g->put_fentry, NULL, g->put_kprobe, NULL, true);
	PROBE(P_FILL, "gup_fill_pages", "pages per fill, time (batched kernel)",
	      g->fill_fentry, g->fill_fexit, g->fill_kprobe, g->fill_kretprobe, true);
}

/*
 * Decide every probe's method; one line for each wanted probe that cannot
 * attach. Fails only when nothing at all can.
 */
int probes_select(struct probe *p, const struct btf *btf, bool force_kprobe)
{
	int i, attached = 0;

	probes_find_symbols(p, NR_PROBES);
	for (i = 0; i < NR_PROBES; i++) {
		if (!probe_select(&p[i], btf, force_kprobe))
			attached++;
		else if (p[i].wanted)
			fprintf(stderr, "gupstat: skipping %s: %s\n", p[i].func,
				p[i].skip_reason);
	}
	if (attached)
		return 0;
	fprintf(stderr, "gupstat: none of the GUP functions can be traced on this kernel\n");
	return -ENOENT;
}

int probes_attach(struct probe *p)
{
	int i, err;

	for (i = 0; i < NR_PROBES; i++) {
		err = probe_attach(&p[i]);
		if (err)
			return err;
	}
	return 0;
}

void probes_detach(struct probe *p)
{
	int i;

	for (i = 0; i < NR_PROBES; i++)
		probe_detach(&p[i]);
}

/* --dry-run: what would attach, and how, without loading anything. */
void probes_list(FILE *f, const struct probe *p)
{
	int i;

	fprintf(f, "%-28s %-17s %s\n", "FUNCTION", "METHOD", "MEASURES");
	for (i = 0; i < NR_PROBES; i++) {
		if (p[i].method == ATTACH_NONE)
			fprintf(f, "%-28s %-17s %s\n", p[i].func, "skip", p[i].skip_reason);
		else
			fprintf(f, "%-28s %-17s %s\n", p[i].func,
				probe_method_name(&p[i]), p[i].what);
	}
}
