// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat trace's writer thread (spool.h). The queue is a ring of
 * decoded records; the thread takes the longest contiguous run there is,
 * writes it without the lock, and flushes whenever the queue runs dry,
 * so that what the disk has is never more than a moment behind: a trace
 * killed with SIGKILL keeps every hold written before that moment.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace/spool.h"

/* The run from the oldest queued record to the ring's end, or to the newest. */
static size_t oldest_run(const struct trace_spool *s, size_t *first)
{
	*first = (s->head + s->cap - s->count) % s->cap;
	return s->count < s->cap - *first ? s->count : s->cap - *first;
}

static void *writer(void *arg)
{
	struct trace_spool *s = arg;
	size_t first, n, i;

	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!s->count && !s->closing)
			pthread_cond_wait(&s->not_empty, &s->lock);
		if (!s->count)
			break;
		n = oldest_run(s, &first);
		/* Those n slots stay counted, so the reader does not reuse them. */
		pthread_mutex_unlock(&s->lock);
		for (i = 0; i < n; i++)
			trace_writer_record(s->w, &s->recs[first + i]);
		pthread_mutex_lock(&s->lock);
		s->count -= n;
		s->err = s->w->err;
		/*
		 * Per batch, not per record: copies the reader can take under
		 * the lock. The status line counts holds: not the waits.
		 */
		s->written = s->w->nr_recs - s->w->nr_waits;
		s->bytes = s->w->offset;
		pthread_cond_signal(&s->not_full);
		if (s->count)
			continue;
		pthread_mutex_unlock(&s->lock);
		trace_writer_flush(s->w);
		pthread_mutex_lock(&s->lock);
		s->err = s->w->err;
	}
	pthread_mutex_unlock(&s->lock);
	trace_writer_flush(s->w);
	return NULL;
}

int trace_spool_start(struct trace_spool *s, struct trace_writer *w, size_t bytes)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->w = w;
	s->written = w->nr_recs - w->nr_waits;
	s->bytes = w->offset;
	s->cap = bytes / sizeof(*s->recs);
	if (!s->cap)
		s->cap = 1;
	s->recs = malloc(s->cap * sizeof(*s->recs));
	if (!s->recs)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->not_empty, NULL);
	pthread_cond_init(&s->not_full, NULL);
	err = -pthread_create(&s->thread, NULL, writer, s);
	if (err) {
		free(s->recs);
		s->recs = NULL;
		return err;
	}
	s->started = true;
	return 0;
}

void trace_spool_push(struct trace_spool *s, const struct trace_rec *r)
{
	pthread_mutex_lock(&s->lock);
	if (s->count == s->cap)
		s->waits++;
	while (s->count == s->cap)
		pthread_cond_wait(&s->not_full, &s->lock);
	s->recs[s->head] = *r;
	s->head = (s->head + 1) % s->cap;
	if (++s->count > s->high_water)
		s->high_water = s->count;
	pthread_cond_signal(&s->not_empty);
	pthread_mutex_unlock(&s->lock);
}

void trace_spool_state(struct trace_spool *s, struct trace_spool_state *st)
{
	pthread_mutex_lock(&s->lock);
	*st = (struct trace_spool_state){ .queued = s->count, .cap = s->cap,
		.written = s->written, .bytes = s->bytes, .waits = s->waits };
	pthread_mutex_unlock(&s->lock);
}

int trace_spool_error(struct trace_spool *s)
{
	int err;

	pthread_mutex_lock(&s->lock);
	err = s->err;
	pthread_mutex_unlock(&s->lock);
	return err;
}

int trace_spool_stop(struct trace_spool *s)
{
	if (!s->started)
		return 0;
	pthread_mutex_lock(&s->lock);
	s->closing = true;
	pthread_cond_signal(&s->not_empty);
	pthread_mutex_unlock(&s->lock);
	pthread_join(s->thread, NULL);
	s->started = false;
	free(s->recs);
	s->recs = NULL;
	pthread_cond_destroy(&s->not_full);
	pthread_cond_destroy(&s->not_empty);
	pthread_mutex_destroy(&s->lock);
	return s->w->err;
}
