// SPDX-License-Identifier: GPL-2.0
/*
 * The live view's object made ready to run, as `gupstat` and `gupstat
 * serve` both run it: bad input refused first, the object opened and its
 * probes chosen, the counter opened, the programs told what to count and
 * loaded. How each then shows the numbers is its own.
 */
#include <errno.h>
#include <bpf/bpf.h>
#include "gupstat.skel.h"
#include "kernel/cgpath.h"
#include "kernel/cgroup.h"
#include "kernel/pmu.h"
#include "probe/setup.h"
#include "probe/view.h"

/*
 * The counter: -e EVENT, the default, or none (-e none). A counter the
 * machine lacks is said once and left out. (An unknown name was refused
 * in view_prepare(), before anything else was printed.)
 */
void view_pmu_setup(struct view *v)
{
	const char *event = v->o->event ? v->o->event : PMU_DEFAULT_EVENT;

	if (!v->o->no_event && !pmu_open(event, &v->pmu_fds, &v->nr_pmu))
		v->cv.event = event;
}

static void set_rodata(struct view *v)
{
	struct setup_cfg c = {
		.filter_on = v->o->cmd || v->o->pid,
		.follow_forks = v->o->cmd,
		.cgroup_id = v->s.cgroup_id,
		.cgroup_exact = v->o->cgroup_exact,
		.per_process = v->o->per_process,
		.per_cgroup = v->o->per_cgroup,
		.walk_returns_count = v->s.returns_count,
		.lock_exact = v->o->lock_exact,
		.waits = v->o->waits,
		.pmu_on = v->cv.event != NULL,
	};

	setup_rodata(v->s.skel, v->s.btf, &c);
}

int view_load(struct view *v)
{
	set_rodata(v);
	return session_load(&v->s) ?:
		(v->cv.event ? pmu_install(bpf_map__fd(v->s.skel->maps.pmu_events),
					   v->pmu_fds, v->nr_pmu) : 0);
}

/* Bad input first, so its error is the only line printed. */
static int prepare(struct view *v)
{
	session_init(&v->s, v->o->cmd, v->o->pid, v->o->duration);
	if (v->o->cgroup && session_cgroup(&v->s, v->o->cgroup))
		return -EINVAL;
	if (v->o->event && !pmu_known_event(v->o->event))
		return -EINVAL;
	if (v->o->per_cgroup && cgroup_names_open(&v->cgroup_names))
		return -EINVAL;
	return session_open(&v->s, v->o->verbose, v->o->lock_exact, v->o->waits) ?:
		probes_select(v->s.probes, v->s.btf,
			      v->o->force_kprobe ? SELECT_KPROBE : SELECT_DEFAULT);
}

int view_prepare(struct view *v)
{
	int err;

	v->cv.lock_exact = v->o->lock_exact;
	err = prepare(v);
	v->cv.probes = v->s.probes;
	v->cv.walk_returns_count = v->s.returns_count;
	return err;
}

void view_close(struct view *v)
{
	session_close(&v->s);
	cgpath_free(v->cgroup_names);
	pmu_close(v->pmu_fds, v->nr_pmu);
}
