// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel functions gupstat observes, and the programs for each; and
 * everything done to a whole probe list, the live view's or validate's.
 */
#include <errno.h>
#include <string.h>
#include "gupstat.skel.h"
#include "kernel/kernel_btf.h"
#include "kernel/ksyms.h"
#include "probe/args.h"
#include "probe/probes.h"
#include "util/msg.h"

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

static const struct probe probe_table[NR_PROBES] = {
#define PROBE_ROW(id, p, f, w, t) [P_##id] = { .prog = p, .func = f, .what = w, .traced = t },
	PROBES(PROBE_ROW)
#undef PROBE_ROW
};

static const struct probe grab_page_probe = {
	.prog = "grab_page", .func = "try_grab_page",
	.what = "refs per grab (one page each)", .traced = false,
};

/*
 * The PTE lock is taken in __pte_offset_map_lock() up to 6.x (behind an
 * inline pte_offset_map_lock()); 7.x has only pte_offset_map_lock(), out
 * of line with the same prototype. Where BTF has neither (6.1 takes the
 * lock in a macro), the usual name stays, for --lock-exact's refusal.
 */
static const struct probe lock_map_probe = {
	.prog = "lock_map", .func = "pte_offset_map_lock",
	.what = "exact PTE-lock acquire (--lock-exact, --waits)", .traced = true,
};

/*
 * With paravirt spinlocks (x86 distribution kernels) the slow path a
 * native spin takes is native_queued_spin_lock_slowpath(), the same
 * code; a KVM guest's own PV slow path is another function, not traced.
 */
static const struct probe wait_native_probe = {
	.prog = "wait_native", .func = "native_queued_spin_lock_slowpath",
	.what = "spins on PTE locks walks hold (--waits)", .traced = true,
};

static bool has_func(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) > 0;
}

static bool lock_is_outer(const struct btf *btf)
{
	return !has_func(btf, "__pte_offset_map_lock") &&
	       has_func(btf, "pte_offset_map_lock");
}

/*
 * Every program section starts with '?': the programs of a probe not
 * chosen (the grab not taken, kprobes where fentry serves) never load.
 */
void probes_table(struct probe *p)
{
	int i;

	for (i = 0; i < NR_PROBES; i++)
		p[i] = probe_table[i];
}

static bool probe_wanted(int i, bool lock_exact, bool waits)
{
	switch (i) {
	case P_LOCK:
		return lock_exact || waits;
	case P_WAIT:
		return waits;
	default:
		return true;
	}
}

void probes_init(struct probe *p, struct gupstat_bpf *skel, const struct btf *btf,
		 bool lock_exact, bool waits)
{
	int i;

	probes_table(p);
	if (!grab_is_folio(btf))
		p[P_GRAB] = grab_page_probe;
	if (lock_is_outer(btf))
		p[P_LOCK] = lock_map_probe;
	if (has_func(btf, wait_native_probe.func))
		p[P_WAIT] = wait_native_probe;
	for (i = 0; i < NR_PROBES; i++) {
		p[i].wanted = probe_wanted(i, lock_exact, waits);
		p[i].args = probe_args(p[i].func);
		probe_find_programs(&p[i], skel->obj);
	}
	/* Without it the exact hold has no start: refuse, never guess. */
	p[P_LOCK].required_by = lock_exact ? "--lock-exact" : waits ? "--waits" : NULL;
	/* --waits' lock address is an argument read at the return. */
	p[P_LOCK].need_fexit = waits;
	p[P_WAIT].required_by = waits ? "--waits" : NULL;
}

static int count_usable(const struct probe *p)
{
	int i, n = 0;

	for (i = 0; i < NR_PROBES; i++)
		n += p[i].method != ATTACH_NONE;
	return n;
}

/* An option's probe that cannot attach: that one line is the error. */
static int refuse_required(const struct probe *p)
{
	int i;

	for (i = 0; i < NR_PROBES; i++) {
		if (p[i].required_by && p[i].method == ATTACH_NONE) {
			p_err("%s: cannot trace %s: %s\n",
			      p[i].required_by, p[i].func, p[i].skip_reason);
			return -ENOENT;
		}
	}
	return 0;
}

/*
 * Decide every probe's method. Fails, in one line, when nothing at all
 * can attach or an option's probe cannot; otherwise one line for each
 * wanted probe that cannot attach and each that falls back to kprobes.
 */
int probes_select(struct probe *p, const struct btf *btf, enum select_mode mode)
{
	int i;

	probes_find_symbols(p, NR_PROBES);
	for (i = 0; i < NR_PROBES; i++)
		probe_select(&p[i], btf, mode);
	if (!count_usable(p)) {
		probes_say_none(p, NR_PROBES);
		return -ENOENT;
	}
	if (refuse_required(p))
		return -ENOENT;
	for (i = 0; i < NR_PROBES; i++) {
		if (p[i].method == ATTACH_NONE && p[i].wanted)
			p_err("skipping %s: %s\n", p[i].func,
			      p[i].skip_reason);
		else if (p[i].fallback)
			p_err("%s: %s, using kprobes\n", p[i].func,
			      p[i].fallback);
	}
	return 0;
}

