/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPWORK_EDGE_H
#define __GUPWORK_EDGE_H

#include <stddef.h>
#include <stdint.h>

/*
 * What the walk's edge-case programs (walk-edge, walk-contend,
 * walk-devmap) share: their output ("reached:", "FAIL:", "SKIP:" and
 * "digest:" lines, see tests/kernel/test_walk_edge.sh), a digest that
 * must be the same on every kernel, and the checked lookups through the
 * GUP_TEST ioctls and process_vm_readv/writev().
 */
#define PAGE		4096UL
#define KB64		(64 * 1024UL)
#define MB		(1UL << 20)
#define PMD_SIZE	(2 * MB)
#define PUD_SIZE	(1024 * MB)
#define TAG_MAGIC	0x57454447ULL	/* "WEDG" */
#define SKIP_EXIT	77

extern int failures;
extern int gup_fd;
extern uint64_t digest;

void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void __attribute__((noreturn)) skip(const char *why);
/* Open the GUP_TEST file into gup_fd, or skip. */
void edge_open_gup_test(void);
void digest_add(uint64_t v);
void *map_aligned(size_t len, size_t align, int prot, int flags);
/* Word 0 of each page: which page it is and which pass wrote it. */
void tag_pages(char *p, unsigned long first, unsigned long nr,
	       unsigned int gen);

/* The node's pin counters, exact (see edge.c). */
long long pins(const char *name);

/*
 * Pins per page the last pin_check() took: 1, or 2 where the walk
 * migrated first. expect_rounds: what the case expects, 0 for any.
 */
extern long long pin_rounds;
extern long long expect_rounds;

int pin_compare(const char *what, char *p, unsigned long nr, int write,
		char *buf);
void pin_check(const char *what, char *p, unsigned long nr, int write);
void vm_rw_check(const char *what, char *p, unsigned long nr, int write);

/* The GUP entry points a case looks a range up through. */
enum lookup { PIN_READ, PIN_WRITE, GUP_READ, GUP_WRITE, VM_READV, VM_WRITEV };

extern const char *const lookup_name[];
void lookup(const char *what, enum lookup by, char *p, unsigned long nr);

#endif /* __GUPWORK_EDGE_H */
