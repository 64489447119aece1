// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing how to attach to a kernel function, before the object is
 * loaded: a program that the kernel refuses would fail the whole load.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "attach.h"

/*
 * Can a fexit program be loaded against @btf_id? Load a two-instruction
 * one and see; this is what the kernel checks at load time (BTF, a
 * trampoline, kallsyms address), and costs well under a millisecond.
 */
static bool fentry_loadable(int btf_id)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FEXIT,
		    .attach_btf_id = btf_id);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "gupstat_probe", "GPL",
			   insns, 2, &opts);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* Kprobes need a real symbol: a function inlined at every call has none. */
static bool in_kallsyms(const char *func)
{
	char line[256], name[128];
	bool found = false;
	FILE *f;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %127s", name) == 1 &&
			!strcmp(name, func);
	fclose(f);
	return found;
}

int probe_select(struct probe *p, const struct btf *btf, bool force_kprobe)
{
	int id = btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC);

	p->method = ATTACH_NONE;
	if (!force_kprobe && id > 0 && fentry_loadable(id))
		p->method = ATTACH_FENTRY;
	else if (in_kallsyms(p->func))
		p->method = ATTACH_KPROBE;
	bpf_program__set_autoload(p->fentry, p->method == ATTACH_FENTRY);
	bpf_program__set_autoload(p->kprobe, p->method == ATTACH_KPROBE);
	if (p->method != ATTACH_NONE)
		return 0;
	if (id < 0)
		fprintf(stderr, "gupstat: %s: not in kernel BTF or kallsyms (absent or inlined)\n",
			p->func);
	else
		fprintf(stderr, "gupstat: %s: neither fentry nor kprobe can attach (not in kallsyms: inlined?)\n",
			p->func);
	return -ENOENT;
}

int probe_attach(struct probe *p)
{
	struct bpf_program *prog;

	prog = p->method == ATTACH_FENTRY ? p->fentry : p->kprobe;
	p->link = bpf_program__attach(prog);
	if (p->link)
		return 0;
	fprintf(stderr, "gupstat: cannot attach %s to %s: %s\n",
		attach_method_name(p), p->func, strerror(errno));
	return -errno;
}

void probe_detach(struct probe *p)
{
	bpf_link__destroy(p->link);
	p->link = NULL;
}

const char *attach_method_name(const struct probe *p)
{
	bool ret = bpf_program__expected_attach_type(p->fentry) == BPF_TRACE_FEXIT;

	switch (p->method) {
	case ATTACH_FENTRY:
		return ret ? "fexit" : "fentry";
	case ATTACH_KPROBE:
		return ret ? "kretprobe" : "kprobe";
	default:
		return "none";
	}
}
