// SPDX-License-Identifier: GPL-2.0
/*
 * util/output: a file is replaced whole or left as it was, new files are
 * 0600, and symlinks, non-regular files and inputs are refused.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "tap.h"
#include "scratch.h"
#include "util/output.h"

static int has(const char *path, const char *text)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return 0;
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
	fclose(f);
	return !strcmp(buf, text);
}

/* Nothing in the directory but the names given. */
static int entries(void)
{
	char cmd[PATH_MAX + 32];
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", scratch_dir());
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%d", &n) != 1)
		n = -1;
	pclose(p);
	return n;
}

static int write_out(const char *path, const char *text, const char *const *inputs)
{
	struct output o;
	int err = output_open(&o, path, inputs);

	if (err)
		return err;
	fputs(text, o.f);
	return output_commit(&o) ?: output_finish(0, true);
}

/* Killed half-way: the temporary goes, the old file stays. */
static void killed(void)
{
	struct output o;
	int status = 0;
	pid_t pid;

	write_out(scratch("old"), "old", NULL);
	pid = fork();
	if (!pid) {
		if (output_open(&o, scratch("old"), NULL))
			_exit(1);
		output_catch_signals();
		fputs("new", o.f);
		fflush(o.f);
		raise(SIGTERM);
		_exit(2);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM && has(scratch("old"), "old") &&
	      entries() == 1, "SIGTERM half-way: killed by it, the old file kept, no temporary");
	unlink(scratch("old"));
}

/*
 * Written in place (gupstat trace): an existing file is refused; once
 * published the file is the target, and a kill or a failure leaves it.
 */
static void in_place(void)
{
	struct output o;
	int status = 0;
	pid_t pid;

	write_out(scratch("old"), "old", NULL);
	CHECK(output_open_new(&o, scratch("old")) == -EEXIST && has(scratch("old"), "old") && entries() == 1,
	      "in place: an existing file is refused, left as it was");
	unlink(scratch("old"));
	CHECK(output_open_new(&o, scratch("t")) == 0, "in place: a new name is taken");
	fputs("head", o.f);
	CHECK(entries() == 1 && !has(scratch("t"), "head"), "before publishing: only the temporary");
	CHECK(output_publish(&o) == 0 && has(scratch("t"), "head") && entries() == 1,
	      "published: the header is in the target, no temporary");
	fputs("+rec", o.f);
	output_discard(&o);
	CHECK(has(scratch("t"), "head+rec"), "after publishing, a failure keeps what was written");
	unlink(scratch("t"));

	CHECK(output_open_new(&o, scratch("t")) == 0, "in place, a race: opened");
	write_out(scratch("t"), "other", NULL);
	CHECK(output_publish(&o) == -EEXIST && has(scratch("t"), "other") && entries() == 1,
	      "a file that appeared meanwhile is not replaced; the temporary goes");
	unlink(scratch("t"));

	pid = fork();
	if (!pid) {
		if (output_open_new(&o, scratch("t")))
			_exit(1);
		output_catch_signals();
		fputs("head", o.f);
		if (output_publish(&o))
			_exit(1);
		fputs("+rec", o.f);
		fflush(o.f);
		raise(SIGKILL);
		_exit(2);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFSIGNALED(status) && has(scratch("t"), "head+rec") && entries() == 1,
	      "SIGKILL after publishing: what was flushed stays");
	unlink(scratch("t"));
}

/* Committed, then the command fails: the rename is never made. */
static int commit_then(const char *text, int ret, bool stdout_ok)
{
	struct output o;

	if (write_out(scratch("old"), "old", NULL) || output_open(&o, scratch("old"), NULL))
		return -1;
	fputs(text, o.f);
	if (output_commit(&o))
		return -1;
	if (!has(scratch("old"), "old") || entries() != 2)
		return -2;	/* renamed too soon, or no temporary */
	return output_finish(ret, stdout_ok);
}

static void deferred(void)
{
	CHECK(commit_then("new", 1, true) == 1 && has(scratch("old"), "old") && entries() == 1,
	      "a command that fails after its commit: the old file kept, no temporary");
	CHECK(commit_then("new", 0, false) == 1 && has(scratch("old"), "old") && entries() == 1,
	      "stdout failed after the commit: exit 1, the old file kept, no temporary");
	output_pass_status(3);
	CHECK(commit_then("three", 3, true) == 3 && has(scratch("old"), "three") && entries() == 1,
	      "a COMMAND's status passed on: the file put in place, the status kept");
	output_pass_status(-1);
	CHECK(commit_then("new", 0, true) == 0 && has(scratch("old"), "new") && entries() == 1,
	      "success: the file put in place once the command ends");
	unlink(scratch("old"));
}

int main(void)
{
	const char *const inputs[] = { "/nonexistent", NULL, NULL };
	const char *const self[] = { NULL, NULL };
	struct output o;
	struct stat st;

	killed();
	in_place();
	deferred();
	CHECK(write_out(scratch("new"), "one", NULL) == 0 && has(scratch("new"), "one") &&
	      stat(scratch("new"), &st) == 0 && (st.st_mode & 0777) == 0600 && entries() == 1,
	      "a new file: written whole, 0600, no temporary left");

	chmod(scratch("new"), 0644);
	CHECK(write_out(scratch("new"), "two", inputs) == 0 && has(scratch("new"), "two") &&
	      stat(scratch("new"), &st) == 0 && (st.st_mode & 0777) == 0600,
	      "an existing 0644 file is replaced, 0600");

	CHECK(output_open(&o, scratch("new"), NULL) == 0, "opened");
	fputs("half", o.f);
	output_discard(&o);
	CHECK(has(scratch("new"), "two") && entries() == 1, "discarded: the old file untouched, nothing left");

	CHECK(!link(scratch("new"), scratch("hard")) &&
	      write_out(scratch("new"), "three", NULL) == 0 && has(scratch("hard"), "two") &&
	      stat(scratch("hard"), &st) == 0 && (st.st_mode & 0777) == 0600,
	      "a hard link's other name keeps its data");

	CHECK(!symlink(scratch("hard"), scratch("link")) &&
	      write_out(scratch("link"), "x", NULL) == -ELOOP && has(scratch("hard"), "two"),
	      "never written through a symlink");

	CHECK(write_out(scratch_dir(), "x", NULL) == -EINVAL, "a directory is refused");
	mkfifo(scratch("fifo"), 0600);
	CHECK(write_out(scratch("fifo"), "x", NULL) == -EINVAL, "a FIFO is refused");

	((const char **)self)[0] = scratch("hard");
	CHECK(write_out(scratch("hard"), "x", self) == -EINVAL && has(scratch("hard"), "two"),
	      "an input is refused");

	CHECK(write_out("/dev/null", "x", NULL) == 0 && stat("/dev/null", &st) == 0 &&
	      S_ISCHR(st.st_mode) && (st.st_mode & 0777) == 0666,
	      "/dev/null: discarded, the device left alone");
	CHECK(write_out(scratch("no/such"), "x", NULL) == -ENOENT, "a missing directory fails");
	CHECK(entries() == 4, "nothing left behind (%d entries)", entries());

	return check_done();
}
