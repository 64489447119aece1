/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_INPUT_H
#define __GUPSTAT_UTIL_INPUT_H

#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

/*
 * Every file gupstat reads (a trace, a validate results file) is read
 * whole, through here: a regular file of at most a cap, checked before
 * any read that could block, so that a FIFO, /dev/zero or a 10 GB
 * sparse file is one line of error rather than a hang. libc only: the
 * fuzz target links it with the trace file reader.
 */
struct input {
	char *data;		/* @len bytes, then a NUL */
	size_t len;
};

/*
 * Read @path, at most @max bytes (@what names the kind of file in the
 * error: "a results file"). 0, or -errno with @err set to the reason in
 * one line, without the path: "empty", "a FIFO, not a regular file".
 */
int input_read(const char *path, size_t max, const char *what, struct input *in,
	       char *err, size_t errlen);
void input_free(struct input *in);

/*
 * The same checks, without the cap and without reading: @fd open on the
 * regular, non-empty file @path of @size bytes, for a reader that
 * streams it (a trace). 0, or -errno with @err set as above.
 */
int input_open(const char *path, const char *what, int *fd, __u64 *size,
	       char *err, size_t errlen);

/* What a file of @mode that is not a regular file is, in words. */
const char *input_kind_of(mode_t mode);

/* Anything in @s but printable ASCII becomes '?': safe to print. */
void input_sanitise(char *s);

#endif /* __GUPSTAT_UTIL_INPUT_H */
