// SPDX-License-Identifier: GPL-2.0
/*
 * Choosing how to attach to a kernel function, before the object is
 * loaded: a program that the kernel refuses would fail the whole load.
 * Every line said here names the kernel function and the method, never
 * a BPF program: those are gupstat's own business.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "probe/attach.h"
#include "util/msg.h"

/* The name of @p's program of one kind ("fentry", ...), or NULL. */
static struct bpf_program *program_of(const struct probe *p, struct bpf_object *obj,
				      const char *kind)
{
	char name[64];

	snprintf(name, sizeof(name), "%s_%s", p->prog, kind);
	return bpf_object__find_program_by_name(obj, name);
}

/* A hook without an entry (or exit) twin simply has no such program. */
void probe_find_programs(struct probe *p, struct bpf_object *obj)
{
	p->fentry = program_of(p, obj, "fentry");
	p->fexit = program_of(p, obj, "fexit");
	p->kprobe = program_of(p, obj, "kprobe");
	p->kretprobe = program_of(p, obj, "kretprobe");
}

/* The kernel-internal ENOTSUPP has no strerror() text. */
const char *probe_err_text(int err)
{
	if (err == -524)
		return "error 524, ENOTSUPP: this kernel's trampoline cannot take the function";
	return strerror(-err);
}

/*
 * Load a two-instruction fentry/fexit program against @btf_id: the
 * kernel checks BTF, trampoline support and the function's address at
 * load time. It is never attached: every attach and detach patches the
 * function's text, and the real attach (or --dry-run's) is the proof.
 * Returns 0 or the kernel's -errno.
 */
static int fentry_try(int btf_id, enum bpf_attach_type type)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = type,
		    .attach_btf_id = btf_id);
	int fd;

	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "gupstat_probe", "GPL",
			   insns, 2, &opts);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* fexit where the probe has one: it is the stricter of the two. */
static int probe_fentry_check(const struct probe *p, int btf_id)
{
	return fentry_try(btf_id, p->fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY);
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

static void set_autoload(struct bpf_program *prog, bool on)
{
	if (prog)
		bpf_program__set_autoload(prog, on);
}

static const char *fentry_kind(const struct probe *p)
{
	return p->fentry && p->fexit ? "fentry/fexit" : p->fexit ? "fexit" : "fentry";
}

/* fentry refused: kprobes stand in, and the reason is kept to be said. */
static void set_fallback(struct probe *p, int err)
{
	snprintf(p->reason, sizeof(p->reason), "%s refused (%s)", fentry_kind(p),
		 probe_err_text(err));
	p->fallback = p->reason;
}

/*
 * Why this kernel cannot run kprobe programs, or NULL where it can.
 * libbpf attaches them through the "kprobe" perf event source, or,
 * before it, tracefs' kprobe_events: with neither, every attach would
 * fail with ENOENT. Asked once; the load of a spare that the kernel
 * refuses would fail the whole object.
 */
const char *probe_kprobes_missing(void)
{
	static const char *why;
	static bool asked;

	if (asked)
		return why;
	asked = true;
	if (libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_KPROBE, NULL) != 1)
		why = "kprobe programs refused";
	else if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) &&
		 access("/sys/kernel/tracing/kprobe_events", F_OK) &&
		 access("/sys/kernel/debug/tracing/kprobe_events", F_OK))
		why = "no kprobe event source: built without CONFIG_KPROBE_EVENTS";
	return why;
}

static bool can_kprobe(const struct probe *p)
{
	return p->in_kallsyms && !probe_kprobes_missing();
}

/* Neither way in: say which, in the kernel's terms. */
static enum attach_method refuse(struct probe *p, bool has_btf)
{
	const char *kp = probe_kprobes_missing();

	if (!p->in_kallsyms && p->clone[0]) {
		/* Its code runs under the clone's name, with arguments BTF does not describe. */
		snprintf(p->reason, sizeof(p->reason),
			 "only its compiler clone %s is in kallsyms, with arguments BTF does not describe",
			 p->clone);
		p->skip_reason = p->reason;
		return ATTACH_NONE;
	}
	if (!p->in_kallsyms) {
		p->skip_reason = has_btf ? "not in kallsyms (inlined?)" :
			"not in this kernel (absent or inlined)";
		return ATTACH_NONE;
	}
	p->kernel_refused = true;
	if (p->fentry_err)
		snprintf(p->reason, sizeof(p->reason), "%s refused (%s), and no kprobes (%s)",
			 fentry_kind(p), probe_err_text(p->fentry_err), kp);
	else
		snprintf(p->reason, sizeof(p->reason), "no kprobes (%s)", kp);
	p->skip_reason = p->reason;
	return ATTACH_NONE;
}

