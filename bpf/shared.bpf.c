// SPDX-License-Identifier: GPL-2.0
/* The maps and settings the objects share (shared.bpf.h), defined here. */
#define GUPSTAT_SHARED_DEFINE
#include "shared.bpf.h"

char LICENSE[] SEC("license") = "GPL";
