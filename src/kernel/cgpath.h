/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_CGPATH_H
#define __GUPSTAT_KERNEL_CGPATH_H

#include <linux/types.h>

/*
 * Cgroup v2 ids (bpf_get_current_cgroup_id()) back to their paths, as
 * /proc/PID/cgroup writes them: "/" for the root, "/system.slice/x" below
 * it. The kernel gives ids, never names; a name is found by walking the
 * cgroup2 mount for the directory whose inode number is the id.
 */
struct cgpath;

/* Over the cgroup2 mount at @root (NULL: /sys/fs/cgroup, or its "unified"). */
struct cgpath *cgpath_new(const char *root);
void cgpath_free(struct cgpath *c);
/*
 * The path of cgroup @id, or NULL where no directory has it (removed
 * before it was first named). A name once found is kept: a cgroup
 * removed later keeps it. An unknown id rescans at most once a second.
 */
const char *cgpath_lookup(struct cgpath *c, __u64 id);

#endif /* __GUPSTAT_KERNEL_CGPATH_H */
