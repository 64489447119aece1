// SPDX-License-Identifier: GPL-2.0
/*
 * Cgroup ids to paths. A cgroup v2 id is the kernfs node id, the inode
 * number of its directory on 64-bit kernels (kernel/cgroup.c), and ids
 * are never reused while the system runs, so a name found once is good
 * for as long as gupstat runs. A miss walks the whole mount (nftw): a
 * host with thousands of cgroups pays that once per second at most.
 */
#include <errno.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include "kernel/cgpath.h"

struct cg_entry {
	__u64 id;
	char *path;
};

struct cgpath {
	char *root;
	size_t rootlen;
	struct cg_entry *slots;		/* open addressing, id 0 = empty */
	size_t cap, nr;
	struct timespec last_scan;
};

static bool is_cgroup2(const char *dir)
{
	struct statfs fs;

	return !statfs(dir, &fs) && fs.f_type == CGROUP2_SUPER_MAGIC;
}

struct cgpath *cgpath_new(const char *root)
{
	struct cgpath *c = calloc(1, sizeof(*c));

	if (!root)
		root = is_cgroup2("/sys/fs/cgroup") || !is_cgroup2("/sys/fs/cgroup/unified") ?
		       "/sys/fs/cgroup" : "/sys/fs/cgroup/unified";
	if (c) {
		c->root = strdup(root);
		c->cap = 256;
		c->slots = calloc(c->cap, sizeof(*c->slots));
	}
	if (!c || !c->root || !c->slots) {
		cgpath_free(c);
		return NULL;
	}
	c->rootlen = strlen(c->root);
	return c;
}

void cgpath_free(struct cgpath *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; c->slots && i < c->cap; i++)
		free(c->slots[i].path);
	free(c->slots);
	free(c->root);
	free(c);
}

static struct cg_entry *slot_of(struct cg_entry *slots, size_t cap, __u64 id)
{
	size_t i = (id * 0x9E3779B97F4A7C15ULL) & (cap - 1);

	while (slots[i].id && slots[i].id != id)
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct cgpath *c)
{
	size_t i, cap = c->cap * 2;
	struct cg_entry *n = calloc(cap, sizeof(*n));

	if (!n)
		return -ENOMEM;
	for (i = 0; i < c->cap; i++)
		if (c->slots[i].id)
			*slot_of(n, cap, c->slots[i].id) = c->slots[i];
	free(c->slots);
	c->slots = n;
	c->cap = cap;
	return 0;
}

/* Keep @id's first name: a directory renamed since is still the cgroup seen then. */
static int add(struct cgpath *c, __u64 id, const char *rel)
{
	struct cg_entry *e;

	if ((c->nr + 1) * 4 > c->cap * 3 && grow(c))
		return -ENOMEM;
	e = slot_of(c->slots, c->cap, id);
	if (e->id)
		return 0;
	e->path = strdup(*rel ? rel : "/");
	if (!e->path)
		return -ENOMEM;
	e->id = id;
	c->nr++;
	return 0;
}

/* nftw() has no argument for its callback: one scan at a time. */
static struct cgpath *scanning;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_D)
		return 0;
	return add(scanning, st->st_ino, path + scanning->rootlen) ? FTW_STOP : 0;
}

/*
 * A full second since the last scan, to the nanosecond: comparing whole
 * seconds let a lookup a microsecond after a scan rescan when the two
 * straddled a second's boundary.
 */
static bool scanned_lately(struct cgpath *c)
{
	struct timespec now;
	long long ns;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ns = (now.tv_sec - c->last_scan.tv_sec) * 1000000000LL +
	     (now.tv_nsec - c->last_scan.tv_nsec);
	if ((c->last_scan.tv_sec || c->last_scan.tv_nsec) && ns < 1000000000LL)
		return true;
	c->last_scan = now;
	return false;
}

const char *cgpath_lookup(struct cgpath *c, __u64 id)
{
	struct cg_entry *e;

	if (!id)
		return NULL;
	e = slot_of(c->slots, c->cap, id);
	if (e->id || scanned_lately(c))
		return e->path;
	scanning = c;
	/* FTW_MOUNT: a cgroup1 hierarchy mounted below is not this one's. */
	nftw(c->root, visit, 32, FTW_PHYS | FTW_MOUNT | FTW_ACTIONRETVAL);
	scanning = NULL;
	return slot_of(c->slots, c->cap, id)->path;
}
