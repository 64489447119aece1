// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model's side of gupstat validate. The plugin is asked first
 * whether it is there at all, then learns from the guest what to count
 * (gupsim/simctl.h): the two functions, and the struct page range
 * [vmemmap_base, + max_pfn pages), which the validate programs read in
 * the kernel. It then logs
 * one line per call of either, written before the call returns to the
 * guest, so after each repeat the lines of that repeat's two calls are
 * already there to read.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "gupsim.h"
#include "gupsim/simctl.h"
#include "util/msg.h"
#include "validate/probe.h"
#include "validate/sim.h"

int vsim_open(struct vsim *s, const char *dir)
{
	const char *names[2] = { vprobe_func(V_PIN), vprobe_func(V_UNPIN) };
	char path[4096], model[256];
	int err;

	memset(s, 0, sizeof(*s));
	s->log.fd = -1;
	if (snprintf(path, sizeof(path), "%s/%s", dir, GUPSIM_LOG) >= (int)sizeof(path)) {
		p_err("--sim: path too long: %s\n", dir);
		return -ENAMETOOLONG;
	}
	err = simlog_open(&s->log, path);
	if (err) {
		p_err("--sim: cannot read %s: %s (a guest of tools/vmrun --cache-sim has it)\n",
		      path, strerror(-err));
		return err;
	}
	err = simctl_init(&s->ctl, dir, "/proc/kallsyms", names, 2);
	if (err)
		return err;
	/* Asked now, so that no plugin fails before anything is measured. */
	return simctl_configure(&s->ctl, &s->log, model, sizeof(model));
}

int vsim_configure(struct vsim *s, struct v_results *r, const struct btf *btf,
		   __u64 vmemmap_start, __u64 pfns)
{
	__s32 id = btf__find_by_name_kind(btf, "page", BTF_KIND_STRUCT);
	__s64 size = id > 0 ? btf__resolve_size(btf, id) : -1;
	int err;

	if (!vmemmap_start || !pfns || size <= 0) {
		p_err("--sim: this kernel's struct page range is unknown (vmemmap_base, max_pfn, struct page in BTF)\n");
		return -ENOENT;
	}
	r->vmemmap_start = s->ctl.vmemmap_start = vmemmap_start;
	r->vmemmap_end = s->ctl.vmemmap_end = vmemmap_start + pfns * size;
	err = simctl_configure(&s->ctl, &s->log, r->sim_model, sizeof(r->sim_model));
	s->ready = !err;
	return err;
}

/* One record each, no more: another call on this CPU is not this test. */
static int take_one(struct simrec *slot, bool *seen, const struct simrec *rec, int idx)
{
	if (seen[idx]) {
		p_err("--sim: the cache model counted two calls of %s in one repeat\n", rec->name);
		return -EPROTO;
	}
	*slot = *rec;
	seen[idx] = true;
	return 0;
}

/* The model's word for a call it saw enter and could not frame. */
static bool lost_line(const struct simrec *rec)
{
	static const char tail[] = ": call not counted";
	size_t n = strlen(rec->text), t = sizeof(tail) - 1;

	return n > t && !strcmp(rec->text + n - t, tail);
}

/* ... on @cpu: "error FUNC: ... on vCPU N ...: call not counted". */
static bool lost_here(const struct simrec *rec, int cpu)
{
	const char *at = strstr(rec->text, " on vCPU ");
	unsigned int vcpu;

	return at && sscanf(at, " on vCPU %u", &vcpu) == 1 && vcpu == (unsigned int)cpu;
}

/*
 * This repeat's two calls from the model's log. A call on @cpu that it
 * could not frame (see sim/window.c) makes the repeat VSIM_LOST, once
 * the rest of its lines are read, so that the next repeat starts on its
 * own; one lost on another vCPU is not this test's.
 */
int vsim_take(struct vsim *s, int cpu, struct vsim_call *out)
{
	bool seen[2] = { false, false }, lost = false;
	struct simrec rec;
	int got = 0, err = 0;

	while (!err && (got = simlog_next(&s->log, &rec)) > 0) {
		if (rec.type == SIMREC_ERROR && lost_line(&rec)) {
			lost = lost || lost_here(&rec, cpu);
			continue;
		}
		if (rec.type == SIMREC_ERROR)
			return simctl_say_error(&rec);
		if (lost || rec.type != SIMREC_CALL || rec.vcpu != (unsigned int)cpu)
			continue;
		if (!strcmp(rec.name, vprobe_func(V_PIN)))
			err = take_one(&out->pin, seen, &rec, 0);
		else if (!strcmp(rec.name, vprobe_func(V_UNPIN)))
			err = take_one(&out->unpin, seen, &rec, 1);
	}
	if (!err && got < 0) {
		p_err("--sim: cannot read the cache model's log: %s\n", strerror(-got));
		return got;
	}
	if (!err && lost)
		return VSIM_LOST;
	if (!err && (!seen[0] || !seen[1])) {
		p_err("--sim: the cache model counted no call of %s on CPU %d\n",
		      vprobe_func(seen[0] ? V_UNPIN : V_PIN), cpu);
		return -EPROTO;
	}
	return err;
}

void vsim_close(struct vsim *s)
{
	simlog_close(&s->log);
}
