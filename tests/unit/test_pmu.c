// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include "tap.h"
#include "kernel/pmu.h"

static void expect(const char *name, __u32 type, __u64 config)
{
	struct perf_event_attr a;
	int err = pmu_parse_event(name, &a);

	CHECK(!err && a.type == type && a.config == config && a.size == sizeof(a),
	      "%s: type %u config %#llx", name, a.type, (unsigned long long)a.config);
}

int main(void)
{
	struct perf_event_attr a;

	expect("cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES);
	expect("cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	expect("cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK);
	expect("LLC-load-misses", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_LL |
	       PERF_COUNT_HW_CACHE_OP_READ << 8 | PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	expect("L1-dcache-loads", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_L1D |
	       PERF_COUNT_HW_CACHE_OP_READ << 8 | PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
	expect("dTLB-store-misses", PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_DTLB |
	       PERF_COUNT_HW_CACHE_OP_WRITE << 8 | PERF_COUNT_HW_CACHE_RESULT_MISS << 16);
	expect("r01c4", PERF_TYPE_RAW, 0x1c4);
	CHECK(pmu_parse_event("no-such-event", &a) == -ENOENT, "unknown name");
	CHECK(pmu_parse_event("LLC-load-hits", &a) == -ENOENT, "unknown cache result");
	CHECK(pmu_parse_event("r12zz", &a) == -ENOENT, "raw with junk");
	CHECK(pmu_parse_event("r", &a) == -ENOENT, "raw without a number");
	CHECK(pmu_parse_event("r-1", &a) == -ENOENT, "raw with a sign");
	CHECK(pmu_parse_event("r0x10", &a) == -ENOENT, "raw with 0x");
	CHECK(pmu_parse_event("r99999999999999999999", &a) == -ERANGE, "raw over 64 bits");
	return check_done();
}
