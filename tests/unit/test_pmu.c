// SPDX-License-Identifier: GPL-2.0
/*
 * -e strings to the perf_event_attr perf builds for them. The expected
 * values are perf 6.1's, printed once by
 *	perf stat -vv -e EVENT true
 * (the attr is printed even where the kernel refuses to open it); the
 * PMU cases ran it in a private mount namespace with a tmpfs over
 * /sys/bus/event_source/devices holding the same fake PMUs as below.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "scratch.h"
#include "kernel/pmu.h"
#include "kernel/pmu_pfm.h"
#include "kernel/pmu_sysfs.h"

#define EU	1	/* exclude_user */
#define EK	2	/* exclude_kernel */
#define EH	4	/* exclude_hv */
#define EG	8	/* exclude_guest */
#define EHOST	16	/* exclude_host */

static unsigned int excludes(const struct perf_event_attr *a)
{
	return a->exclude_user * EU | a->exclude_kernel * EK | a->exclude_hv * EH |
	       a->exclude_guest * EG | a->exclude_host * EHOST;
}

static void expect(const char *name, __u32 type, __u64 config, unsigned int ex)
{
	struct perf_event_attr a;
	int err = pmu_parse_event(name, &a);

	CHECK(!err && a.type == type && a.config == config && excludes(&a) == ex &&
	      a.size == sizeof(a), "%s: type %u config %#llx excludes %#x", name, a.type,
	      (unsigned long long)a.config, excludes(&a));
}

/* @want: the error, or 1 for any */
static void refused(const char *name, int want)
{
	struct perf_event_attr a;
	int err = pmu_parse_event(name, &a);

	CHECK(want == 1 ? err != 0 : err == want, "%s: %d", name, err);
}

static void put(const char *dir, const char *file, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		scratch_bail("write", path);
}

/* The host's msr PMU, copied, and an Intel-like cpu PMU. */
static void fake_sysfs(void)
{
	const char *root = scratch("sys");
	static const char *const dirs[] = { "", "/msr", "/msr/format", "/msr/events",
					    "/cpu", "/cpu/format", "/cpu/events" };
	char d[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(d, sizeof(d), "%s%s", root, dirs[i]);
		if (mkdir(d, 0700))
			scratch_bail("mkdir", d);
	}
	snprintf(d, sizeof(d), "%s/msr", root);
	put(d, "type", "9\n");
	put(d, "format/event", "config:0-63\n");
	put(d, "events/tsc", "event=0x00\n");
	snprintf(d, sizeof(d), "%s/cpu", root);
	put(d, "type", "4\n");
	put(d, "format/event", "config:0-7\n");
	put(d, "format/umask", "config:8-15\n");
	put(d, "format/edge", "config:18\n");
	put(d, "format/inv", "config:23\n");
	put(d, "format/cmask", "config:24-31\n");
	put(d, "events/cpu-cycles", "event=0x3c\n");
	put(d, "events/instructions", "event=0xc0\n");
	put(d, "events/mem-loads", "event=0xd0,umask=0x81\n");
	pmu_sysfs_set_root(root);
}

