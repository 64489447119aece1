// SPDX-License-Identifier: GPL-2.0
/*
 * Loading and reading gupstat validate's BPF programs. The pin and unpin
 * probes stay attached; the grab and put probes, which fire once per
 * folio (or page), are attached only for the untimed census repeat so
 * that their cost never lands inside a timed call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "validate.skel.h"
#include "kernel/pmu.h"
#include "probe/args.h"
#include "probe/probes.h"
#include "util/msg.h"
#include "validate/probe.h"

/* The programs are PROG_fentry, PROG_kprobe, ... (bpf/twins.bpf.h). */
static const struct probe vprobe_table[V_NR_SLOTS] = {
	[V_PIN] = { .prog = "pin", .func = "__gup_longterm_locked",
		    .what = "pin time and counter" },
	[V_UNPIN] = { .prog = "unpin", .func = "unpin_user_pages",
		      .what = "unpin time and counter" },
	[V_GRAB] = { .prog = "grab", .func = "try_grab_folio",
		     .what = "grabs (census)" },
	[V_PUT] = { .prog = "put", .func = "gup_put_folio",
		    .what = "puts (census)" },
};

/* Every probe is needed: the first that cannot attach is the error. */
static int probes_choose(struct v_probes *vp, const struct btf *btf, bool force_kprobe)
{
	struct probe *p = vp->p;
	int i;

	for (i = 0; i < V_NR_SLOTS; i++) {
		p[i] = vprobe_table[i];
		p[i].wanted = true;
		p[i].args = probe_args(p[i].func);
		probe_find_programs(&p[i], vp->skel->obj);
	}
	probes_find_symbols(p, V_NR_SLOTS);
	for (i = 0; i < V_NR_SLOTS; i++) {
		if (!probe_select(&p[i], btf, force_kprobe ? SELECT_KPROBE : SELECT_DEFAULT))
			continue;
		if (p[i].kernel_refused)
			probes_say_none(p, V_NR_SLOTS);
		else
			p_err("cannot trace %s: %s\n", p[i].func,
			      p[i].skip_reason);
		return -ENOENT;
	}
	return 0;
}

/* Attached, or the one line that says why not. */
static int vprobe_attach(struct probe *p)
{
	int err = probe_attach(p);

	if (err)
		p_err("cannot trace %s: %s\n", p->func, p->skip_reason);
	return err;
}

/* A counter per CPU, or none: the results then say why not. */
static void pmu_prepare(struct v_probes *vp, const char *event, struct v_results *r)
{
	int err;

	r->event[0] = 0;
	if (!event) {
		snprintf(r->no_event_reason, sizeof(r->no_event_reason), "not asked for (-e none)");
		return;
	}
	err = pmu_open(event, &vp->pmu_fds, &vp->nr_pmu);
	if (err) {
		snprintf(r->no_event_reason, sizeof(r->no_event_reason),
			 "'%s' cannot be opened here: %s", event, strerror(-err));
		return;
	}
	snprintf(r->event, sizeof(r->event), "%s", event);
}

int vprobes_open(struct v_probes *vp, const struct btf *btf, bool force_kprobe,
		 const char *event, struct v_results *r)
{
	int err;

	memset(vp, 0, sizeof(*vp));
	vp->skel = validate_bpf__open();
	if (!vp->skel) {
		p_err("cannot open BPF object: %s\n", strerror(errno));
		return -errno;
	}
	err = probes_choose(vp, btf, force_kprobe);
	if (err)
		return err;
	snprintf(r->attach, sizeof(r->attach), "%s",
		 vp->p[V_PIN].method == ATTACH_FENTRY ? "fentry" : "kprobe");
	pmu_prepare(vp, event, r);
	vp->skel->rodata->target_tgid = getpid();
	vp->skel->rodata->pmu_on = vp->nr_pmu > 0;
	err = validate_bpf__load(vp->skel);
	if (err) {
		p_err("cannot load BPF programs: %s (try -v)\n", strerror(-err));
		return err;
	}
	err = pmu_install(bpf_map__fd(vp->skel->maps.v_pmu), vp->pmu_fds, vp->nr_pmu);
	if (!err)
		err = vprobe_attach(&vp->p[V_PIN]);
	if (!err)
		err = vprobe_attach(&vp->p[V_UNPIN]);
	return err;
}

int vprobes_census(struct v_probes *vp, bool on)
{
	int err = 0;

	if (on == vp->census)
		return 0;
	if (on) {
		err = vprobe_attach(&vp->p[V_GRAB]);
		if (!err)
			err = vprobe_attach(&vp->p[V_PUT]);
	}
	if (!on || err) {
		probe_detach(&vp->p[V_GRAB]);
		probe_detach(&vp->p[V_PUT]);
	}
	vp->census = on && !err;
	return err;
}

/* Read a slot's sums since the last take, and zero it. */
int vprobes_take(struct v_probes *vp, enum v_slot_id id, struct v_slot *out)
{
	int fd = bpf_map__fd(vp->skel->maps.v_slots);
	struct v_slot zero = {};
	__u32 key = id;

	if (bpf_map_lookup_elem(fd, &key, out) || bpf_map_update_elem(fd, &key, &zero, BPF_ANY)) {
		p_err("cannot read the BPF results: %s\n", strerror(errno));
		return -errno;
	}
	return 0;
}

const char *vprobe_func(enum v_slot_id id)
{
	return vprobe_table[id].func;
}

/* Read by the pin probe at its first call: 0 before, or without them. */
void vprobes_vmemmap(const struct v_probes *vp, __u64 *start, __u64 *pfns)
{
	*start = vp->skel->bss->vmemmap_start;
	*pfns = vp->skel->bss->vmemmap_pfns;
}

void vprobes_close(struct v_probes *vp)
{
	int i;

	for (i = 0; i < V_NR_SLOTS; i++)
		probe_detach(&vp->p[i]);
	validate_bpf__destroy(vp->skel);
	pmu_close(vp->pmu_fds, vp->nr_pmu);
	vp->skel = NULL;
	vp->pmu_fds = NULL;
}
