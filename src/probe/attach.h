/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_PROBE_ATTACH_H
#define __GUPSTAT_PROBE_ATTACH_H

#include <stdbool.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>

/*
 * How probe_select() decides: fentry where it loads (the real attach is
 * the proof, kprobes loaded beside it as the spare), or kprobes only (-k).
 */
enum select_mode {
	SELECT_DEFAULT,
	SELECT_KPROBE,
};

enum attach_method {
	ATTACH_NONE,
	ATTACH_FENTRY,		/* fentry/fexit: BPF trampoline */
	ATTACH_KPROBE,		/* kprobe/kretprobe: the fallback */
};

/*
 * One kernel function and the programs that observe it: an entry and/or
 * an exit program of each kind, PROG_fentry, PROG_fexit, PROG_kprobe and
 * PROG_kretprobe (bpf/twins.bpf.h), found by name in the object. Only
 * one kind is loaded: fentry/fexit where the kernel allows it, kprobes
 * otherwise (or always, with -k).
 */
struct probe {
	const char *prog;		/* the programs' name prefix */
	const char *func;
	const char *what;		/* what it measures, for --dry-run */
	bool traced;			/* gupstat trace attaches it too */
	/*
	 * The parameter names the programs expect at positions 0, 1, ...
	 * ("" for one they do not read), NULL-terminated; checked against
	 * BTF, so that a kernel whose prototype moved is skipped, not misread.
	 */
	const char *const *args;
	struct bpf_program *fentry, *fexit;
	struct bpf_program *kprobe, *kretprobe;
	bool wanted;			/* false: not requested, never loaded */
	const char *required_by;	/* an option that cannot do without it */
	/* An option reads its arguments at the return: fexit, never a kretprobe. */
	bool need_fexit;
	bool in_kallsyms;		/* a kprobe can attach */
	/* Not in kallsyms, but a compiler clone of it is: NAME.part.0, ... */
	char clone[128];
	enum attach_method method;
	const char *skip_reason;	/* why it is not attached */
	char reason[224];		/* skip_reason or fallback, when built */
	const char *fallback;		/* why kprobes stand in for fentry */
	int fentry_err;			/* the kernel refused fentry: -errno */
	/* fentry refused (or -k) and no kprobes: the kernel's, not the function's */
	bool kernel_refused;
	bool spare;			/* kprobes loaded too, in case fentry fails */
	struct bpf_link *links[2];
};

void probe_find_programs(struct probe *p, struct bpf_object *obj);
int probe_select(struct probe *p, const struct btf *btf, enum select_mode mode);
int probe_attach(struct probe *p);
void probe_detach(struct probe *p);
const char *probe_method_name(const struct probe *p);
/* Runs of its programs the kernel skipped (its recursion guard). */
__u64 probe_missed(const struct probe *p);
__u64 probe_exit_missed(const struct probe *p);
/* The entry and exit programs of the kind attached (either may be NULL); 0 to 2. */
int probe_attached_progs(const struct probe *p, struct bpf_program *progs[2]);
/* For the messages about a whole list (probes.c): */
const char *probe_err_text(int err);
const char *probe_kprobes_missing(void);

#endif /* __GUPSTAT_PROBE_ATTACH_H */
