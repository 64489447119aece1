// SPDX-License-Identifier: GPL-2.0
/* The per-CPU perf events the pin and unpin probes read (pmu.bpf.h). */
#define GUPSTAT_DEFINE_PMU
#include "pmu.bpf.h"

const volatile bool pmu_on = false;

char LICENSE[] SEC("license") = "GPL";
