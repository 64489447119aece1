// SPDX-License-Identifier: GPL-2.0
/*
 * walk-devmap: the walk over ZONE_DEVICE pages, mapped from a file on a
 * filesystem mounted -o dax (fsdax over pmem):
 *
 *   walk-devmap DIR
 *
 * A file of FILE_PAGES pages in DIR, mapped shared at an address that is
 * not 2 MB aligned against its file offset, so that every page is one
 * PTE, never a PMD. On 6.x before devmap's removal that is a devmap PTE
 * (pte_devmap(), a dev_pagemap reference per page, which GUP took on
 * its own path); on 7.x, the kernels under test, fsdax pages are
 * ordinary refcounted folios, which the walk looks up and grabs like any
 * file page, so the same checks hold the walk to what it does for page
 * cache. Shown reached: each page's pfn lies in a "Persistent Memory"
 * range of /proc/iomem. Then:
 *  - lookups of 1, 17, 513 and all pages at several offsets through
 *    get_user_pages() and pin_user_pages() (GUP_BASIC_TEST and
 *    PIN_BASIC_TEST), their byte counts and the node's pin counters;
 *  - the same ranges through process_vm_readv(), compared with what is
 *    mapped, and written back through process_vm_writev();
 *  - a long-term pin, which fsdax refuses (EOPNOTSUPP): the errno.
 * Exit 0, 1 on a failure, 2 on bad usage, 77 with a "SKIP:" line where
 * DIR is not on a DAX filesystem.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include "gup_test_abi.h"
#include "edge.h"
#include "kernel/pagemap.h"

#define FILE_PAGES	1024

/* Is @pfn in a "Persistent Memory" range of /proc/iomem (root sees them)? */
static int pfn_in_pmem(uint64_t pfn)
{
	char line[256];
	uint64_t lo, hi, addr = pfn * PAGE;
	int found = 0;
	FILE *f = fopen("/proc/iomem", "re");

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "Persistent Memory") &&
		    sscanf(line, " %" SCNx64 "-%" SCNx64, &lo, &hi) == 2 &&
		    addr >= lo && addr <= hi)
			found = 1;
	if (f)
		fclose(f);
	return found;
}

/* FILE_PAGES pages of a new file in @dir, mapped one PTE per page. */
static char *map_file(const char *dir)
{
	char path[4096];
	char *win, *p;
	int fd;

	snprintf(path, sizeof(path), "%s/walk-devmap.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd < 0 || unlink(path) ||
	    posix_fallocate(fd, 0, FILE_PAGES * PAGE)) {
		perror("walk-devmap: the file");
		exit(1);
	}
	/* A page past a 2 MB boundary: no 2 MB of the file lines up. */
	win = map_aligned(FILE_PAGES * PAGE + PMD_SIZE, PMD_SIZE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
	p = mmap(win + PAGE, FILE_PAGES * PAGE, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		perror("walk-devmap: mmap");
		exit(1);
	}
	close(fd);
	return p;
}

/* get_user_pages() or pin_user_pages() of @nr pages: all of them. */
static void basic(const char *what, unsigned long cmd, char *p,
		  unsigned long nr)
{
	struct gup_test g = {
		.addr = (uintptr_t)p, .size = nr * PAGE, .nr_pages_per_call = nr,
	};
	long long acq = pins("nr_foll_pin_acquired");
	long long rel = pins("nr_foll_pin_released");
	int pin = cmd == PIN_BASIC_TEST;

	if (ioctl(gup_fd, cmd, &g) || g.size != nr * PAGE)
		fail("%s: %s: %s, %llu of %lu bytes", what,
		     pin ? "PIN_BASIC_TEST" : "GUP_BASIC_TEST", strerror(errno),
		     (unsigned long long)g.size, nr * PAGE);
	acq = pins("nr_foll_pin_acquired") - acq;
	rel = pins("nr_foll_pin_released") - rel;
	if (acq != rel || acq != (pin ? (long long)nr : 0))
		fail("%s: pins taken %lld, dropped %lld, expected %lu", what,
		     acq, rel, pin ? nr : 0);
	digest_add(g.size);
}

static const unsigned long lens[] = { 1, 17, 513, FILE_PAGES };
static const unsigned long offs[] = { 0, 1, 255, 511, 512 };

int main(int argc, char **argv)
{
	struct pin_longterm_test t = { .size = PAGE };
	unsigned long i, l, o, nr, out = 0;
	char what[96], *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 2) {
		fprintf(stderr, "usage: walk-devmap DIR\n");
		return 2;
	}
	edge_open_gup_test();
	p = map_file(argv[1]);
	tag_pages(p, 0, FILE_PAGES, 0);
	for (i = 0; i < FILE_PAGES; i++)
		out += !pfn_in_pmem(pagemap_pfn(p + i * PAGE));
	if (out == FILE_PAGES)
		skip("the file's pages are not pmem: is DIR on a filesystem mounted -o dax?");
	if (out)
		fail("devmap: %lu of %d pages outside pmem", out, FILE_PAGES);
	else
		printf("reached: %d pages of a file mapped from pmem (/proc/iomem), pfn %#llx first, not 2 MB aligned\n",
		       FILE_PAGES, (unsigned long long)pagemap_pfn(p));

	for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
			nr = lens[l];
			if (offs[o] + nr > FILE_PAGES)
				continue;
			snprintf(what, sizeof(what), "devmap: %lu pages at +%lu",
				 nr, offs[o]);
			basic(what, GUP_BASIC_TEST, p + offs[o] * PAGE, nr);
			basic(what, PIN_BASIC_TEST, p + offs[o] * PAGE, nr);
			vm_rw_check(what, p + offs[o] * PAGE, nr, 1);
		}
	}
	t.addr = (uintptr_t)p;
	errno = 0;
	if (!ioctl(gup_fd, PIN_LONGTERM_TEST_START, &t)) {
		ioctl(gup_fd, PIN_LONGTERM_TEST_STOP);
		fail("devmap: a long-term pin of a fsdax page succeeded");
	} else {
		printf("reached: a long-term pin refused: %s\n", strerror(errno));
	}
	digest_add(errno);
	printf("digest: devmap %016llx\n", (unsigned long long)digest);
	munmap(p, FILE_PAGES * PAGE);
	return failures != 0;
}
