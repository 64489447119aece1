/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_SPOOL_H
#define __GUPSTAT_TRACE_SPOOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include "tracefile/writer.h"

/*
 * Between the ring buffer and the file: the reader drains the ring
 * buffer at the kernel's pace into a bounded queue in memory, and a
 * writer thread writes the queue to the file at the disk's pace. When
 * the queue is full the reader waits for room, the ring buffer fills
 * behind it, and the kernel counts the holds it cannot keep as lost:
 * the loss is counted where it always was, never silently here.
 */
struct trace_spool {
	struct trace_writer *w;		/* the writer thread's alone while it runs */
	struct trace_rec *recs;		/* a ring of @cap records */
	size_t cap, head, count;
	size_t high_water;		/* most records waiting at once */
	unsigned long long waits;	/* times the reader waited for room */
	__u64 written, bytes;		/* the writer's counts, as of its last batch */
	bool closing;
	int err;			/* the writer's first error, -errno */
	pthread_mutex_t lock;
	pthread_cond_t not_empty, not_full;
	pthread_t thread;
	bool started;
};

/* Room for @bytes of records; starts the writer thread. 0 or -errno. */
int trace_spool_start(struct trace_spool *s, struct trace_writer *w, size_t bytes);
/* Queue one record; waits while the queue is full. */
void trace_spool_push(struct trace_spool *s, const struct trace_rec *r);
/* Where the queue and the file stand, for the progress line (progress.h). */
struct trace_spool_state {
	size_t queued, cap;
	__u64 written;			/* holds written to the file (not waits) */
	__u64 bytes;			/* the file's size, header included */
	unsigned long long waits;
};

void trace_spool_state(struct trace_spool *s, struct trace_spool_state *st);
/* The writer's first error (a full disk), -errno, or 0. */
int trace_spool_error(struct trace_spool *s);
/* Write what is queued, stop the thread: the writer is the caller's again. */
int trace_spool_stop(struct trace_spool *s);

#endif /* __GUPSTAT_TRACE_SPOOL_H */
