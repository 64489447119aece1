// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU's own event names through libpfm4 (linked statically, as
 * libbpf is): what perf list shows for this CPU model, which perf's
 * --pfm-events encodes with the same library call.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "kernel/pmu_pfm.h"

#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>

const bool pmu_pfm_linked = true;

static bool pfm_ready(void)
{
	static int state;	/* 0 untried, 1 ready, -1 failed */

	if (!state)
		state = pfm_initialize() == PFM_SUCCESS ? 1 : -1;
	return state > 0;
}

/*
 * Whether event @idx is of libpfm4's own table of perf's generic names
 * ("llc-loads" in any case), which perf's -e does not take as spelt.
 */
static bool generic_pmu(int idx)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	pfm_pmu_info_t pi = { .size = sizeof(pi) };

	return pfm_get_event_info(idx, PFM_OS_NONE, &ei) != PFM_SUCCESS ||
	       pfm_get_pmu_info(ei.pmu, &pi) != PFM_SUCCESS ||
	       pi.type == PFM_PMU_TYPE_OS_GENERIC;
}

int pmu_pfm_parse(const char *name, struct perf_event_attr *attr, char *why, size_t len)
{
	pfm_perf_encode_arg_t arg;
	int ret;

	if (!pfm_ready())
		return -ENOENT;
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	/* perf's --pfm-events asks for user and kernel alike: PLM0|PLM3 */
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	attr->size = sizeof(*attr);
	if (ret == PFM_ERR_NOTFOUND || (ret == PFM_SUCCESS && generic_pmu(arg.idx)))
		return -ENOENT;
	if (ret != PFM_SUCCESS) {
		snprintf(why, len, "libpfm4: %s", pfm_strerror(ret));
		return -EINVAL;
	}
	return 0;
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = tolower((unsigned char)*s);
}

/* @ev and each of its umasks as "event.umask", as perf list spells them. */
static void each_umask(const char *kind, int ev, pmu_list_fn fn, void *ctx)
{
	pfm_event_info_t ei = { .size = sizeof(ei) };
	pfm_event_attr_info_t ai;
	char buf[256];
	int a;

	if (pfm_get_event_info(ev, PFM_OS_NONE, &ei) != PFM_SUCCESS)
		return;
	snprintf(buf, sizeof(buf), "%s", ei.name);
	lower(buf);
	fn(kind, buf, ctx);
	for (a = 0; a < ei.nattrs; a++) {
		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm_get_event_attr_info(ev, a, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK)
			continue;
		snprintf(buf, sizeof(buf), "%s.%s", ei.name, ai.name);
		lower(buf);
		fn(kind, buf, ctx);
	}
}

void pmu_pfm_each(pmu_list_fn fn, void *ctx)
{
	pfm_pmu_info_t pi;
	char kind[96];
	int p, ev;

	if (!pfm_ready())
		return;
	for (p = PFM_PMU_NONE; p < PFM_PMU_MAX; p++) {
		memset(&pi, 0, sizeof(pi));
		pi.size = sizeof(pi);
		/* perf's own generic names are kernel/pmu_names.c's */
		if (pfm_get_pmu_info(p, &pi) != PFM_SUCCESS || !pi.is_present ||
		    pi.type == PFM_PMU_TYPE_OS_GENERIC)
			continue;
		snprintf(kind, sizeof(kind), "CPU event, libpfm4 %s", pi.name);
		for (ev = pi.first_event; ev != -1; ev = pfm_get_event_next(ev))
			each_umask(kind, ev, fn, ctx);
	}
}

#else /* !HAVE_LIBPFM: built without libpfm4 (libpfm4-dev) */

const bool pmu_pfm_linked;

int pmu_pfm_parse(const char *name, struct perf_event_attr *attr, char *why, size_t len)
{
	return -ENOENT;
}

void pmu_pfm_each(pmu_list_fn fn, void *ctx)
{
}

#endif
