// SPDX-License-Identifier: GPL-2.0
/*
 * -c PATH: the id bpf_get_current_cgroup_id() returns for a cgroup v2
 * directory is its kernfs node id, which is the directory's inode number
 * on 64-bit kernels. stat() reads it without name_to_handle_at(), which
 * kernels built without CONFIG_FHANDLE lack.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "kernel/cgpath.h"
#include "kernel/cgroup.h"
#include "util/msg.h"

int cgroup_id_of(const char *path, __u64 *id)
{
	struct statfs fs;
	struct stat st;

	if (stat(path, &st) || statfs(path, &fs)) {
		p_err("-c %s: %s\n", path, strerror(errno));
		return -errno;
	}
	if (fs.f_type != CGROUP2_SUPER_MAGIC || !S_ISDIR(st.st_mode)) {
		p_err("-c %s: not a cgroup v2 directory\n", path);
		return -EINVAL;
	}
	*id = st.st_ino;
	return 0;
}

/* Without a cgroup v2 mount every task would be in one unnamed row. */
int cgroup_names_open(struct cgpath **names)
{
	struct statfs fs;

	if ((statfs("/sys/fs/cgroup", &fs) || fs.f_type != CGROUP2_SUPER_MAGIC) &&
	    (statfs("/sys/fs/cgroup/unified", &fs) || fs.f_type != CGROUP2_SUPER_MAGIC)) {
		p_err("--per-cgroup: no cgroup v2 mounted at /sys/fs/cgroup "
		      "(mount -t cgroup2 none /sys/fs/cgroup)\n");
		return -ENOENT;
	}
	*names = cgpath_new(NULL);
	if (!*names) {
		p_err("out of memory\n");
		return -ENOMEM;
	}
	return 0;
}
