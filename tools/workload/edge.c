// SPDX-License-Identifier: GPL-2.0
/*
 * The checks the walk's edge-case programs share: see edge.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include "gup_test_abi.h"
#include "edge.h"
#include "kernel/pagemap.h"

int failures;
int gup_fd = -1;
uint64_t digest = 1469598103934665603ULL;	/* FNV-1a */

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("FAIL: ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	failures++;
}

void __attribute__((noreturn)) skip(const char *why)
{
	printf("SKIP: %s\n", why);
	exit(SKIP_EXIT);
}

void digest_add(uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		digest ^= (v >> (8 * i)) & 0xff;
		digest *= 1099511628211ULL;
	}
}

void *map_aligned(size_t len, size_t align, int prot, int flags)
{
	char *p = mmap(NULL, len + align, prot, flags, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED) {
		perror("walk-edge: mmap");
		exit(1);
	}
	a = ((uintptr_t)p + align - 1) & ~(align - 1);
	if (a > (uintptr_t)p)
		munmap(p, a - (uintptr_t)p);
	munmap((char *)a + len, (uintptr_t)p + align - a);
	return (void *)a;
}

void tag_pages(char *p, unsigned long first, unsigned long nr,
	       unsigned int gen)
{
	unsigned long i;

	for (i = 0; i < nr; i++)
		*(uint64_t *)(p + i * PAGE) = TAG_MAGIC << 32 |
					       (uint64_t)gen << 24 | (first + i);
}

/*
 * The node's pin counters, exact: /proc/vmstat shows node counters without
 * the per-CPU deltas not yet folded in, and stat_refresh folds them.
 */
long long pins(const char *name)
{
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		if (write(fd, "1", 1) != 1)
			perror("walk-edge: stat_refresh");
		close(fd);
	}
	return pagemap_vmstat(name);
}

long long pin_rounds;
long long expect_rounds = 1;

/*
 * A long-term pin of @nr pages at @p through the GUP_TEST ioctl, its copy
 * of the pinned pages (into @buf, @nr pages) compared page by page with
 * what the process sees. 0 if every page matched, 1 if one did not, -1
 * if the pin failed; each failure is reported.
 */
int pin_compare(const char *what, char *p, unsigned long nr, int write,
		char *buf)
{
	struct pin_longterm_test t = {
		.addr = (uintptr_t)p, .size = nr * PAGE,
		.flags = write ? PIN_LONGTERM_TEST_FLAG_USE_WRITE : 0,
	};
	__u64 dst = (uintptr_t)buf;
	unsigned long i;

	if (ioctl(gup_fd, PIN_LONGTERM_TEST_START, &t)) {
		fail("%s: PIN_LONGTERM_TEST_START of %lu pages: %s", what, nr,
		     strerror(errno));
		return -1;
	}
	if (ioctl(gup_fd, PIN_LONGTERM_TEST_READ, &dst))
		fail("%s: PIN_LONGTERM_TEST_READ: %s", what, strerror(errno));
	ioctl(gup_fd, PIN_LONGTERM_TEST_STOP);
	for (i = 0; i < nr; i++) {
		if (memcmp(buf + i * PAGE, p + i * PAGE, PAGE)) {
			fail("%s: pinned page %lu of %lu is not the page mapped there (word 0 %#llx, mapped %#llx)",
			     what, i, nr, *(unsigned long long *)(buf + i * PAGE),
			     *(unsigned long long *)(p + i * PAGE));
			return 1;
		}
	}
	return 0;
}

/*
 * pin_compare(), and the node's pin counters balanced after: pages[]
 * entry by entry, and as many pins dropped as taken, at least one per
 * page (a walk that migrated first took and dropped one more).
 */
void pin_check(const char *what, char *p, unsigned long nr, int write)
{
	long long acq = pins("nr_foll_pin_acquired");
	long long rel = pins("nr_foll_pin_released");
	char *buf = malloc(nr * PAGE);

	if (!buf) {
		fail("%s: no memory for a copy of %lu pages", what, nr);
		return;
	}
	if (pin_compare(what, p, nr, write, buf) < 0) {
		free(buf);
		return;
	}
	acq = pins("nr_foll_pin_acquired") - acq;
	rel = pins("nr_foll_pin_released") - rel;
	pin_rounds = acq / (long long)nr;
	if (acq != rel || acq % nr || !pin_rounds ||
	    (expect_rounds && pin_rounds != expect_rounds))
		fail("%s: %lu pages pinned: pins taken %lld, dropped %lld, expected %lld each",
		     what, nr, acq, rel, expect_rounds * nr);
	free(buf);
}

/*
 * The same range through process_vm_readv() (pin_user_pages_remote()),
 * compared with what is mapped; with @write, written back through
 * process_vm_writev(), whose byte count (it stops at a read-only VMA)
 * goes into the digest.
 */
void vm_rw_check(const char *what, char *p, unsigned long nr, int write)
{
	char *buf = malloc(nr * PAGE);
	struct iovec local = { buf, nr * PAGE }, remote = { p, nr * PAGE };
	ssize_t n;

	if (!buf)
		exit(1);
	n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
	digest_add(n);
	if (n != (ssize_t)(nr * PAGE))
		fail("%s: process_vm_readv: %zd of %lu bytes", what, n, nr * PAGE);
	else if (memcmp(buf, p, nr * PAGE))
		fail("%s: process_vm_readv read other pages than those mapped", what);
	if (write)
		digest_add(process_vm_writev(getpid(), &local, 1, &remote, 1, 0));
	free(buf);
}

const char *const lookup_name[] = {
	[PIN_READ] = "pin_user_pages(FOLL_LONGTERM)",
	[PIN_WRITE] = "pin_user_pages(FOLL_LONGTERM | FOLL_WRITE)",
	[GUP_READ] = "get_user_pages()",
	[GUP_WRITE] = "get_user_pages(FOLL_WRITE)",
	[VM_READV] = "process_vm_readv()",
	[VM_WRITEV] = "process_vm_writev()",
};

void lookup(const char *what, enum lookup by, char *p, unsigned long nr)
{
	struct gup_test g = {
		.addr = (uintptr_t)p, .size = nr * PAGE, .nr_pages_per_call = nr,
		.gup_flags = by == GUP_WRITE ? GUP_TEST_FOLL_WRITE : 0,
	};

	switch (by) {
	case PIN_READ:
	case PIN_WRITE:
		pin_check(what, p, nr, by == PIN_WRITE);
		break;
	case GUP_READ:
	case GUP_WRITE:
		if (ioctl(gup_fd, GUP_BASIC_TEST, &g) || g.size != nr * PAGE)
			fail("%s: GUP_BASIC_TEST: %s, %llu of %lu bytes", what,
			     strerror(errno), (unsigned long long)g.size, nr * PAGE);
		break;
	default:
		vm_rw_check(what, p, nr, by == VM_WRITEV);
	}
}

void edge_open_gup_test(void)
{
	gup_fd = open(GUP_TEST_PATH, O_RDWR | O_CLOEXEC);
	if (gup_fd < 0)
		skip("no " GUP_TEST_PATH " (CONFIG_GUP_TEST, debugfs)");
}
