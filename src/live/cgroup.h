/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_CGROUP_H
#define __GUPSTAT_LIVE_CGROUP_H

#include <linux/types.h>

int cgroup_id_of(const char *path, __u64 *id);

#endif /* __GUPSTAT_LIVE_CGROUP_H */
