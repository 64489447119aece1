// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a file whole or not at all (output.h). The stream the caller
 * writes to is a stdio cookie over the temporary file's descriptor: its
 * write function keeps the first error with its errno, so that a disk
 * that filled up in the middle of a trace is reported as such at the
 * end, whatever stdio made of it in between.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "util/input.h"
#include "util/msg.h"
#include "util/output.h"

/*
 * Large writes: a trace's reader must keep up with the ring buffer, and
 * a write per 4 kB is slow on network and 9p file systems (measured: a
 * trace to the guest's 9p share lost 1% of 262144 holds).
 */
#define OUTPUT_BUF	(1 << 20)
/* Outputs one command may have in progress at once (report has three). */
#define OUTPUT_MAX	4

struct sink {
	int fd;			/* -1: /dev/null, discard */
	int err;		/* the first write error, errno */
	char buf[OUTPUT_BUF];
};

/*
 * The temporary files in progress, for output_discard_on_signal(), and
 * the process they belong to: a forked child that has not exec'd yet
 * (trace's command) shares the handlers, not the files.
 */
static char *volatile pending[OUTPUT_MAX];
static volatile pid_t pending_pid;

/*
 * The outputs committed, written and synced, whose rename waits for
 * output_finish(): @tmp (also in pending[]) is to become @path.
 */
static struct staged {
	char *tmp;
	char *path;
} staged[OUTPUT_MAX];

static void pending_set(const char *old, char *new)
{
	int i;

	pending_pid = getpid();
	for (i = 0; i < OUTPUT_MAX; i++)
		if (pending[i] == old) {
			pending[i] = new;
			return;
		}
}

static bool pending_has(const char *name)
{
	int i;

	for (i = 0; i < OUTPUT_MAX; i++)
		if (pending[i] == name)
			return true;
	return false;
}

void output_discard_on_signal(void)
{
	int i;

	if (getpid() != pending_pid)
		return;
	for (i = 0; i < OUTPUT_MAX; i++)
		if (pending[i])
			unlink(pending[i]);
}

/*
 * Every signal whose default is to end the process and that can be
 * caught: each would leave the temporary files behind. SIGPIPE is one
 * (report's text into a closed pipe), SIGXFSZ too (ulimit -f).
 */
static const int fatal_signals[] = {
	SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2,
	SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR,
};

static void fatal_set(sigset_t *set)
{
	size_t i;
	int sig;

	sigemptyset(set);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		sigaddset(set, fatal_signals[i]);
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaddset(set, sig);
}

void output_die_of(int sig)
{
	sigset_t set;

	output_discard_on_signal();
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	_exit(128 + sig);	/* not reached */
}

static void on_fatal_signal(int sig)
{
	output_die_of(sig);
}

/* A signal ignored when gupstat started (nohup) stays ignored. */
static void catch_one(int sig, const sigset_t *all)
{
	struct sigaction sa = { .sa_handler = on_fatal_signal, .sa_mask = *all };
	struct sigaction old;

	if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_IGN)
		return;
	sigaction(sig, &sa, NULL);
}

static bool caught;

void output_catch_signals(void)
{
	sigset_t all;
	int sig;

	fatal_set(&all);
	for (sig = 1; sig <= SIGRTMAX; sig++)
		if (sigismember(&all, sig) == 1)
			catch_one(sig, &all);
	caught = true;
}

/*
 * Between mkstemp() and the name in pending[], and between the rename
 * and its removal from there, a signal would leave a file behind or
 * unlink a name that is no longer ours: the fatal signals wait.
 */
static void signals_hold(sigset_t *old)
{
	sigset_t all;

	fatal_set(&all);
	sigprocmask(SIG_BLOCK, &all, old);
}

static void signals_release(const sigset_t *old)
{
	sigprocmask(SIG_SETMASK, old, NULL);
}

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct sink *s = cookie;
	size_t done = 0;
	ssize_t n;

	if (s->err) {
		errno = s->err;
		return -1;
	}
	while (s->fd >= 0 && done < len) {
		n = write(s->fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->err = n ? errno : ENOSPC;
			errno = s->err;
			return done ? (ssize_t)done : -1;
		}
		done += n;
	}
	return len;
}

static int fail(const struct output *o, int err, const char *why)
{
	p_err("cannot write %s: %s\n", o->path, why ? why : strerror(err));
	return -err;
}

/* The file is made beside the target: say where, when it cannot be. */
static int fail_create(const struct output *o, int err)
{
	char *d = strdup(o->path), why[PATH_MAX + 64];

	snprintf(why, sizeof(why), "cannot create a file in %s (%s)", d ? dirname(d) : "its directory",
		 strerror(err));
	free(d);
	return fail(o, err, why);
}

