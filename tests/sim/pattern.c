// SPDX-License-Identifier: GPL-2.0
/*
 * Known access patterns for the cache model, run in a guest under the
 * plugin: between two markers, read one word of each of LINES distinct
 * cache lines, and print what the plugin counted in that span.
 *
 *	sim-pattern LOG stride LINES	a buffer of LINES lines, read once
 *	sim-pattern LOG repeat BYTES N	a buffer of BYTES, read N times
 *	sim-pattern LOG loop N		2N + 1 instructions and no access
 *
 * stride over more than the last level holds: about LINES misses at
 * every level (a sequential sweep through an LRU cache bigger than it
 * evicts itself); repeat within the L1d: about none after the first pass.
 */
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "gupsim.h"
#include "gupsim/simlog.h"

#define LINE 64

static const char *const names[GS_NR] = {
	"accesses", "l1d_misses", "l2_misses", "llc_misses",
	"sp_accesses", "sp_l1d_misses", "sp_l2_misses", "sp_llc_misses",
	"insns", "other_insns", "other_accesses",
};

/*
 * A first pass, outside the markers, right before them: what the
 * counted passes find cached is then only the buffer's own doing, not
 * whatever the kernel touched since it was written. (Through more than
 * the last level holds, a sequential sweep still misses every line.)
 */
static unsigned long sweep(volatile const char *buf, size_t bytes, unsigned long passes)
{
	unsigned long sum = 0, p;
	size_t i;

	for (i = 0; i < bytes; i += LINE)
		sum += buf[i];
	GUPSIM_MARKER(GUPSIM_MARK_BEGIN);
	for (p = 0; p < passes; p++)
		for (i = 0; i < bytes; i += LINE)
			sum += buf[i];
	GUPSIM_MARKER(GUPSIM_MARK_END);
	return sum;
}

/*
 * "mov N, %rcx" and N times "dec %rcx; jnz": 2N + 1 instructions between
 * the markers, in one asm statement so that the compiler puts nothing
 * between them.
 */
static void loop(unsigned long n)
{
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c1\n\t"
			     "mov %0, %%rcx\n"
			     "1:\tdec %%rcx\n\t"
			     "jnz 1b\n\t"
			     ".byte 0x0f, 0x1f, 0x80\n\t.long %c2"
			     : : "r" (n), "i" (GUPSIM_MAGIC | GUPSIM_MARK_BEGIN),
			       "i" (GUPSIM_MAGIC | GUPSIM_MARK_END)
			     : "rcx", "cc", "memory");
}

static int report(struct simlog *log)
{
	struct simrec r;
	int i, got;

	while ((got = simlog_next(log, &r)) > 0) {
		if (r.type == SIMREC_ERROR) {
			fprintf(stderr, "sim-pattern: the plugin says: %s\n", r.text);
			return 1;
		}
		if (r.type != SIMREC_MARK)
			continue;
		for (i = 0; i < GS_NR; i++)
			printf("%s%s=%llu", i ? " " : "", names[i], (unsigned long long)r.n[i]);
		printf("\n");
		return 0;
	}
	fprintf(stderr, "sim-pattern: no record from the plugin (%s)\n",
		got ? strerror(-got) : "is this guest running under it?");
	return 1;
}

static int usage(void)
{
	fprintf(stderr, "usage: sim-pattern LOG stride LINES | sim-pattern LOG repeat BYTES N | sim-pattern LOG loop N\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long passes = 1, lines;
	bool is_loop = argc == 4 && !strcmp(argv[2], "loop");
	struct simlog log;
	cpu_set_t one;
	size_t bytes;
	char *buf = NULL;
	int err;

	if (!is_loop && (argc < 4 || (strcmp(argv[2], "stride") && strcmp(argv[2], "repeat")) ||
			 (!strcmp(argv[2], "repeat") && argc < 5)))
		return usage();
	lines = strtoul(argv[3], NULL, 0);
	bytes = !strcmp(argv[2], "stride") ? lines * LINE : lines;
	if (argc > 4)
		passes = strtoul(argv[4], NULL, 0);
	/* Both markers on one vCPU: the plugin counts per vCPU. */
	CPU_ZERO(&one);
	CPU_SET(0, &one);
	if (!is_loop)
		buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || sched_setaffinity(0, sizeof(one), &one)) {
		perror("sim-pattern");
		return 1;
	}
	err = simlog_open(&log, argv[1]);
	if (err) {
		fprintf(stderr, "sim-pattern: %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	if (is_loop) {
		loop(lines);
		return report(&log);
	}
	/* Fewer faults to simulate where THP is on; the pattern is the same. */
	madvise(buf, bytes, MADV_HUGEPAGE);
	memset(buf, 1, bytes);
	sweep(buf, bytes, passes);
	return report(&log);
}
