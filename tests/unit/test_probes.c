// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table names programs by string (PREFIX_fentry, ...): check
 * it against the object itself, so that a renamed or added program
 * fails here and not on a kernel. Every program starts unloaded ('?'
 * sections), every probe has its twins in pairs, and no program is left
 * without a probe to choose it. The choices BTF makes: the grab, the
 * PTE-lock function --lock-exact times from, and the spin --waits times.
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

/* pte_t *NAME(struct mm_struct *mm, pmd_t *pmd, unsigned long addr, spinlock_t **ptlp) */
static void lock_btf_add(struct btf *btf, const char *name)
{
	int ul = btf__add_int(btf, "long unsigned int", 8, 0);
	int pte = btf__add_ptr(btf, btf__add_struct(btf, "pte_t", 8));
	int proto = btf__add_func_proto(btf, pte);

	btf__add_func_param(btf, "mm", btf__add_ptr(btf, btf__add_struct(btf, "mm_struct", 64)));
	btf__add_func_param(btf, "pmd", btf__add_ptr(btf, btf__add_struct(btf, "pmd_t", 8)));
	btf__add_func_param(btf, "addr", ul);
	btf__add_func_param(btf, "ptlp", btf__add_ptr(btf, btf__add_ptr(btf,
			    btf__add_struct(btf, "spinlock", 4))));
	btf__add_func(btf, name, BTF_FUNC_GLOBAL, proto);
}

/* void NAME(struct qspinlock *lock, u32 val) */
static void slowpath_btf_add(struct btf *btf, const char *name)
{
	int proto = btf__add_func_proto(btf, 0);

	btf__add_func_param(btf, "lock", btf__add_ptr(btf, btf__add_struct(btf, "qspinlock", 4)));
	btf__add_func_param(btf, "val", btf__add_int(btf, "u32", 4, 0));
	btf__add_func(btf, name, BTF_FUNC_GLOBAL, proto);
}

/* A kernel's PTE-lock functions in BTF: NULL-terminated names. */
static struct btf *btf_with_locks(const char *const *names)
{
	struct btf *btf = btf_with_folio_grab(true);

	for (; *names; names++)
		lock_btf_add(btf, *names);
	return btf;
}

/*
 * --lock-exact's function, from BTF alone: __pte_offset_map_lock() where
 * it exists (6.12, whose pte_offset_map_lock() is inline and not in BTF),
 * pte_offset_map_lock() where only that one does (7.x), and the usual
 * name where neither (6.1), for the refusal to name.
 */
static void check_lock(struct gupstat_bpf *skel, struct probe *seven)
{
	static const char *const v612[] = { "__pte_offset_map_lock", NULL };
	static const char *const v7[] = { "pte_offset_map_lock", NULL };
	static const char *const both[] = { "pte_offset_map_lock", "__pte_offset_map_lock", NULL };
	static const char *const none[] = { NULL };
	static const struct {
		const char *const *btf;
		const char *func, *prog, *kernel;
	} cases[] = {
		{ v612, "__pte_offset_map_lock", "lock", "6.12" },
		{ v7, "pte_offset_map_lock", "lock_map", "7.x" },
		{ both, "__pte_offset_map_lock", "lock", "both in BTF" },
		{ none, "__pte_offset_map_lock", "lock", "6.1, neither" },
	};
	struct probe p[NR_PROBES];
	struct btf *btf;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		btf = btf_with_locks(cases[i].btf);
		probes_init(p, skel, btf, true, false);
		CHECK(!strcmp(p[P_LOCK].func, cases[i].func) &&
		      !strcmp(p[P_LOCK].prog, cases[i].prog) && p[P_LOCK].fexit &&
		      p[P_LOCK].kretprobe && !strcmp(p[P_LOCK].required_by, "--lock-exact"),
		      "%s: --lock-exact times from %s() (%s_*)", cases[i].kernel,
		      p[P_LOCK].func, p[P_LOCK].prog);
		btf__free(btf);
	}
	btf = btf_with_locks(v7);
	slowpath_btf_add(btf, "native_queued_spin_lock_slowpath");
	probes_init(seven, skel, btf, false, false);
	CHECK(!seven[P_LOCK].wanted && !strcmp(seven[P_LOCK].func, "pte_offset_map_lock"),
	      "7.x without --lock-exact: named, not wanted");
	CHECK(!seven[P_WAIT].wanted && !seven[P_WAIT].required_by,
	      "without --waits the spin is not traced");
	probes_init(p, skel, btf, false, true);
	CHECK(p[P_LOCK].wanted && !strcmp(p[P_LOCK].required_by, "--waits") &&
	      p[P_LOCK].need_fexit && p[P_WAIT].wanted &&
	      !strcmp(p[P_WAIT].required_by, "--waits"),
	      "--waits needs the acquire's fexit (its ptlp argument) and the spin");
	CHECK(!strcmp(p[P_WAIT].func, "native_queued_spin_lock_slowpath") &&
	      !strcmp(p[P_WAIT].prog, "wait_native"),
	      "paravirt spinlocks: the native slow path is traced");
	probes_init(p, skel, btf, true, false);
	CHECK(!p[P_LOCK].need_fexit, "--lock-exact alone takes a kretprobe too");
	btf__free(btf);
}

static bool owns(const struct probe *p, const struct bpf_program *prog)
{
	return prog == p->fentry || prog == p->fexit || prog == p->kprobe ||
	       prog == p->kretprobe;
}

/*
 * Twins come in pairs: an fentry has its kprobe, an fexit its kretprobe.
 * One case for every probe, naming those that fail: a probe added to
 * PROBES() adds no case here.
 */
static void check_twins(const struct probe *p, const char *kernel)
{
	char bad[512] = "";
	size_t n = 0;
	int i;

	for (i = 0; i < NR_PROBES; i++)
		if (!(p[i].fentry || p[i].fexit) || !p[i].fentry != !p[i].kprobe ||
		    !p[i].fexit != !p[i].kretprobe)
			n += snprintf(bad + n, n < sizeof(bad) ? sizeof(bad) - n : 0, " %s_*", p[i].prog);
	CHECK(!bad[0], "%s: every probe's programs found, in twin pairs (not:%s)", kernel, bad);
}

int main(void)
{
	struct probe folio[NR_PROBES], page[NR_PROBES], seven[NR_PROBES];
	struct btf *b612 = btf_with_folio_grab(true), *b61 = btf_with_folio_grab(false);
	struct gupstat_bpf *skel = gupstat_bpf__open();
	struct bpf_program *prog;
	int i, orphans = 0, loaded = 0;

	CHECK(skel != NULL, "the object opens");
	if (!skel)
		return check_done();
	probes_init(folio, skel, b612, true, true);
	probes_init(page, skel, b61, true, true);
	CHECK(!strcmp(folio[P_WAIT].func, "queued_spin_lock_slowpath"),
	      "native spinlocks: queued_spin_lock_slowpath() is traced");
	CHECK(!strcmp(folio[P_GRAB].func, "try_grab_folio") &&
	      !strcmp(page[P_GRAB].func, "try_grab_page"),
	      "the grab follows try_grab_folio()'s prototype");
	check_lock(skel, seven);
	check_twins(folio, "try_grab_folio()");
	check_twins(page, "try_grab_page()");
	check_twins(seven, "pte_offset_map_lock()");
	bpf_object__for_each_program(prog, skel->obj) {
		bool owned = prog == skel->progs.filter_fork;

		for (i = 0; i < NR_PROBES && !owned; i++)
			owned = owns(&folio[i], prog) || owns(&page[i], prog) ||
				owns(&seven[i], prog);
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