static void generic(void)
{
	expect("cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, EG);
	expect("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, EG);
	expect("idle-cycles-backend", PERF_TYPE_HARDWARE, 8, EG);
	expect("cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, EG);
	expect("alignment-faults", PERF_TYPE_SOFTWARE, 7, EG);
	expect("emulation-faults", PERF_TYPE_SOFTWARE, 8, EG);
	expect("LLC-prefetches", PERF_TYPE_HW_CACHE, 0x202, EG);
	expect("L1-dcache-prefetch-misses", PERF_TYPE_HW_CACHE, 0x10200, EG);
	expect("LLC-load-misses", PERF_TYPE_HW_CACHE, 0x10002, EG);
	expect("L1-dcache-loads", PERF_TYPE_HW_CACHE, 0, EG);
	expect("dTLB-store-misses", PERF_TYPE_HW_CACHE, 0x10103, EG);
	expect("l1d-miss-speculative-read", PERF_TYPE_HW_CACHE, 0x10200, EG);
	expect("L2", PERF_TYPE_HW_CACHE, 2, EG);
	expect("branch-loads", PERF_TYPE_HW_CACHE, 5, EG);
	refused("LLC-prefetchs", -ENOENT);	/* the old table's misspelling */
	refused("L1-icache-stores", -ENOENT);	/* perf: no stores to L1-icache */
	refused("branch-misses-load", -ENOENT);
	refused("llc-loads", -ENOENT);		/* perf's lexer: case matters */
	refused("LLC-load-hits", -ENOENT);
	refused("dummy", -EINVAL);		/* counts nothing */
	refused("bpf-output", -EINVAL);
	refused("no-such-event", -ENOENT);
}

static void raw_and_modifiers(void)
{
	expect("r003c", PERF_TYPE_RAW, 0x3c, EG);
	expect("r01c4", PERF_TYPE_RAW, 0x1c4, EG);
	expect("cycles:k", PERF_TYPE_HARDWARE, 0, EU | EH);
	expect("cycles:u", PERF_TYPE_HARDWARE, 0, EK | EH | EG);
	expect("cycles:h", PERF_TYPE_HARDWARE, 0, EU | EK);
	expect("instructions:uk", PERF_TYPE_HARDWARE, 1, EH | EG);
	expect("cycles:G", PERF_TYPE_HARDWARE, 0, EHOST);
	expect("cycles:H", PERF_TYPE_HARDWARE, 0, EG);
	expect("r003c:k", PERF_TYPE_RAW, 0x3c, EU | EH);
	refused("cycles:kk", -EINVAL);
	expect("cycles:ppp", PERF_TYPE_HARDWARE, 0, EG);
	refused("cycles:pppp", -EINVAL);
	refused("cycles:", 1);
	refused("r12zz", -ENOENT);
	refused("r", -ENOENT);
	refused("r-1", -ENOENT);
	refused("r0x10", -ENOENT);
	refused("r99999999999999999999", -EINVAL);
}

static void sysfs(void)
{
	struct perf_event_attr a;

	fake_sysfs();
	expect("msr/tsc/", 9, 0, EG);
	expect("msr/config=0x2/", 9, 2, EG);
	expect("msr/event=0x1/k", 9, 1, EU | EH);
	expect("cpu/event=0x3c,umask=0x0/", 4, 0x3c, EG);
	expect("cpu/event=0xd1,umask=0x20,edge/", 4, 0x420d1, EG);
	expect("cpu/instructions/u", 4, 0xc0, EK | EH | EG);
	expect("cpu/mem-loads/", 4, 0x81d0, EG);
	expect("cpu/event=0x3c,cmask=2,inv/k", 4, 0x280003c, EU | EH);
	expect("cpu/config=0x1234,umask=0x5/", 4, 0x1734, EG);
	/*
	 * perf 6.1 takes cpu/cpu-cycles/ so; it refuses cpu/cycles/ where
	 * the PMU has no events/cycles, which -e reads as events/cpu-cycles.
	 */
	expect("cpu/cycles/", 4, 0x3c, EG);
	expect("cpu/cpu-cycles/:k", 4, 0x3c, EU | EH);
	refused("cpu/umask=0x100/", -EINVAL);	/* wider than config:8-15 */
	refused("cpu/nosuch/", -EINVAL);
	refused("cpu/event=zz/", -EINVAL);
	refused("nopmu/event=1/", -EINVAL);
	refused("cpu/event=1", -ENOENT);
	refused("cpu/../../msr/events/tsc/", -ENOENT);	/* no path out of the PMU */
	CHECK(pmu_parse_event_why("cpu/nosuch/", &a, (char [80]){}, 80) == -EINVAL,
	      "why given");
}

/*
 * libpfm4 reads LIBPFM_FORCE_PMU once, at its first use: each CPU in a
 * child of its own. The values are perf's JSON events for the model
 * (skylake: mem_load_retired.l3_miss is EventCode 0xd1, UMask 0x20;
 * zen3: ls_any_fills_from_sys.mem_io_local 0x44, 0x08), which perf
 * --pfm-events builds with libpfm4 as -e does.
 */
static void pfm_case(const char *pmu, const char *name, __u64 config)
{
	struct perf_event_attr a;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (!pid) {
		setenv("LIBPFM_FORCE_PMU", pmu, 1);
		_exit(pmu_parse_event(name, &a) || a.type != PERF_TYPE_RAW ||
		      a.config != config ? 1 : pmu_parse_event("no_such.event", &a) ? 0 : 2);
	}
	CHECK(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	      !WEXITSTATUS(status), "libpfm4 %s: %s is raw %#llx", pmu, name,
	      (unsigned long long)config);
}

int main(void)
{
	/* first: a child would inherit the parent's libpfm4, once started */
	if (pmu_pfm_linked) {
		pfm_case("skl", "mem_load_retired.l3_miss", 0x20d1);
		pfm_case("skl", "MEM_LOAD_RETIRED:L3_MISS", 0x20d1);
		pfm_case("amd64_fam19h_zen3", "any_data_cache_fills_from_system.mem_io_lcl",
			 0x844);
	} else {
		SKIP("built without libpfm4: install libpfm4-dev (make deps)");
	}
	generic();
	raw_and_modifiers();
	sysfs();
	return check_done();
}
