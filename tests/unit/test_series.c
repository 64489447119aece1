// SPDX-License-Identifier: GPL-2.0
/*
 * -P's and --per-cgroup's bounded, ageing table against real LRU hash
 * maps (creating a map needs root, not the tracing this host refuses):
 * a full table refuses and counts once, idle rows make room, a row
 * holding pins stays, an evicted kernel row's counts are kept, and a
 * cgroup made again under its name goes on in one series.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include "tap.h"
#include "serve/series.h"
#include "kernel/cgpath.h"

static int cg_map(void)
{
	return bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "t_cg", sizeof(__u64),
			      sizeof(struct cgroup_stats), 64, NULL);
}

static void cg_put(int fd, __u64 id, __u64 walks, __u64 pins, __u64 unpins)
{
	struct cgroup_stats v = { .t = { .walk_calls = walks, .pin_pages = pins,
					 .unpin_pages = unpins } };

	bpf_map_update_elem(fd, &id, &v, BPF_ANY);
}

static __u64 cg_flags(int fd, __u64 id)
{
	struct cgroup_stats v;

	return bpf_map_lookup_elem(fd, &id, &v) ? ~0ULL : v.user_flags;
}

static const struct serie *row(const struct series *s, __u64 key)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		if (s->rows[i].key == key)
			return &s->rows[i];
	return NULL;
}

static void check_bound_and_age(int fd)
{
	struct series s;
	struct tally t;

	series_init(&s, SERIES_CGROUP, 2, 60, cgpath_new("/nonexistent"));
	cg_put(fd, 1, 5, 0, 0);
	cg_put(fd, 2, 5, 512, 0);
	CHECK(!series_update(&s, fd, 100) && s.nr == 2, "two rows");
	CHECK(s.unnamed == 2, "cgroups no directory has: both unnamed");
	cg_put(fd, 3, 5, 0, 0);
	series_update(&s, fd, 100);
	CHECK(s.nr == 2 && s.dropped == 1 && !row(&s, 3), "a third, the table full: refused");
	series_update(&s, fd, 110);
	CHECK(s.dropped == 1, "a refused key is counted once");
	CHECK(cg_flags(fd, 3) == TALLY_REFUSED, "the refused row is marked in the kernel's map");
	cg_put(fd, 1, 6, 0, 0);
	series_update(&s, fd, 120);
	series_update(&s, fd, 179);
	CHECK(row(&s, 1) && row(&s, 2), "59 s idle: kept");
	series_update(&s, fd, 181);
	CHECK(!row(&s, 1) && cg_flags(fd, 1) == ~0ULL,
	      "60 s idle: removed, here and in the kernel's map");
	CHECK(row(&s, 2), "idle but holding 512 pins: kept");
	CHECK(row(&s, 3) && s.dropped == 1, "the refused key takes the room, not counted again");
	cg_put(fd, 2, 2, 512, 0);	/* evicted and made again: fewer calls */
	series_update(&s, fd, 190);
	serie_total(row(&s, 2), &t);
	CHECK(t.walk_calls == 7 && t.pin_pages == 1024, "an evicted row's counts are kept (%llu)",
	      (unsigned long long)t.walk_calls);
	cg_put(fd, 2, 2, 512, 1024);
	series_update(&s, fd, 200);
	series_update(&s, fd, 260);
	CHECK(!row(&s, 2), "pins given back, 60 s idle: removed");
	cgpath_free(s.names);
	series_free(&s);
}

/* tmpfs numbers inodes afresh: a directory made again has a new id. */
static void check_inherit(int fd)
{
	char root[] = "/dev/shm/cgseries.XXXXXX", svc[64];
	struct series s;
	struct stat st;
	__u64 a, b;
	struct tally t;

	if (!mkdtemp(root)) {
		SKIP("no /dev/shm");
		return;
	}
	snprintf(svc, sizeof(svc), "%s/svc", root);
	mkdir(svc, 0755);
	stat(svc, &st);
	a = st.st_ino;
	series_init(&s, SERIES_CGROUP, 4, 600, cgpath_new(root));
	cg_put(fd, a, 10, 0, 0);
	series_update(&s, fd, 0);
	CHECK(row(&s, a) && row(&s, a)->path && !strcmp(row(&s, a)->path, "/svc"),
	      "named by its path");
	rmdir(svc);
	mkdir(svc, 0755);
	stat(svc, &st);
	b = st.st_ino;
	sleep(1);	/* past the walk's once-a-second bound */
	cg_put(fd, b, 3, 0, 0);
	series_update(&s, fd, 5);
	serie_total(row(&s, b), &t);
	CHECK(a != b && !row(&s, a) && t.walk_calls == 13,
	      "made again under its name: one series, going on (%llu)",
	      (unsigned long long)t.walk_calls);
	rmdir(svc);
	rmdir(root);
	cgpath_free(s.names);
	series_free(&s);
}

static void check_procs(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_LRU_HASH, "t_procs", sizeof(__u32),
				sizeof(struct proc_stats), 64, NULL);
	struct proc_stats v = { .comm = "worker", .t.walk_pages = 9 };
	struct series s;
	__u32 pid = 4242;

	bpf_map_update_elem(fd, &pid, &v, BPF_ANY);
	series_init(&s, SERIES_PROC, 1, 60, NULL);
	series_update(&s, fd, 0);
	CHECK(s.nr == 1 && s.rows[0].key == 4242 && !strcmp(s.rows[0].comm, "worker") &&
	      s.rows[0].last.walk_pages == 9, "-P: a process's row, 32-bit key and comm");
	series_free(&s);
	close(fd);
}

int main(void)
{
	int fd = cg_map();

	if (fd < 0) {
		SKIP("cannot create a BPF map (%s): run as root", strerror(errno));
		return check_done();
	}
	check_bound_and_age(fd);
	close(fd);
	fd = cg_map();
	check_inherit(fd);
	close(fd);
	check_procs();
	return check_done();
}
