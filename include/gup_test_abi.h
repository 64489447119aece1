/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The kernel's GUP_TEST interface (CONFIG_GUP_TEST): ioctls on
 * /sys/kernel/debug/gup_test that make the kernel itself call
 * get_user_pages*() and pin_user_pages*() on a range of the caller's
 * memory.
 *
 * The kernel keeps its definition in mm/gup_test.h, which is not an
 * installed uapi header, so user space cannot include it. gupstat drives
 * the ioctls itself (tools/workload/gup-race.c, and a later
 * `gupstat validate`), so it carries its own description here. The ioctl
 * numbers and the struct layouts below are the ABI and must match the
 * kernel's byte for byte; the names are the kernel's so that they can be
 * looked up there. Checked against Linux 6.12.
 */
#ifndef __GUP_TEST_ABI_H
#define __GUP_TEST_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define GUP_TEST_PATH		"/sys/kernel/debug/gup_test"

#define GUP_TEST_MAX_PAGES_TO_DUMP	8

/*
 * One call: the kernel looks up [addr, addr + size) in chunks of
 * nr_pages_per_call pages, then releases them all again, and times both.
 *
 * It stops at the first chunk that returns fewer pages than asked for
 * (or an error, which is not reported) and writes back in size how far
 * it got, counted in whole chunks: a short size is the only sign that a
 * lookup failed. The ioctl itself fails only for bad arguments.
 */
struct gup_test {
	__u64 get_delta_usec;		/* out: time taken to look the pages up */
	__u64 put_delta_usec;		/* out: time taken to release them */
	__u64 addr;			/* in: start, page aligned */
	__u64 size;			/* in: bytes; out: bytes covered */
	__u32 nr_pages_per_call;	/* in: pages per GUP call */
	__u32 gup_flags;		/* in: kernel FOLL_* flags, see below */
	__u32 test_flags;		/* in: GUP_TEST_FLAG_* */
	/*
	 * DUMP_USER_PAGES_TEST only: pages to dump_page() into the kernel
	 * log, numbered from 1 at addr; 0 marks an unused slot.
	 */
	__u32 which_pages[GUP_TEST_MAX_PAGES_TO_DUMP];
};

/* DUMP_USER_PAGES_TEST: pin the pages instead of taking references. */
#define GUP_TEST_FLAG_DUMP_PAGES_USE_PIN	0x1

/*
 * gup_flags is handed unchanged to the kernel's GUP calls, so it takes
 * the kernel's own FOLL_* values, which are not ABI: these are the ones
 * of Linux 6.2 and later (FOLL_FORCE was 0x10 before). The selftest's
 * FOLL_TOUCH 0x02 is a pre-6.2 value: 0x02 is FOLL_GET now, which
 * pin_user_pages*() refuse with a WARN.
 */
#define GUP_TEST_FOLL_WRITE	0x01	/* look up for writing */
#define GUP_TEST_FOLL_FORCE	0x08	/* override VMA protections (ptrace) */

/* get_user_pages_fast() */
#define GUP_FAST_BENCHMARK	_IOWR('g', 1, struct gup_test)
/* pin_user_pages_fast() */
#define PIN_FAST_BENCHMARK	_IOWR('g', 2, struct gup_test)
/* pin_user_pages() with FOLL_LONGTERM */
#define PIN_LONGTERM_BENCHMARK	_IOWR('g', 3, struct gup_test)
/* get_user_pages(), the slow path */
#define GUP_BASIC_TEST		_IOWR('g', 4, struct gup_test)
/* pin_user_pages(), the slow path */
#define PIN_BASIC_TEST		_IOWR('g', 5, struct gup_test)
/* get or pin (test_flags), then dump_page() the pages in which_pages */
#define DUMP_USER_PAGES_TEST	_IOWR('g', 6, struct gup_test)

/*
 * A FOLL_LONGTERM pin that outlives the ioctl: START pins the range and
 * keeps it pinned, READ copies the pinned pages' contents, through the
 * kernel's own mapping of them, to a user buffer of the same size, and
 * STOP unpins. One pin at a time, system-wide: START fails with EINVAL
 * while one is held. Closing the file also unpins.
 *
 * START fails with the errno of the failed pin_user_pages*() call (e.g.
 * EFAULT for a range the VMA's protection does not allow), having
 * released the pages it had pinned so far.
 */
struct pin_longterm_test {
	__u64 addr;		/* page aligned */
	__u64 size;		/* bytes, page aligned, not 0 */
	__u32 flags;		/* PIN_LONGTERM_TEST_FLAG_* */
};

/* Pin for writing (FOLL_WRITE). */
#define PIN_LONGTERM_TEST_FLAG_USE_WRITE	1
/* Use pin_user_pages_fast() rather than pin_user_pages(). */
#define PIN_LONGTERM_TEST_FLAG_USE_FAST		2

#define PIN_LONGTERM_TEST_START	_IOW('g', 7, struct pin_longterm_test)
#define PIN_LONGTERM_TEST_STOP	_IO('g', 8)
/* The argument is a __u64 holding the destination buffer's address. */
#define PIN_LONGTERM_TEST_READ	_IOW('g', 9, __u64)

#endif /* __GUP_TEST_ABI_H */
