/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every hook is written once and compiled twice: as fentry/fexit (BPF
 * trampoline, the cheap way in) and as kprobe/kretprobe (the fallback
 * where a kernel refuses the trampoline, or with -k). The sections start
 * with '?': no program loads unless user space chooses it
 * (bpf_program__set_autoload(), src/probe/attach.c), so a kernel that
 * refuses one kind never sees it.
 *
 * ENTRY_TWINS(name, func) makes name_fentry and name_kprobe, both calling
 *	static __always_inline void name_on_entry(void *ctx, bool fentry);
 * which reads arguments with probe_arg(ctx, fentry, n, dflt).
 * EXIT_TWINS(name, func) makes name_fexit and name_kretprobe, calling
 *	static __always_inline void name_on_exit(void *ctx, long ret);
 * EXIT_ARGS_TWINS(name, func) is EXIT_TWINS whose programs also pass
 *	static __always_inline void name_on_exit(void *ctx, long ret, bool fexit);
 * for an exit that reads an argument: fexit can (probe_arg()), a
 * kretprobe cannot, its registers being the return's.
 * @ctx stays the program's own, for helpers such as bpf_get_stackid().
 */
#ifndef __GUPSTAT_TWINS_BPF_H
#define __GUPSTAT_TWINS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/*
 * The sixth argument of a kprobed function: libbpf 1.1 has no
 * PT_REGS_PARM6. x86-64 passes it in r9, arm64 in x5, read as libbpf's
 * PT_REGS_PARM5 reads x4: through struct user_pt_regs, the part of
 * arm64's pt_regs a kprobe program sees.
 */
#if defined(__TARGET_ARCH_x86)
#define REGS_PARM6(ctx, dflt)	((ctx)->r9)
#elif defined(__TARGET_ARCH_arm64)
#define REGS_PARM6(ctx, dflt)	(((const struct user_pt_regs *)(ctx))->regs[5])
#else
#define REGS_PARM6(ctx, dflt)	(dflt)
#endif

/*
 * The @n'th argument (from 0) of a kprobed function, or @dflt. All six
 * are read with constant offsets first: the verifier refuses a context
 * pointer moved by a variable amount, which a switch compiles into.
 */
static __always_inline long regs_arg(struct pt_regs *ctx, int n, long dflt)
{
	long args[6] = {
		PT_REGS_PARM1(ctx), PT_REGS_PARM2(ctx), PT_REGS_PARM3(ctx),
		PT_REGS_PARM4(ctx), PT_REGS_PARM5(ctx), REGS_PARM6(ctx, dflt),
	};

	if (n < 0 || n >= 6)
		return dflt;
	return args[n];
}

/*
 * The @n'th argument of the hooked function, or @dflt where there is
 * none (@n < 0, or beyond the function's arguments). Under fentry the
 * helper hands every argument over as a number: the verifier refuses a
 * direct context read of e.g. a struct page ** argument. @fentry is a
 * constant in each twin, so each keeps only its own branch.
 */
static __always_inline __u64 probe_arg(void *ctx, bool fentry, int n, __u64 dflt)
{
	__u64 v;

	if (!fentry)
		return regs_arg(ctx, n, dflt);
	if (n < 0 || bpf_get_func_arg(ctx, n, &v))
		return dflt;
	return v;
}

/*
 * The @n'th argument (@n a constant) of a function whose prototype has
 * it on every kernel gupstat knows. Under fentry a plain load from the
 * context, which the verifier checks against the prototype at load:
 * bpf_get_func_arg()'s run-time bound check is a dozen instructions,
 * and the hooks that read arguments this way run once per page.
 */
#define probe_arg_fixed(ctx, fentry, n)					\
	((fentry) ? ((const __u64 *)(ctx))[n] : (__u64)regs_arg((ctx), (n), 0))

/* The return slot moves with the argument count: the helper knows it. */
static __always_inline long fexit_ret(void *ctx)
{
	__u64 ret = 0;

	bpf_get_func_ret(ctx, &ret);
	return ret;
}

#define TWIN_PROG(sec, prog, ctx_type, call)				\
SEC(sec)								\
int prog(ctx_type *ctx)							\
{									\
	call;								\
	return 0;							\
}

#define ENTRY_TWINS(name, func)						\
	TWIN_PROG("?fentry/" #func, name##_fentry, void,		\
		  name##_on_entry(ctx, true))				\
	TWIN_PROG("?kprobe/" #func, name##_kprobe, struct pt_regs,	\
		  name##_on_entry(ctx, false))

#define EXIT_TWINS(name, func)						\
	TWIN_PROG("?fexit/" #func, name##_fexit, void,			\
		  name##_on_exit(ctx, fexit_ret(ctx)))			\
	TWIN_PROG("?kretprobe/" #func, name##_kretprobe, struct pt_regs,	\
		  name##_on_exit(ctx, PT_REGS_RC(ctx)))

#define EXIT_ARGS_TWINS(name, func)					\
	TWIN_PROG("?fexit/" #func, name##_fexit, void,			\
		  name##_on_exit(ctx, fexit_ret(ctx), true))		\
	TWIN_PROG("?kretprobe/" #func, name##_kretprobe, struct pt_regs,	\
		  name##_on_exit(ctx, PT_REGS_RC(ctx), false))

#endif /* __GUPSTAT_TWINS_BPF_H */
