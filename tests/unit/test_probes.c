// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table names programs by string (PREFIX_fentry, ...): check
 * it against the object itself, so that a renamed or added program
 * fails here and not on a kernel. Every program starts unloaded ('?'
 * sections), every probe has its twins in pairs, and no program is left
 * without a probe to choose it.
 */
#include <string.h>
#include "gupstat.skel.h"
#include "grab_btf.h"
#include "tap.h"
#include "probe/probes.h"

/* 6.12's try_grab_folio(folio, ...), or none (6.1's grab_page path). */
static struct btf *btf_with_folio_grab(bool folio_grab)
{
	struct btf *btf = btf__new_empty();

	if (folio_grab)
		grab_btf_add(btf, "folio");
	return btf;
}

static bool owns(const struct probe *p, const struct bpf_program *prog)
{
	return prog == p->fentry || prog == p->fexit || prog == p->kprobe ||
	       prog == p->kretprobe;
}

/* Twins come in pairs: an fentry has its kprobe, an fexit its kretprobe. */
static void check_twins(const struct probe *p)
{
	int i;

	for (i = 0; i < NR_PROBES; i++)
		CHECK((p[i].fentry || p[i].fexit) && !p[i].fentry == !p[i].kprobe &&
		      !p[i].fexit == !p[i].kretprobe,
		      "%s (%s_*): programs found, in twin pairs", p[i].func, p[i].prog);
}

int main(void)
{
	struct probe folio[NR_PROBES], page[NR_PROBES];
	struct btf *b612 = btf_with_folio_grab(true), *b61 = btf_with_folio_grab(false);
	struct gupstat_bpf *skel = gupstat_bpf__open();
	struct bpf_program *prog;
	int i, orphans = 0, loaded = 0;

	CHECK(skel != NULL, "the object opens");
	if (!skel)
		return check_done();
	probes_init(folio, skel, b612, true);
	probes_init(page, skel, b61, true);
	CHECK(!strcmp(folio[P_GRAB].func, "try_grab_folio") &&
	      !strcmp(page[P_GRAB].func, "try_grab_page"),
	      "the grab follows try_grab_folio()'s prototype");
	check_twins(folio);
	check_twins(page);
	bpf_object__for_each_program(prog, skel->obj) {
		bool owned = prog == skel->progs.filter_fork;

		for (i = 0; i < NR_PROBES && !owned; i++)
			owned = owns(&folio[i], prog) || owns(&page[i], prog);
		if (!owned)
			CHECK(false, "%s: no probe chooses it", bpf_program__name(prog));
		orphans += !owned;
		loaded += bpf_program__autoload(prog);
	}
	CHECK(!orphans, "every program belongs to a probe");
	CHECK(!loaded, "no program loads unless chosen");
	gupstat_bpf__destroy(skel);
	btf__free(b612);
	btf__free(b61);
	return check_done();
}