/*
 * Attach what probes_select() chose. A probe the kernel refuses only
 * now is skipped like one refused before, with the same rules: nothing
 * attached, or an option's probe missing, fails in one line.
 */
int probes_attach(struct probe *p)
{
	bool failed[NR_PROBES] = {};
	int i;

	for (i = 0; i < NR_PROBES; i++)
		failed[i] = p[i].method != ATTACH_NONE && probe_attach(&p[i]);
	if (!count_usable(p)) {
		probes_say_none(p, NR_PROBES);
		return -ENOENT;
	}
	if (refuse_required(p)) {
		probes_detach(p);
		return -ENOENT;
	}
	for (i = 0; i < NR_PROBES; i++)
		if (failed[i])
			p_err("skipping %s: %s\n", p[i].func,
			      p[i].skip_reason);
	return 0;
}

void probes_detach(struct probe *p)
{
	int i;

	for (i = 0; i < NR_PROBES; i++)
		probe_detach(&p[i]);
}

/* --dry-run: what attached, and how, or why not. */
void probes_list(FILE *f, const struct probe *p)
{
	int i, w = 28;

	/* native_queued_spin_lock_slowpath is longer than the usual column. */
	for (i = 0; i < NR_PROBES; i++)
		if ((int)strlen(p[i].func) > w)
			w = strlen(p[i].func);
	fprintf(f, "%-*s %-17s %s\n", w, "FUNCTION", "METHOD", "MEASURES");
	for (i = 0; i < NR_PROBES; i++) {
		if (p[i].method == ATTACH_NONE)
			fprintf(f, "%-*s %-17s %s\n", w, p[i].func, "skip", p[i].skip_reason);
		else if (p[i].fallback)
			fprintf(f, "%-*s %-17s %s (%s)\n", w, p[i].func,
				probe_method_name(&p[i]), p[i].what, p[i].fallback);
		else
			fprintf(f, "%-*s %-17s %s\n", w, p[i].func,
				probe_method_name(&p[i]), p[i].what);
	}
}

/*
 * @name is a compiler clone of @func (func.part.0, func.isra.0,
 * func.constprop.0): code of the function under another symbol, with
 * arguments of its own. A .cold fragment, of the function or of a
 * clone (func.part.0.cold), is not the function.
 */
static bool is_clone(const char *name, const char *func)
{
	size_t n = strlen(func);

	return !strncmp(name, func, n) && name[n] == '.' && !strstr(name + n, ".cold");
}

struct symbols {
	struct probe *p;
	int nr;
};

static int find_symbol(void *ctx, __u64 addr, char type, const char *name, const char *mod)
{
	struct symbols *s = ctx;
	struct probe *p = s->p;
	int i;

	for (i = 0; i < s->nr; i++) {
		if (!strcmp(name, p[i].func))
			p[i].in_kallsyms = true;
		else if (!p[i].clone[0] && is_clone(name, p[i].func))
			snprintf(p[i].clone, sizeof(p[i].clone), "%s", name);
	}
	return 0;
}

/*
 * Kprobes need a real symbol: a function inlined at every call has none.
 * One pass over /proc/kallsyms marks every probe's function, and notes a
 * clone of it, so that a function -O2 split or specialised is said to be
 * that rather than missing.
 */
void probes_find_symbols(struct probe *p, int nr)
{
	struct symbols s = { p, nr };

	ksyms_each("/proc/kallsyms", find_symbol, &s);
}

/*
 * None of @p can attach: one line that says why. Where the kernel takes
 * neither way in, that is the kernel's doing, said as such; otherwise
 * the functions themselves are missing.
 */
void probes_say_none(const struct probe *p, int nr)
{
	const struct probe *first = NULL;
	const char *kp = probe_kprobes_missing();
	int i, fentry_err = 0;

	for (i = 0; i < nr; i++) {
		if (!p[i].wanted)
			continue;
		if (!first)
			first = &p[i];
		if (!fentry_err)
			fentry_err = p[i].fentry_err;
	}
	if (fentry_err && kp)
		p_err("this kernel refuses BPF tracing programs (fentry: %s) and has no kprobes (%s)\n",
		      probe_err_text(fentry_err), kp);
	else if (kp)
		p_err("this kernel has no kprobes (%s)\n", kp);
	else if (first)
		p_err("none of the GUP functions can be traced on this kernel (%s: %s)\n",
		      first->func, first->skip_reason);
	else
		p_err("none of the GUP functions can be traced on this kernel\n");
}

/* Every probe's skipped runs (probe_missed()), since the programs loaded. */
__u64 probes_missed(const struct probe *p)
{
	__u64 n = 0;
	int i;

	for (i = 0; i < NR_PROBES; i++)
		n += probe_missed(&p[i]);
	return n;
}