/* An argument wanted at the return, and no fexit: a kretprobe cannot. */
static enum attach_method refuse_kretprobe(struct probe *p, enum select_mode mode)
{
	if (mode == SELECT_KPROBE)
		snprintf(p->reason, sizeof(p->reason),
			 "-k: a kretprobe cannot read the arguments it needs at the return");
	else if (p->fentry_err)
		snprintf(p->reason, sizeof(p->reason),
			 "%s refused (%s), and a kretprobe cannot read the arguments it needs",
			 fentry_kind(p), probe_err_text(p->fentry_err));
	else
		snprintf(p->reason, sizeof(p->reason), "not in BTF: fexit cannot attach");
	p->skip_reason = p->reason;
	return ATTACH_NONE;
}

static enum attach_method choose(struct probe *p, const struct btf *btf,
				 enum select_mode mode)
{
	int id = btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC);

	p->fallback = NULL;
	p->spare = false;
	p->fentry_err = 0;
	p->kernel_refused = false;
	if (!p->wanted) {
		p->skip_reason = "not requested";
		return ATTACH_NONE;
	}
	if (id > 0 && !args_match(p, btf, id)) {
		p->skip_reason = p->reason;
		return ATTACH_NONE;
	}
	if (mode != SELECT_KPROBE && id > 0 && (p->fentry || p->fexit)) {
		p->fentry_err = probe_fentry_check(p, id);
		if (!p->fentry_err) {
			p->spare = mode == SELECT_DEFAULT && can_kprobe(p) && !p->need_fexit;
			return ATTACH_FENTRY;
		}
	}
	if (p->need_fexit)
		return refuse_kretprobe(p, mode);
	if (!can_kprobe(p))
		return refuse(p, id > 0);
	if (p->fentry_err)
		set_fallback(p, p->fentry_err);
	return ATTACH_KPROBE;
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

static int attach_one(struct probe *p, struct bpf_program *prog, int slot)
{
	if (!prog)
		return 0;
	p->links[slot] = bpf_program__attach(prog);
	return p->links[slot] ? 0 : -errno;
}

static int attach_pair(struct probe *p, struct bpf_program *entry,
		       struct bpf_program *exit)
{
	int err = attach_one(p, entry, 0);

	if (!err)
		err = attach_one(p, exit, 1);
	if (err)
		probe_detach(p);
	return err;
}

/* Attached by neither: the probe is skipped, and why is kept. */
static int attach_failed(struct probe *p, const char *how, int err)
{
	snprintf(p->reason, sizeof(p->reason), "%s attach refused (%s)", how, probe_err_text(err));
	p->skip_reason = p->reason;
	p->fallback = NULL;
	p->method = ATTACH_NONE;
	return err;
}

/*
 * fentry/fexit first; where the kernel refuses them at attach time and
 * kprobes were loaded as the spare, they stand in, said in one line.
 * On failure the probe is left unattached with its reason in
 * skip_reason, for the caller to say.
 */
int probe_attach(struct probe *p)
{
	int err;

	if (p->method == ATTACH_KPROBE) {
		err = attach_pair(p, p->kprobe, p->kretprobe);
		return err ? attach_failed(p, "kprobe", err) : 0;
	}
	if (p->method != ATTACH_FENTRY)
		return 0;
	err = attach_pair(p, p->fentry, p->fexit);
	if (!err)
		return 0;
	if (!p->spare)
		return attach_failed(p, fentry_kind(p), err);
	set_fallback(p, err);
	p->method = ATTACH_KPROBE;
	p_err("%s: %s, using kprobes\n", p->func, p->fallback);
	err = attach_pair(p, p->kprobe, p->kretprobe);
	return err ? attach_failed(p, "kprobe", err) : 0;
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

/* The kernel's count of @prog's runs it skipped; 0 for none loaded. */
static __u64 prog_missed(struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	int fd = prog ? bpf_program__fd(prog) : -1;

	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

/*
 * A program does not run while another run of it is in progress on the
 * same CPU: the kernel skips it and counts the miss. On a preemptible
 * kernel (7.x's lazy preemption, PREEMPT_LAZY) a task can be switched
 * out inside a program, and every other task's calls on that CPU are
 * skipped until it comes back.
 */
__u64 probe_missed(const struct probe *p)
{
	struct bpf_program *progs[2];
	int i, n = probe_attached_progs(p, progs);
	__u64 missed = 0;

	for (i = 0; i < n; i++)
		missed += prog_missed(progs[i]);
	return missed;
}

/* The exit program's alone: each of its skips is one call unrecorded. */
__u64 probe_exit_missed(const struct probe *p)
{
	struct bpf_program *progs[2];

	return probe_attached_progs(p, progs) == 2 ? prog_missed(progs[1]) : 0;
}

/* Only the kind attached: the spare kprobes of an fentry probe never run. */
int probe_attached_progs(const struct probe *p, struct bpf_program *progs[2])
{
	switch (p->method) {
	case ATTACH_FENTRY:
		progs[0] = p->fentry, progs[1] = p->fexit;
		return 2;
	case ATTACH_KPROBE:
		progs[0] = p->kprobe, progs[1] = p->kretprobe;
		return 2;
	default:
		return 0;
	}
}
