// SPDX-License-Identifier: GPL-2.0
/* Run counts and times of gupstat's own programs, from bpf_prog_info. */
#include <errno.h>
#include <stdio.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "probe/attach.h"
#include "serve/progs.h"

int progs_stats_enabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");
	int v = -1;

	if (!f)
		return -errno;
	if (fscanf(f, "%d", &v) != 1)
		v = -EINVAL;
	fclose(f);
	return v;
}

static void read_prog(struct prog_stats *ps, const struct probe *p, struct bpf_program *prog)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	struct prog_stat *s;

	if (!prog || bpf_program__fd(prog) < 0 ||
	    bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return;
	s = &ps->p[ps->nr++];
	s->prog = bpf_program__name(prog);
	s->func = p->func;
	s->runs = info.run_cnt;
	s->run_ns = info.run_time_ns;
	s->misses = info.recursion_misses;
}

void progs_read(struct prog_stats *ps, const struct probe *probes)
{
	struct bpf_program *progs[2];
	int i, j, n;

	ps->nr = 0;
	ps->enabled = progs_stats_enabled() == 1;
	for (i = 0; i < NR_PROBES; i++) {
		n = probe_attached_progs(&probes[i], progs);
		for (j = 0; j < n; j++)
			read_prog(ps, &probes[i], progs[j]);
	}
}
