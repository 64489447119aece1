// SPDX-License-Identifier: GPL-2.0
/* The kernel functions gupstat observes, and the programs for each. */
#include <errno.h>
#include <string.h>
#include "gupstat.skel.h"
#include "util/kernel_btf.h"
#include "util/probes.h"

#define PROBE(id_, func_, what_, en, ex, kp, krp, wanted_, args_)	\
	p[id_] = (struct probe){ .func = func_, .what = what_,		\
		.fentry = en, .fexit = ex, .kprobe = kp, .kretprobe = krp,	\
		.wanted = wanted_, .args = args_ }

/* The arguments the programs read, by position (attach.h). */
static const char *const gup_args[] = { "", "", "nr_pages", "gup_flags", "pages", NULL };
static const char *const grab_folio_args[] = { "folio", "refs", "flags", NULL };
static const char *const grab_page_args[] = { "page", "flags", NULL };
static const char *const unpin_args[] = { "pages", "npages", NULL };
static const char *const put_args[] = { "folio", "refs", NULL };

/*
 * The slow path's refcount grab. 6.12 has try_grab_folio(folio, refs,
 * flags); 6.1's slow path grabs one page at a time in try_grab_page(page,
 * flags), and its try_grab_folio(page, refs, flags) serves the fast path,
 * which must not be counted as the walk's batch. BTF tells them apart.
 */
static bool grab_is_folio(const struct btf *btf)
{
	static const char *const folio[] = { "folio", NULL };

	return kernel_btf_arg_index(btf, "try_grab_folio", folio) == 0;
}

void probes_init(struct probe *p, struct gupstat_bpf *skel, const struct btf *btf,
		 bool lock_exact)
{
	__typeof__(skel->progs) *g = &skel->progs;

	PROBE(P_WALK, "follow_page_pte", "pages per call, PTE-lock hold",
	      g->walk_fentry, g->walk_fexit, g->walk_kprobe, g->walk_kretprobe, true, NULL);
	PROBE(P_LOCK, "__pte_offset_map_lock", "exact PTE-lock acquire (--lock-exact)",
	      NULL, g->lock_fexit, NULL, g->lock_kretprobe, lock_exact, NULL);
	/* Without it the exact hold has no start: refuse, never guess. */
	p[P_LOCK].required_by = lock_exact ? "--lock-exact" : NULL;
	PROBE(P_GUP, "__get_user_pages", "pages asked/returned, latency, counter",
	      g->gup_fentry, g->gup_fexit, g->gup_kprobe, g->gup_kretprobe, true, gup_args);
	if (grab_is_folio(btf))
		PROBE(P_GRAB, "try_grab_folio", "refs per grab (refcount batch)",
		      g->grab_fentry, NULL, g->grab_kprobe, NULL, true, grab_folio_args);
	else
		PROBE(P_GRAB, "try_grab_page", "refs per grab (one page each)",
		      g->grab_page_fentry, NULL, g->grab_page_kprobe, NULL, true,
		      grab_page_args);
	PROBE(P_UNPIN, "unpin_user_pages", "pages per unpin, latency, counter",
	      g->unpin_fentry, g->unpin_fexit, g->unpin_kprobe, g->unpin_kretprobe, true,
	      unpin_args);
	PROBE(P_UNPIN_DIRTY, "unpin_user_pages_dirty_lock", "pages per unpin, latency, counter",
	      g->unpin_dirty_fentry, g->unpin_dirty_fexit, g->unpin_dirty_kprobe,
	      g->unpin_dirty_kretprobe, true, unpin_args);
	PROBE(P_PUT, "gup_put_folio", "refs per put",
	      g->put_fentry, NULL, g->put_kprobe, NULL, true, put_args);
	PROBE(P_FILL, "gup_fill_pages", "pages per fill, time (batched kernel)",
	      g->fill_fentry, g->fill_fexit, g->fill_kprobe, g->fill_kretprobe, true, NULL);
	/* The programs of the grab not chosen are never loaded. */
	bpf_program__set_autoload(g->grab_fentry, false);
	bpf_program__set_autoload(g->grab_kprobe, false);
	bpf_program__set_autoload(g->grab_page_fentry, false);
	bpf_program__set_autoload(g->grab_page_kprobe, false);
}

/*
 * Decide every probe's method; one line for each wanted probe that cannot
 * attach. Fails when nothing at all can, or when an option's probe
 * cannot (that one line then is the error).
 */
int probes_select(struct probe *p, const struct btf *btf, enum select_mode mode)
{
	int i, attached = 0;

	probes_find_symbols(p, NR_PROBES);
	for (i = 0; i < NR_PROBES; i++) {
		if (!probe_select(&p[i], btf, mode)) {
			attached++;
		} else if (p[i].required_by) {
			fprintf(stderr, "gupstat: %s: cannot trace %s: %s\n",
				p[i].required_by, p[i].func, p[i].skip_reason);
			return -ENOENT;
		} else if (p[i].wanted) {
			fprintf(stderr, "gupstat: skipping %s: %s\n", p[i].func,
				p[i].skip_reason);
		}
		if (p[i].fallback)
			fprintf(stderr, "gupstat: %s: %s, using kprobes\n", p[i].func,
				p[i].fallback);
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
		else if (p[i].fallback)
			fprintf(f, "%-28s %-17s %s (%s)\n", p[i].func,
				probe_method_name(&p[i]), p[i].what, p[i].fallback);
		else
			fprintf(f, "%-28s %-17s %s\n", p[i].func,
				probe_method_name(&p[i]), p[i].what);
	}
}
