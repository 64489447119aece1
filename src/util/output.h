/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_OUTPUT_H
#define __GUPSTAT_UTIL_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

struct sink;

/*
 * Every file gupstat writes: the data goes to a temporary file in the
 * target's directory, renamed over the target only once all of it is
 * written and synced and the whole command has succeeded. A failure at
 * any point, before the first byte or after the last, leaves the target
 * as it was and nothing behind.
 *
 * The target must be a regular file or not exist: a symlink is refused
 * (root writing through a planted link), so is a device, a FIFO or a
 * directory, and so is a file that is one of the command's inputs.
 * /dev/null is the one exception: the output is discarded, and the
 * device itself is never opened, chmodded or unlinked.
 */
struct output {
	const char *path;	/* the target, as the user named it */
	char *tmp;		/* the temporary file; NULL when discarding */
	FILE *f;		/* what the caller writes to */
	struct sink *sink;	/* behind @f */
};

/*
 * Check @path and create its temporary file, mode 0600 (traces name
 * processes, addresses and kernel stacks). @inputs: NULL-terminated
 * paths the output must not be, or NULL. 0, or -errno after one line on
 * stderr; nothing is left to clean up after a failure.
 */
int output_open(struct output *o, const char *path, const char *const *inputs);
/*
 * For a file written in place from its start (gupstat trace): as
 * output_open(), but an existing @path is refused, since it would be
 * lost the moment the new one is published (/dev/null aside).
 */
int output_open_new(struct output *o, const char *path);
/*
 * Flush what is written so far and move the temporary file to the
 * target, refusing a target that appeared since. From then on the data
 * goes to the target itself: output_commit() only syncs and closes it,
 * and neither a failure nor a signal removes it. 0, or -errno after one
 * line on stderr, the temporary file then gone.
 */
int output_publish(struct output *o);
/*
 * Flush, sync and close the data; its rename over the target waits for
 * output_finish(), so that a command that fails after this (its
 * standard output full, say) leaves every target as it was. 0, or
 * -errno after one line on stderr (a full disk: "No space left on
 * device"), the target then untouched.
 */
int output_commit(struct output *o);
/*
 * At the end of main(), once stdout is closed: the outputs committed are
 * renamed over their targets if the command succeeded (@ret 0, or the
 * status output_pass_status() named) and so did its standard output
 * (@stdout_ok); else their temporary files go, every target as it was.
 * Returns the exit status: @ret, or 1 where it was 0 and stdout failed,
 * or 1 when a rename failed (one line on stderr; later ones not made).
 */
int output_finish(int ret, bool stdout_ok);
/*
 * @status, a traced COMMAND's exit status that gupstat passes on as its
 * own: no failure of gupstat's, so output_finish() puts outputs in place.
 */
int output_pass_status(int status);
/* Throw the data away after a write error @err (-errno): one line. */
int output_fail(struct output *o, int err);
/* Throw the data away; the target stays as it was. Idempotent. */
void output_discard(struct output *o);
/*
 * For a fatal signal handler: unlink the temporary files of the outputs
 * in progress, if any. Async-signal-safe.
 */
void output_discard_on_signal(void);
/*
 * For a signal handler that ends the process: output_discard_on_signal(),
 * then die of @sig itself, so that the caller's exit status says which
 * (128 + @sig in a shell). Async-signal-safe; does not return.
 */
void output_die_of(int sig) __attribute__((noreturn));
/*
 * Until the command installs its own: every catchable signal that ends
 * a process (INT, TERM, HUP, QUIT, PIPE, ALRM, USR1, USR2, XCPU, XFSZ,
 * VTALRM, PROF, IO, PWR, the real-time ones) unlinks the temporary files,
 * then kills the process as it would have, so that the exit status says
 * which signal. One ignored at start stays ignored. output_open() calls
 * it, once, if the command has not.
 */
void output_catch_signals(void);

/*
 * At the end of main(): flush and close stdout, and say so when what the
 * command printed did not all get out (a full disk, /dev/full). 0, or
 * -errno after one line on stderr.
 */
int output_close_stdout(void);

#endif /* __GUPSTAT_UTIL_OUTPUT_H */
