// SPDX-License-Identifier: GPL-2.0
/*
 * -c PATH: the cgroup v2 id bpf_get_current_cgroup_id() returns is the
 * kernfs file handle of the cgroup's directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include "cgroup.h"

int cgroup_id_of(const char *path, __u64 *id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0) {
		fprintf(stderr, "gupstat: -c %s: %s (want a cgroup v2 directory)\n",
			path, strerror(errno));
		return -errno;
	}
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}
