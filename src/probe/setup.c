// SPDX-License-Identifier: GPL-2.0
/*
 * What the live view and gupstat trace share between opening the BPF
 * object and attaching it: the kernel's shape, read from its BTF, into
 * the programs' read-only data, and the process filter.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include "kernel/foll.h"
#include "gupstat.skel.h"
#include "kernel/kernel_btf.h"
#include "probe/setup.h"
#include "util/msg.h"

int setup_libbpf_print(enum libbpf_print_level level, const char *fmt,
		       va_list args)
{
	msg_clear();
	return vfprintf(stderr, fmt, args);
}

/* An unpatched kernel returns struct page *, the batched walk a count. */
int setup_walk_shape(const struct btf *btf, bool *returns_count)
{
	int kind = kernel_btf_ret_kind(btf, "follow_page_pte");

	*returns_count = kind == RET_INT;
	if (kind == -ENOENT || kind == RET_PTR || kind == RET_INT)
		return 0;	/* absent: the probe is skipped with a reason */
	p_err("follow_page_pte: unknown prototype (returns neither a pointer nor a count)\n");
	return -EINVAL;
}

static int arg_of(const struct btf *btf, const char *func, const char *name)
{
	const char *names[] = { name, NULL };

	return kernel_btf_arg_index(btf, func, names);
}

/* Where the arguments the programs read are: by name, per kernel. */
static void set_arg_positions(struct gupstat_bpf *skel, const struct btf *btf)
{
	static const char *const fill_nr[] = { "nr", "nr_pages", "npages", NULL };
	__typeof__(*skel->rodata) *ro = skel->rodata;

	ro->fill_nr_arg = kernel_btf_arg_index(btf, "gup_fill_pages", fill_nr);
	ro->walk_addr_arg = arg_of(btf, "follow_page_pte", "address");
	ro->walk_flags_arg = arg_of(btf, "follow_page_pte", "flags");
	/* An unpatched walk has no pages argument: its caller stores. */
	ro->walk_pages_arg = arg_of(btf, "follow_page_pte", "pages");
}

static void set_foll_bits(struct gupstat_bpf *skel, const struct btf *btf)
{
	struct foll_bits b;

	foll_bits(btf, &b);
	skel->rodata->foll_pin = b.pin;
	skel->rodata->foll_get = b.get;
	skel->rodata->foll_longterm = b.longterm;
}

void setup_rodata(struct gupstat_bpf *skel, const struct btf *btf,
		  const struct setup_cfg *c)
{
	__typeof__(*skel->rodata) *ro = skel->rodata;

	ro->filter_on = c->filter_on;
	ro->filter_any = c->filter_on || c->cgroup_id;
	ro->filter_cgroup = c->cgroup_id;
	ro->filter_cgroup_exact = c->cgroup_exact;
	ro->per_process = c->per_process;
	ro->per_cgroup = c->per_cgroup;
	ro->walk_returns_count = c->walk_returns_count;
	ro->walk_plain = !ro->filter_any && !c->per_process && !c->per_cgroup &&
			 !c->lock_exact && !c->waits && !c->trace;
	ro->lock_exact = c->lock_exact;
	ro->waits_on = c->waits;
	ro->pmu_on = c->pmu_on;
	ro->trace_on = c->trace;
	ro->trace_min_ns = c->trace_min_ns;
	ro->trace_want_stacks = c->stacks;
	ro->trace_stack_min_ns = c->stack_min_ns;
	ro->trace_wakeup_bytes = c->wakeup_bytes;
	set_arg_positions(skel, btf);
	set_foll_bits(skel, btf);
	bpf_program__set_autoload(skel->progs.filter_fork, c->follow_forks);
	bpf_map__set_max_entries(skel->maps.pmu_events, libbpf_num_possible_cpus());
	/* Without trace the ring buffer and stack map keep their minimum. */
	if (c->trace) {
		bpf_map__set_max_entries(skel->maps.trace_events, c->ringbuf_bytes);
		bpf_map__set_max_entries(skel->maps.trace_stacks, c->stack_entries);
	}
}

/* -c: the cgroup whose tasks and descendants' tasks the programs count. */
static int seed_cgroup(struct gupstat_bpf *skel, int cgroup_fd)
{
	__u32 zero = 0;
	int err;

	if (cgroup_fd < 0)
		return 0;
	err = bpf_map__update_elem(skel->maps.filter_cgroup_dir, &zero, sizeof(zero),
				   &cgroup_fd, sizeof(cgroup_fd), BPF_ANY);
	if (err)
		p_err("cannot set the cgroup filter: %s\n", strerror(-err));
	return err;
}

/*
 * Seed the cgroup filter with @cgroup_fd (-1: none), the process filter
 * with @pid and, for a command, follow its forks from the moment it is
 * released.
 */
int setup_filter_seed(struct gupstat_bpf *skel, __u32 pid, int cgroup_fd)
{
	__u8 one = 1;
	int err = seed_cgroup(skel, cgroup_fd);

	if (err || !pid)
		return err;
	if (bpf_program__autoload(skel->progs.filter_fork)) {
		skel->links.filter_fork = bpf_program__attach(skel->progs.filter_fork);
		if (!skel->links.filter_fork) {
			p_err("cannot follow the command's forks (sched_process_fork): %s\n",
			      strerror(errno));
			return -errno;
		}
	}
	if (bpf_map__update_elem(skel->maps.filter_tgids, &pid, sizeof(pid),
				 &one, sizeof(one), BPF_ANY)) {
		p_err("cannot set the process filter: %s\n", strerror(errno));
		return -errno;
	}
	return 0;
}
