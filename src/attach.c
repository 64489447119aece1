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
 * one and see: the kernel checks BTF, trampoline support and the
 * function's address at load time. Costs well under a millisecond.
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

/*
 * Kprobes need a real symbol: a function inlined at every call has none.
 * One pass over /proc/kallsyms marks every probe's function.
 */
void probes_find_symbols(struct probe *p, int nr)
{
	char line[256], name[128];
	FILE *f;
	int i;

	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %127s", name) != 1)
			continue;
		for (i = 0; i < nr; i++)
			if (!strcmp(name, p[i].func))
				p[i].in_kallsyms = true;
	}
	fclose(f);
}

static void set_autoload(struct bpf_program *prog, bool on)
{
	if (prog)
		bpf_program__set_autoload(prog, on);
}

static enum attach_method choose(struct probe *p, const struct btf *btf,
				 bool force_kprobe)
{
	int id = btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC);
	bool sym = p->in_kallsyms;

	if (!p->wanted) {
		p->skip_reason = "not requested";
		return ATTACH_NONE;
	}
	if (!force_kprobe && id > 0 && fentry_loadable(id))
		return ATTACH_FENTRY;
	if (sym)
		return ATTACH_KPROBE;
	p->skip_reason = id > 0 ? "not in kallsyms (inlined?)" :
		"not in this kernel (absent or inlined)";
	return ATTACH_NONE;
}

/*
 * Returns 0, or -ENOENT when the probe will not attach (skip_reason).
 * probes_find_symbols() must have run.
 */
int probe_select(struct probe *p, const struct btf *btf, bool force_kprobe)
{
	p->method = choose(p, btf, force_kprobe);
	set_autoload(p->fentry, p->method == ATTACH_FENTRY);
	set_autoload(p->fexit, p->method == ATTACH_FENTRY);
	set_autoload(p->kprobe, p->method == ATTACH_KPROBE);
	set_autoload(p->kretprobe, p->method == ATTACH_KPROBE);
	return p->method == ATTACH_NONE ? -ENOENT : 0;
}

static int attach_one(struct probe *p, struct bpf_program *prog, int slot)
{
	if (!prog)
		return 0;
	p->links[slot] = bpf_program__attach(prog);
	if (p->links[slot])
		return 0;
	fprintf(stderr, "gupstat: cannot attach %s to %s: %s\n",
		bpf_program__name(prog), p->func, strerror(errno));
	return -errno;
}

int probe_attach(struct probe *p)
{
	bool fentry = p->method == ATTACH_FENTRY;
	int err;

	if (p->method == ATTACH_NONE)
		return 0;
	err = attach_one(p, fentry ? p->fentry : p->kprobe, 0);
	if (!err)
		err = attach_one(p, fentry ? p->fexit : p->kretprobe, 1);
	return err;
}

void probe_detach(struct probe *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		bpf_link__destroy(p->links[i]);
		p->links[i] = NULL;
	}
}

const char *probe_method_name(const struct probe *p)
{
	bool entry = p->fentry || p->kprobe, exit = p->fexit || p->kretprobe;

	switch (p->method) {
	case ATTACH_FENTRY:
		return entry && exit ? "fentry+fexit" : entry ? "fentry" : "fexit";
	case ATTACH_KPROBE:
		return entry && exit ? "kprobe+kretprobe" : entry ? "kprobe" : "kretprobe";
	default:
		return "none";
	}
}
