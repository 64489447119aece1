/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_ATTACH_H
#define __GUPSTAT_UTIL_ATTACH_H

#include <stdbool.h>
#include <stdio.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>

/*
 * How probe_select() decides: fentry where it loads (the real attach is
 * the proof, kprobes loaded beside it as the spare), kprobes only (-k),
 * or, for --dry-run, fentry only where a throwaway program attaches.
 */
enum select_mode {
	SELECT_DEFAULT,
	SELECT_KPROBE,
	SELECT_PREDICT,
};

enum attach_method {
	ATTACH_NONE,
	ATTACH_FENTRY,		/* fentry/fexit: BPF trampoline */
	ATTACH_KPROBE,		/* kprobe/kretprobe: the fallback */
};

/*
 * One kernel function and the programs that observe it: an entry and/or
 * an exit program of each kind. Only one kind is loaded: fentry/fexit
 * where the kernel allows it, kprobes otherwise (or always, with -k).
 */
struct probe {
	const char *func;
	const char *what;		/* what it measures, for --dry-run */
	struct bpf_program *fentry, *fexit;
	struct bpf_program *kprobe, *kretprobe;
	/*
	 * The parameter names the programs expect at positions 0, 1, ...
	 * ("" for one they do not read), NULL-terminated; checked against
	 * BTF, so that a kernel whose prototype moved is skipped, not misread.
	 */
	const char *const *args;
	bool wanted;			/* false: not requested, never loaded */
	const char *required_by;	/* an option that cannot do without it */
	bool in_kallsyms;		/* a kprobe can attach */
	enum attach_method method;
	const char *skip_reason;	/* why it is not attached */
	char reason[160];		/* skip_reason or fallback, when built */
	const char *fallback;		/* why kprobes stand in for fentry */
	bool spare;			/* kprobes loaded too, in case fentry fails */
	struct bpf_link *links[2];
};

void probes_find_symbols(struct probe *p, int nr);
int probe_select(struct probe *p, const struct btf *btf, enum select_mode mode);
int probe_attach(struct probe *p);
void probe_detach(struct probe *p);
const char *probe_method_name(const struct probe *p);

#endif /* __GUPSTAT_UTIL_ATTACH_H */