static bool is_dev_null(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/* Refuse an existing @st that is one of @inputs: it would be lost. */
static int check_inputs(const struct output *o, const struct stat *st,
			const char *const *inputs)
{
	struct stat in;
	char why[300];

	for (; inputs && *inputs; inputs++) {
		if (stat(*inputs, &in) || in.st_dev != st->st_dev || in.st_ino != st->st_ino)
			continue;
		snprintf(why, sizeof(why), "it is also the input %s", *inputs);
		return fail(o, EINVAL, why);
	}
	return 0;
}

/* 0 to write, 1 to discard (/dev/null), or -errno after the message. */
static int check_target(const struct output *o, const char *const *inputs)
{
	struct stat st;

	if (lstat(o->path, &st))
		return errno == ENOENT ? 0 : fail(o, errno, NULL);
	if (S_ISLNK(st.st_mode))
		return fail(o, ELOOP, "a symbolic link (not followed: remove it or name its target)");
	if (is_dev_null(&st))
		return 1;
	if (!S_ISREG(st.st_mode))
		return fail(o, EINVAL, input_kind_of(st.st_mode));
	if (faccessat(AT_FDCWD, o->path, W_OK, AT_EACCESS))
		return fail(o, errno, NULL);
	return check_inputs(o, &st, inputs);
}

/* ".NAME.XXXXXX" beside @path, for mkstemp(). */
static char *temp_name(const char *path)
{
	char *d = strdup(path), *b = strdup(path), *t = NULL;

	if (d && b && asprintf(&t, "%s/.%.200s.XXXXXX", dirname(d), basename(b)) < 0)
		t = NULL;
	free(d);
	free(b);
	return t;
}

static FILE *sink_stream(struct sink *s)
{
	cookie_io_functions_t io = { .write = sink_write };
	FILE *f = fopencookie(s, "w", io);

	if (f)
		setvbuf(f, s->buf, _IOFBF, sizeof(s->buf));
	return f;
}

int output_open(struct output *o, const char *path, const char *const *inputs)
{
	struct sink *s;
	sigset_t held;
	int ret, err;

	*o = (struct output){ .path = path };
	ret = check_target(o, inputs);
	if (ret < 0)
		return ret;
	s = malloc(sizeof(*s));
	if (!s)
		return fail(o, ENOMEM, NULL);
	s->fd = -1;
	s->err = 0;
	if (!ret) {
		o->tmp = temp_name(path);
		if (!o->tmp) {
			free(s);
			return fail(o, ENOMEM, NULL);
		}
		if (!caught)	/* a command that forgot: report and compare */
			output_catch_signals();
		/* mkstemp() creates it 0600, and never through a link. */
		signals_hold(&held);
		s->fd = mkostemp(o->tmp, O_CLOEXEC);
		err = errno;
		if (s->fd >= 0)
			pending_set(NULL, o->tmp);
		signals_release(&held);
		if (s->fd < 0) {
			ret = fail_create(o, err);
			free(o->tmp);
			free(s);
			o->tmp = NULL;
			return ret;
		}
	}
	o->f = sink_stream(s);
	if (!o->f) {
		ret = fail(o, errno, NULL);
		if (s->fd >= 0)
			close(s->fd);
		free(s);
		output_discard(o);
		return ret;
	}
	o->sink = s;
	return 0;
}

/* The first error of the data's way to the disk, errno, or 0. */
static int flush_all(struct output *o)
{
	struct sink *s = o->sink;
	int err = 0;

	if (fflush(o->f) && !s->err)
		s->err = errno ? errno : EIO;
	err = s->err;
	if (!err && s->fd >= 0 && fsync(s->fd) && errno != EINVAL)
		err = errno;
	if (s->fd >= 0 && close(s->fd) && !err)
		err = errno;
	s->fd = -1;
	fclose(o->f);
	o->f = NULL;
	free(s);
	o->sink = NULL;
	return err;
}

/* The rename itself is only durable once the directory is synced. */
static void sync_dir(const char *path)
{
	char *d = strdup(path);
	int fd = d ? open(dirname(d), O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(d);
}

/* The temporary file is the target now: nothing to discard, the rename made durable. */
static void moved(struct output *o)
{
	if (!o->tmp)
		return;
	sync_dir(o->path);
	free(o->tmp);
	o->tmp = NULL;
}

int output_open_new(struct output *o, const char *path)
{
	struct stat st;

	*o = (struct output){ .path = path };
	/* Links, devices and directories get output_open()'s own words. */
	if (!lstat(path, &st) && S_ISREG(st.st_mode))
		return fail(o, EEXIST, "it exists (a trace is written in place from its start "
			    "and never replaces a file: remove it or name another)");
	return output_open(o, path, NULL);
}

/*
 * Move @tmp to @path unless @path exists: renameat2() where the file
 * system takes RENAME_NOREPLACE, else link() and unlink() (9p takes no
 * rename flags), else a check and rename(), which only a race can beat.
 */
static int move_noreplace(const char *tmp, const char *path)
{
	struct stat st;

	if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return errno;
	if (!link(tmp, path)) {
		unlink(tmp);
		return 0;
	}
	if (errno == EEXIST)
		return errno;
	if (!lstat(path, &st))
		return EEXIST;
	return rename(tmp, path) ? errno : 0;
}

int output_publish(struct output *o)
{
	struct sink *s = o->sink;
	sigset_t held;
	int err;

	if (!o->f)
		return fail(o, EBADF, NULL);
	if (fflush(o->f) && !s->err)
		s->err = errno ? errno : EIO;
	err = s->err;
	signals_hold(&held);
	if (!err && o->tmp)
		err = move_noreplace(o->tmp, o->path);
	if (!err && o->tmp)
		pending_set(o->tmp, NULL);
	signals_release(&held);
	if (err) {
		output_discard(o);
		return fail(o, err, err == EEXIST ? "it appeared while the trace started" : NULL);
	}
	moved(o);
	return 0;
}

/* Hand @o's temporary file to staged[]: 0, or ENOMEM. */
static int stage(struct output *o)
{
	char *path = strdup(o->path);
	int i;

	for (i = 0; path && i < OUTPUT_MAX; i++)
		if (!staged[i].tmp) {
			staged[i] = (struct staged){ .tmp = o->tmp, .path = path };
			o->tmp = NULL;
			return 0;
		}
	free(path);
	return ENOMEM;
}

int output_commit(struct output *o)
{
	int err;

	if (!o->f)
		return fail(o, EBADF, NULL);
	err = flush_all(o);
	if (!err && o->tmp)
		err = stage(o);
	if (err) {
		output_discard(o);
		return fail(o, err, NULL);
	}
	return 0;
}

/* Rename one staged output over its target: 0, or -errno after one line. */
static int staged_move(struct staged *st)
{
	struct output o = { .path = st->path };
	sigset_t held;
	int err = 0;

	signals_hold(&held);
	if (rename(st->tmp, st->path))
		err = errno;
	else
		pending_set(st->tmp, NULL);
	signals_release(&held);
	if (!err)
		sync_dir(st->path);
	return err ? fail(&o, err, NULL) : 0;
}

/* Unlink a staged output's temporary file, or forget it once moved. */
static void staged_drop(struct staged *st)
{
	sigset_t held;

	if (!st->tmp)
		return;
	signals_hold(&held);
	if (pending_has(st->tmp)) {
		unlink(st->tmp);
		pending_set(st->tmp, NULL);
	}
	signals_release(&held);
	free(st->tmp);
	free(st->path);
	*st = (struct staged){ 0 };
}

/* A traced COMMAND's exit status, which gupstat passes on as its own. */
static int passed_status = -1;

int output_pass_status(int status)
{
	passed_status = status;
	return status;
}

int output_finish(int ret, bool stdout_ok)
{
	bool ok = stdout_ok && (!ret || ret == passed_status);
	int i, err = 0;

	/* One rename failed: the rest are not made, the command failed. */
	for (i = 0; i < OUTPUT_MAX; i++) {
		if (ok && !err && staged[i].tmp)
			err = staged_move(&staged[i]);
		staged_drop(&staged[i]);
	}
	if (ok && err)
		return 1;
	return !stdout_ok && !ret ? 1 : ret;
}

int output_fail(struct output *o, int err)
{
	output_discard(o);
	return fail(o, -err, NULL);
}

void output_discard(struct output *o)
{
	if (o->f)
		flush_all(o);
	if (o->tmp) {
		sigset_t held;

		signals_hold(&held);
		unlink(o->tmp);
		pending_set(o->tmp, NULL);
		signals_release(&held);
		free(o->tmp);
		o->tmp = NULL;
	}
}

int output_close_stdout(void)
{
	bool had_error = ferror(stdout), pending = __fpending(stdout);
	int err = 0;

	errno = 0;
	if (fclose(stdout))
		err = errno ? errno : EIO;
	/* Nothing printed to a closed stdout is no error (as coreutils). */
	if (err == EBADF && !had_error && !pending)
		err = 0;
	if (!err && had_error)
		err = EIO;
	if (err)
		p_err("cannot write to standard output: %s\n",
		      had_error && err == EIO ? "write error" : strerror(err));
	return -err;
}
