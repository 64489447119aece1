// SPDX-License-Identifier: GPL-2.0
/*
 * validate --sim's reading of one repeat from the cache model's log: the
 * pin's and the unpin's call lines taken, a call the model could not
 * frame on the measured vCPU making the repeat one to run again (with
 * its other lines read, so that the next repeat starts clean), one lost
 * on another vCPU ignored, and any other error of the model's failing
 * the run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "validate/probe.h"
#include "validate/sim.h"
#include "tap.h"
#include "scratch.h"

static const char counts[] = " 10 20 30 40 50 60 70 80 90 100 110";

static void append(const char *path, const char *line)
{
	FILE *f = fopen(path, "a");

	if (!f)
		exit(1);
	fprintf(f, "%s\n", line);
	fclose(f);
}

static void call(const char *path, const char *func, int cpu)
{
	char line[256];

	snprintf(line, sizeof(line), "call %s %d%s", func, cpu, counts);
	append(path, line);
}

int main(void)
{
	char *path = scratch_file("sim.log");
	const char *pin = vprobe_func(V_PIN), *unpin = vprobe_func(V_UNPIN);
	struct vsim_call got;
	struct vsim s = { 0 };
	int err;

	if (simlog_open(&s.log, path))
		return 1;

	call(path, pin, 1);
	call(path, pin, 0);	/* another CPU's: not this repeat's */
	call(path, unpin, 1);
	err = vsim_take(&s, 1, &got);
	CHECK(!err && !strcmp(got.pin.name, pin) && !strcmp(got.unpin.name, unpin) &&
	      got.unpin.n[GS_INSNS] == 90, "a repeat: its pin and its unpin on CPU 1 (%d)", err);

	call(path, pin, 1);
	append(path, "error unpin_user_pages: its first store on vCPU 1 is not a push or a call: call not counted");
	call(path, unpin, 1);	/* a later call of the lost repeat's */
	err = vsim_take(&s, 1, &got);
	CHECK(err == VSIM_LOST, "a call the model could not frame: the repeat is to run again (%d)", err);

	call(path, pin, 1);
	call(path, unpin, 1);
	err = vsim_take(&s, 1, &got);
	CHECK(!err, "the next repeat reads alone, nothing left of the lost one (%d)", err);

	call(path, pin, 1);
	append(path, "error unpin_user_pages: its first store on vCPU 0 is not a push or a call: call not counted");
	call(path, unpin, 1);
	err = vsim_take(&s, 1, &got);
	CHECK(!err, "a call lost on another vCPU is not this repeat's (%d)", err);

	call(path, pin, 1);
	append(path, "error cannot read /x/gupsim.ctl: No such file or directory");
	call(path, unpin, 1);
	err = vsim_take(&s, 1, &got);
	CHECK(err == -EPROTO, "any other error of the model's fails the run (%d)", err);

	simlog_close(&s.log);
	return check_done();
}
