// SPDX-License-Identifier: GPL-2.0
/*
 * -c PATH: the id bpf_get_current_cgroup_id() returns for a cgroup v2
 * directory is its kernfs node id, which is the directory's inode number
 * on 64-bit kernels. fstat() reads it without name_to_handle_at(), which
 * kernels built without CONFIG_FHANDLE lack. The directory is opened for
 * the programs' cgroup array, after a stat() that keeps a FIFO or a
 * device from being opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "kernel/cgpath.h"
#include "kernel/cgroup.h"
#include "util/msg.h"

static int failed(const char *path)
{
	int err = -errno;

	p_err("-c %s: %s\n", path, strerror(-err));
	return err;
}

static int not_cgroup(const char *path)
{
	p_err("-c %s: not a cgroup v2 directory\n", path);
	return -EINVAL;
}

int cgroup_open(const char *path, __u64 *id)
{
	struct statfs fs;
	struct stat st;
	int fd;

	if (stat(path, &st))
		return failed(path);
	if (!S_ISDIR(st.st_mode))
		return not_cgroup(path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return failed(path);
	if (fstat(fd, &st) || fstatfs(fd, &fs) || fs.f_type != CGROUP2_SUPER_MAGIC) {
		close(fd);
		return not_cgroup(path);
	}
	*id = st.st_ino;
	return fd;
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
