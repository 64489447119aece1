// SPDX-License-Identifier: GPL-2.0
/*
 * walk-contend: long-term pins walking page tables that a second thread
 * keeps faulting into, so that the walk meets a waiter on its PTE lock.
 *
 *   walk-contend [same|apart]
 *
 * TABLES page tables of 4 kB pages (MADV_NOHUGEPAGE), each page tagged.
 * On CPU 0 the main thread pins the first PIN_PAGES pages of each table,
 * ROUNDS times over: BENCH_PINS pins and unpins (PIN_LONGTERM_BENCHMARK,
 * nearly all of their time in the walk), then one PIN_LONGTERM_TEST_START
 * whose copy of the pinned pages is compared with what is mapped; on CPU 1 a second thread zaps and
 * write-faults the other half of the same tables, one page at a time,
 * until the pins are done. Each of its MADV_DONTNEED calls and faults
 * takes the PTE lock the walk holds. With "apart" it does the same to
 * tables of its own: the same load on CPU 1, no waiter on the walk's
 * locks (split PTE locks), the control for a kernel on which the
 * preemption model cannot be switched to one without spin_needbreak()
 * (7.x x86: lazy or full only).
 *
 * On a kernel that may give the PTE lock up early (the batched walk,
 * every GUP_PTE_BREAK_BATCH PTEs when spin_needbreak() or need_resched()
 * says so), a pin of PIN_PAGES present PTEs that is walked in more than
 * one call was released early; tests/kernel/test_walk_edge.sh counts
 * those calls under gupstat with preempt=none and preempt=full where
 * the kernel has none (spin_needbreak() is dead under none; 7.x x86 has
 * lazy and full, both preemptible), else apart and same. This program shows
 * the set-up ("reached:"), checks every pinned page ("FAIL:"), and prints
 * a digest that must not depend on the kernel or on the timing.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>
#include "gup_test_abi.h"
#include "edge.h"

#define TABLES		16
#define TABLE_PAGES	512		/* PTEs per page table, x86-64 */
#define PIN_PAGES	256		/* the first half of each table */
#define ROUNDS		24
#define BENCH_PINS	3		/* uncopied pins per checked one */

static char *region;
static char *faulted;		/* where the contender faults: region, or its own */
static int stop;

static int on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The second half of each table, zapped and refaulted in turn. */
static void *contender(void *arg)
{
	unsigned long *faults = arg, k = 0;
	char *p;

	if (on_cpu(1)) {
		fail("contend: cannot run the contender on CPU 1: %s", strerror(errno));
		return NULL;
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		p = faulted + (k % TABLES) * PMD_SIZE +
		    (PIN_PAGES + (k / TABLES) % (TABLE_PAGES - PIN_PAGES)) * PAGE;
		if (madvise(p, PAGE, MADV_DONTNEED)) {
			fail("contend: MADV_DONTNEED: %s", strerror(errno));
			return NULL;
		}
		*(volatile char *)p = 1;
		(*faults)++;
		k++;
	}
	return NULL;
}

/* A long-term pin of @nr pages at @p and its unpin, nothing copied. */
static void pin_bench(char *p, unsigned long nr)
{
	struct gup_test g = {
		.addr = (uintptr_t)p, .size = nr * PAGE, .nr_pages_per_call = nr,
	};

	if (ioctl(gup_fd, PIN_LONGTERM_BENCHMARK, &g) || g.size != nr * PAGE)
		fail("contend: PIN_LONGTERM_BENCHMARK of %lu pages: %s, %llu bytes",
		     nr, strerror(errno), (unsigned long long)g.size);
}

/* "none", "voluntary" or "full": the bracketed one in debugfs. */
static void print_model(void)
{
	char line[128] = "", *a, *b;
	FILE *f = fopen("/sys/kernel/debug/sched/preempt", "re");

	if (f && fgets(line, sizeof(line), f)) {
		a = strchr(line, '(');
		b = a ? strchr(a, ')') : NULL;
		if (b) {
			*b = 0;
			printf("reached: preemption model %s (/sys/kernel/debug/sched/preempt)\n",
			       a + 1);
		}
	}
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	long long acq, rel;
	unsigned long faults = 0, r, t, b, good = 0, pinned;
	pthread_t thread;
	bool apart;
	char *buf;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 2 || (argc == 2 && strcmp(argv[1], "same") && strcmp(argv[1], "apart"))) {
		fprintf(stderr, "usage: walk-contend [same|apart]\n");
		return 2;
	}
	apart = argc == 2 && !strcmp(argv[1], "apart");
	edge_open_gup_test();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		skip("contend needs two CPUs: one pins, one faults");
	region = map_aligned(TABLES * PMD_SIZE, PMD_SIZE,
			     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS);
	faulted = apart ? map_aligned(TABLES * PMD_SIZE, PMD_SIZE, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS) : region;
	buf = malloc(PIN_PAGES * PAGE);
	if (!buf || madvise(region, TABLES * PMD_SIZE, MADV_NOHUGEPAGE) ||
	    madvise(faulted, TABLES * PMD_SIZE, MADV_NOHUGEPAGE) || on_cpu(0)) {
		perror("walk-contend: set-up");
		return 1;
	}
	tag_pages(region, 0, TABLES * TABLE_PAGES, 0);
	print_model();
	acq = pins("nr_foll_pin_acquired");
	rel = pins("nr_foll_pin_released");
	if (pthread_create(&thread, NULL, contender, &faults)) {
		perror("walk-contend: pthread_create");
		return 1;
	}
	for (r = 0; r < ROUNDS && !failures; r++) {
		for (t = 0; t < TABLES; t++) {
			for (b = 0; b < BENCH_PINS; b++)
				pin_bench(region + t * PMD_SIZE, PIN_PAGES);
			good += !pin_compare("contend", region + t * PMD_SIZE,
					     PIN_PAGES, 0, buf);
		}
	}
	pinned = r * TABLES * (BENCH_PINS + 1);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	acq = pins("nr_foll_pin_acquired") - acq;
	rel = pins("nr_foll_pin_released") - rel;
	printf("reached: %lu faults on CPU 1 into %s %d page tables while %lu pins of %d pages walked them on CPU 0\n",
	       faults, apart ? "another" : "the", TABLES, pinned, PIN_PAGES);
	if (!faults)
		fail("contend: the contender never faulted");
	if (acq != rel || acq != (long long)(pinned * PIN_PAGES))
		fail("contend: pins taken %lld, dropped %lld, expected %lu",
		     acq, rel, pinned * PIN_PAGES);
	digest_add(good);
	digest_add(acq);
	printf("digest: contend %016llx\n", (unsigned long long)digest);
	return failures != 0;
}
