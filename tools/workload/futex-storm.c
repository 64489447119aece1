// SPDX-License-Identifier: GPL-2.0
/*
 * futex-storm: contention on a spinlock that is not a PTE lock, on
 * purpose, for gupstat --waits' negative control
 * (tests/guest/test_waits.sh).
 *
 *   futex-storm SEC
 *
 * One thread per online CPU, each bound to its CPU, calls
 * FUTEX_WAIT_PRIVATE on one shared futex word with a value the word
 * never has, for SEC seconds. Every such call takes the futex hash
 * bucket's spinlock to compare the word under it (futex_q_lock()), finds
 * it different and returns EAGAIN without sleeping: the threads take the
 * one bucket lock as fast as they can, and the slow path of the
 * qspinlock runs on it. A FUTEX_WAKE would not do: with no waiter queued
 * it returns before taking the lock.
 *
 * Prints "reached: N futex calls on M CPUs in SEC s"; exits 1 if a call
 * fails other than with EAGAIN.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS	64

static unsigned int word;	/* 0, never the 1 the waits expect */
static int stop;
static int bad;

struct storm {
	pthread_t thread;
	int cpu;
	unsigned long calls;
};

static void *hammer(void *arg)
{
	struct storm *s = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "futex-storm: CPU %d: %s\n", s->cpu, strerror(errno));
		__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		if (syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0) != -1 ||
		    errno != EAGAIN) {
			fprintf(stderr, "futex-storm: FUTEX_WAIT: %s\n", strerror(errno));
			__atomic_store_n(&bad, 1, __ATOMIC_RELAXED);
			return NULL;
		}
		s->calls++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct storm storms[MAX_CPUS];
	unsigned long calls = 0;
	struct timespec t = {};
	char *end;
	long cpus, i;

	if (argc != 2 || (t.tv_sec = strtol(argv[1], &end, 10)) <= 0 || *end) {
		fprintf(stderr, "usage: futex-storm SEC\n");
		return 2;
	}
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus < 2) {
		fprintf(stderr, "futex-storm: needs two CPUs to contend, has %ld\n", cpus);
		return 1;
	}
	if (cpus > MAX_CPUS)
		cpus = MAX_CPUS;
	for (i = 0; i < cpus; i++) {
		storms[i].cpu = i;
		if (pthread_create(&storms[i].thread, NULL, hammer, &storms[i])) {
			perror("futex-storm: pthread_create");
			return 1;
		}
	}
	nanosleep(&t, NULL);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < cpus; i++) {
		pthread_join(storms[i].thread, NULL);
		calls += storms[i].calls;
	}
	printf("reached: %lu futex calls on %ld CPUs in %ld s\n", calls, cpus, (long)t.tv_sec);
	return bad;
}
