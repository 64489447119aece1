/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_ATTACH_H
#define __GUPSTAT_ATTACH_H

#include <stdbool.h>
#include <bpf/libbpf.h>
#include <bpf/btf.h>

enum attach_method {
	ATTACH_NONE,
	ATTACH_FENTRY,		/* fentry/fexit: BPF trampoline */
	ATTACH_KPROBE,		/* kprobe/kretprobe: the fallback */
};

/*
 * One kernel function and the two programs that can observe it. Exactly
 * one of them is loaded: fentry/fexit where the kernel allows it, the
 * kprobe otherwise (or always, with -k).
 */
struct probe {
	const char *func;
	struct bpf_program *fentry;
	struct bpf_program *kprobe;
	enum attach_method method;
	struct bpf_link *link;
};

int probe_select(struct probe *p, const struct btf *btf, bool force_kprobe);
int probe_attach(struct probe *p);
void probe_detach(struct probe *p);
const char *attach_method_name(const struct probe *p);

#endif /* __GUPSTAT_ATTACH_H */
