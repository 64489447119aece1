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
 * Can a fentry/fexit program attach to @btf_id? Load a two-instruction
 * one and attach it for a moment: the kernel checks BTF and the
 * function's address at load time, but only the attach builds the
 * trampoline, and that is where a kernel refuses e.g. a function with
 * more arguments than its trampoline saves (6.1: more than six, -ENOTSUPP).
 * Costs well under a millisecond. Returns 0 or the kernel's -errno.
 */
static int fentry_attachable(int btf_id, enum bpf_attach_type type)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = type,
		    .attach_btf_id = btf_id);
	int fd, link, err = 0;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "gupstat_probe", "GPL",
			   insns, 2, &opts);
	if (fd < 0)
		return -errno;
	link = bpf_link_create(fd, 0, type, NULL);
	if (link < 0)	/* kernels before BPF links for tracing */
		link = bpf_raw_tracepoint_open(NULL, fd);
	if (link < 0)
		err = -errno;
	else
		close(link);
	close(fd);
	return err;
}

/* fexit where the probe has one: it is the stricter of the two. */
static int probe_fentry_check(const struct probe *p, int btf_id)
{
	return fentry_attachable(btf_id, p->fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY);
}

/* Do @p's expected parameter names match the kernel's prototype? */
static bool args_match(struct probe *p, const struct btf *btf, int btf_id)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__type_by_id(btf, btf_id)->type);
	const struct btf_param *prm;
	const char *have;
	int i;

	if (!p->args || !t || !btf_is_func_proto(t))
		return true;
	prm = btf_params(t);
	for (i = 0; p->args[i]; i++) {
		if (!*p->args[i])
			continue;
		have = i < btf_vlen(t) ? btf__name_by_offset(btf, prm[i].name_off) : "";
		if (strcmp(have, p->args[i])) {
			snprintf(p->reason, sizeof(p->reason),
				 "prototype differs: argument %d is '%s' here, the programs read '%s'",
				 i + 1, *have ? have : "(none)", p->args[i]);
			return false;
		}
	}
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

/* fentry refused: kprobes stand in, and the reason is kept to be said. */
static enum attach_method fall_back(struct probe *p, int err)
{
	/* The kernel-internal ENOTSUPP has no strerror() text. */
	const char *why = err == -524 ?
		"error 524, ENOTSUPP: this kernel's trampoline cannot take the function" :
		strerror(-err);

	snprintf(p->reason, sizeof(p->reason), "%s refused (%s)",
		 p->fexit ? "fexit" : "fentry", why);
	p->fallback = p->reason;
	return ATTACH_KPROBE;
}

static enum attach_method choose(struct probe *p, const struct btf *btf,
				 bool force_kprobe)
{
	int id = btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC);
	bool sym = p->in_kallsyms;
	int err;

	p->fallback = NULL;
	if (!p->wanted) {
		p->skip_reason = "not requested";
		return ATTACH_NONE;
	}
	if (id > 0 && !args_match(p, btf, id)) {
		p->skip_reason = p->reason;
		return ATTACH_NONE;
	}
	if (!force_kprobe && id > 0) {
		err = probe_fentry_check(p, id);
		if (!err)
			return ATTACH_FENTRY;
		if (sym && (p->kprobe || p->kretprobe))
			return fall_back(p, err);
	}
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
