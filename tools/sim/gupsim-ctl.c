// SPDX-License-Identifier: GPL-2.0
/*
 * gupsim-ctl: the guest's side of a counting run under the cache-model
 * plugin (tools/vmrun --cache-sim), for a workload that is not gupstat:
 * tools/bench/ab-count-guest runs gup_test between its calls.
 *
 *	gupsim-ctl DIR config [--vmemmap START END] FUNC...
 *		count every call of each FUNC (at most 4), struct pages being
 *		[START, END); prints the model
 *	gupsim-ctl DIR profile
 *		what the counted calls did since the last profile, per code
 *		block: "FUNC SYMBOL 0xBLOCK COUNTS" lines (include/gupsim.h's
 *		order), SYMBOL the kernel function the block lies in, which
 *		is the one its inlined code was inlined into
 *
 * The calls themselves are the "call" lines of DIR/gupsim.log.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/ksyms.h"
#include "util/msg.h"
#include "gupsim/simctl.h"

static int usage(void)
{
	fprintf(stderr, "usage: gupsim-ctl DIR config [--vmemmap START END] FUNC... | gupsim-ctl DIR profile\n");
	return 2;
}

static int open_log(struct simlog *log, const char *dir)
{
	char path[4096];
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, GUPSIM_LOG);
	err = simlog_open(log, path);
	if (err)
		p_err("cannot read %s: %s\n", path, strerror(-err));
	return err;
}

static int parse_addr(const char *s, __u64 *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		p_err("not an address: '%s'\n", s);
		return -EINVAL;
	}
	return 0;
}

static int config(const char *dir, int argc, char **argv)
{
	struct simctl c;
	struct simlog log;
	__u64 start = 0, end = 0;
	char model[256];
	int err;

	if (argc >= 3 && !strcmp(argv[0], "--vmemmap")) {
		if (parse_addr(argv[1], &start) || parse_addr(argv[2], &end))
			return 2;
		if (start >= end) {
			p_err("--vmemmap: START is not below END\n");
			return 2;
		}
		argc -= 3;
		argv += 3;
	}
	if (argc < 1)
		return usage();
	if (simctl_init(&c, dir, "/proc/kallsyms", (const char *const *)argv, argc) ||
	    open_log(&log, dir))
		return 1;
	c.vmemmap_start = start;
	c.vmemmap_end = end;
	err = simctl_configure(&c, &log, model, sizeof(model));
	simlog_close(&log);
	if (err)
		return 1;
	printf("%s\n", model);
	return 0;
}

static void print_prof(const struct simrec *r, const struct ksyms *ks)
{
	const char *sym = ksyms_func(ks, r->addr);
	int i;

	printf("%s %s 0x%" PRIx64, r->name, sym ? sym : "[unknown]", r->addr);
	for (i = 0; i < GS_NR; i++)
		printf(" %" PRIu64, r->n[i]);
	printf("\n");
}

static int profile(const char *dir)
{
	struct ksyms *ks = ksyms_load("/proc/kallsyms");
	struct simlog log;
	struct simrec r;
	int got;

	if (!ks || open_log(&log, dir))
		return 1;
	GUPSIM_MARKER(GUPSIM_PROFILE);
	while ((got = simlog_next(&log, &r)) > 0 && r.type != SIMREC_PROFEND) {
		if (r.type == SIMREC_ERROR) {
			simctl_say_error(&r);
			return 1;
		}
		if (r.type == SIMREC_PROF)
			print_prof(&r, ks);
	}
	simlog_close(&log);
	ksyms_free(ks);
	if (got <= 0) {
		p_err("no profile from the cache model (%s)\n", got ? strerror(-got) : "it did not answer");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[2], "config"))
		return config(argv[1], argc - 3, argv + 3);
	if (argc == 3 && !strcmp(argv[2], "profile"))
		return profile(argv[1]);
	return usage();
}
