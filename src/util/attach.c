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
#include "util/attach.h"

/*
 * Load a two-instruction fentry/fexit program against @btf_id: the
 * kernel checks BTF, trampoline support and the function's address at
 * load time. With @attach, also attach it for a moment: only the attach
 * builds the trampoline, and that is where a kernel refuses e.g. a
 * function with more arguments than its trampoline saves (6.1: more than
 * six, -ENOTSUPP). Returns 0 or the kernel's -errno.
 *
 * Only --dry-run attaches here: every attach and detach patches the
 * function's text, and a real run proves the attach by doing it.
 */
static int fentry_try(int btf_id, enum bpf_attach_type type, bool attach)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = type,
		    .attach_btf_id = btf_id);
	int fd, link = -1, err = 0;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "gupstat_probe", "GPL",
			   insns, 2, &opts);
	if (fd < 0)
		return -errno;
	if (attach) {
		link = bpf_link_create(fd, 0, type, NULL);
		if (link < 0)	/* kernels before BPF links for tracing */
			link = bpf_raw_tracepoint_open(NULL, fd);
		err = link < 0 ? -errno : 0;
	}
	if (link >= 0)
		close(link);
	close(fd);
	return err;
}

/* fexit where the probe has one: it is the stricter of the two. */
static int probe_fentry_check(const struct probe *p, int btf_id, bool attach)
{
	return fentry_try(btf_id, p->fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY, attach);
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
static void set_fallback(struct probe *p, int err)
{
	/* The kernel-internal ENOTSUPP has no strerror() text. */
	const char *why = err == -524 ?
		"error 524, ENOTSUPP: this kernel's trampoline cannot take the function" :
		strerror(-err);

	snprintf(p->reason, sizeof(p->reason), "%s refused (%s)",
		 p->fentry && p->fexit ? "fentry/fexit" : p->fexit ? "fexit" : "fentry", why);
	p->fallback = p->reason;
}

/*
 * A spare that cannot load would fail the whole object: ask once whether
 * this kernel loads kprobe programs at all.
 */
static bool kprobes_load(void)
{
	static int ok = -1;

	if (ok < 0)
		ok = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_KPROBE, NULL) == 1;
	return ok;
}

static bool has_kprobes(const struct probe *p)
{
	return p->in_kallsyms && (p->kprobe || p->kretprobe);
}

static enum attach_method choose(struct probe *p, const struct btf *btf,
				 enum select_mode mode)
{
	int id = btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC);
	bool sym = p->in_kallsyms;
	int err;

	p->fallback = NULL;
	p->spare = false;
	if (!p->wanted) {
		p->skip_reason = "not requested";
		return ATTACH_NONE;
	}
	if (id > 0 && !args_match(p, btf, id)) {
		p->skip_reason = p->reason;
		return ATTACH_NONE;
	}
	if (mode != SELECT_KPROBE && id > 0) {
		err = probe_fentry_check(p, id, mode == SELECT_PREDICT);
		if (!err) {
			p->spare = mode == SELECT_DEFAULT && has_kprobes(p) && kprobes_load();
			return ATTACH_FENTRY;
		}
		if (has_kprobes(p)) {
			set_fallback(p, err);
			return ATTACH_KPROBE;
		}
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
int probe_select(struct probe *p, const struct btf *btf, enum select_mode mode)
{
	bool kp;

	p->method = choose(p, btf, mode);
	kp = p->method == ATTACH_KPROBE || p->spare;
	set_autoload(p->fentry, p->method == ATTACH_FENTRY);
	set_autoload(p->fexit, p->method == ATTACH_FENTRY);
	set_autoload(p->kprobe, kp);
	set_autoload(p->kretprobe, kp);
	return p->method == ATTACH_NONE ? -ENOENT : 0;
}

static int attach_one(struct probe *p, struct bpf_program *prog, int slot, bool quiet)
{
	int err;

	if (!prog)
		return 0;
	p->links[slot] = bpf_program__attach(prog);
	if (p->links[slot])
		return 0;
	err = -errno;
	if (!quiet)
		fprintf(stderr, "gupstat: cannot attach %s to %s: %s\n",
			bpf_program__name(prog), p->func, strerror(-err));
	return err;
}

static int attach_pair(struct probe *p, struct bpf_program *entry,
		       struct bpf_program *exit, bool quiet)
{
	int err = attach_one(p, entry, 0, quiet);

	if (!err)
		err = attach_one(p, exit, 1, quiet);
	if (err)
		probe_detach(p);
	return err;
}

/*
 * fentry/fexit first; where the kernel refuses them at attach time and
 * kprobes were loaded as the spare, they stand in, said in one line.
 */
int probe_attach(struct probe *p)
{
	int err;

	if (p->method == ATTACH_KPROBE)
		return attach_pair(p, p->kprobe, p->kretprobe, false);
	if (p->method != ATTACH_FENTRY)
		return 0;
	err = attach_pair(p, p->fentry, p->fexit, p->spare);
	if (!err || !p->spare)
		return err;
	set_fallback(p, err);
	p->method = ATTACH_KPROBE;
	fprintf(stderr, "gupstat: %s: %s, using kprobes\n", p->func, p->fallback);
	return attach_pair(p, p->kprobe, p->kretprobe, false);
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
