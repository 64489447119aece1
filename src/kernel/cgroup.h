/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_CGROUP_H
#define __GUPSTAT_KERNEL_CGROUP_H

#include <linux/types.h>

/* -c PATH: its directory, open, and its id (@id); or -errno, said. */
int cgroup_open(const char *path, __u64 *id);
struct cgpath;
/* --per-cgroup: names for the ids, over the cgroup v2 mount; 0 or -errno, said. */
int cgroup_names_open(struct cgpath **names);

#endif /* __GUPSTAT_KERNEL_CGROUP_H */
