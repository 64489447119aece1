// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup ids back to paths, over a directory tree standing in for the
 * cgroup2 mount: the walk finds a directory by its inode number, as
 * bpf_get_current_cgroup_id()'s ids are found on a real mount.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <time.h>
#include "tap.h"
#include "kernel/cgpath.h"
#include "scratch.h"

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static __u64 ino(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

int main(void)
{
	const char *root = scratch_dir(), *a = scratch("system.slice");
	const char *ab = scratch("system.slice/x.service"), *late = scratch("late");
	struct cgpath *c;
	__u64 id_ab, id_late;
	unsigned long long t0;
	const char *p;

	mkdir(a, 0755);
	mkdir(ab, 0755);
	id_ab = ino(ab);
	t0 = now_ns();
	c = cgpath_new(root);
	CHECK(c, "cgpath_new");
	if (!c)
		return check_done();
	p = cgpath_lookup(c, ino(root));
	CHECK(p && !strcmp(p, "/"), "the root is \"/\" (%s)", p ? p : "NULL");
	p = cgpath_lookup(c, id_ab);
	CHECK(p && !strcmp(p, "/system.slice/x.service"), "a nested cgroup (%s)", p ? p : "NULL");
	CHECK(!cgpath_lookup(c, 1), "an id no directory has: NULL");
	mkdir(late, 0755);
	id_late = ino(late);
	/*
	 * Within a second of the last walk (whichever lookup above walked,
	 * none before t0): not walked again. Only a lookup that a stalled
	 * host delays past that second may find it, and that is said
	 * rather than failed.
	 */
	p = cgpath_lookup(c, id_late);
	if (now_ns() - t0 < 1000000000ULL)
		CHECK(!p, "made within a second of a miss: not seen yet");
	else
		SKIP("the lookup came over a second after the miss (a stalled host)");
	sleep(1);
	p = cgpath_lookup(c, id_late);
	CHECK(p && !strcmp(p, "/late"), "a second later: found (%s)", p ? p : "NULL");
	/* After the new one: a file system (unlike cgroupfs) may reuse the number. */
	rmdir(ab);
	p = cgpath_lookup(c, id_ab);
	CHECK(p && !strcmp(p, "/system.slice/x.service"), "removed after it was named: kept");
	cgpath_free(c);
	return check_done();
}
