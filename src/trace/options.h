/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_TRACE_OPTIONS_H
#define __GUPSTAT_TRACE_OPTIONS_H

#include <stdbool.h>
#include <sys/types.h>
#include <linux/types.h>

/*
 * The default ring buffer: 16 MB holds 149796 records of 112 bytes (104
 * and the buffer's 8-byte header), so a whole 256 MB pin of 4 kB pages
 * (65536 holds) fits twice over even if the reader does not run at all
 * while the pin lasts, which is what happens on a busy or one-CPU guest.
 */
#define TRACE_BUFFER_DEFAULT	(16U << 20)
#define TRACE_BUFFER_MIN	4096U
#define TRACE_BUFFER_MAX	(1U << 30)

/*
 * Records held in memory between the ring buffer and a slow disk: 64 MB
 * is 699050 holds, the 262150 of four back-to-back 256 MB pins of 4 kB
 * pages and more, even if the disk takes nothing while they run.
 */
#define TRACE_SPOOL_DEFAULT	(64ULL << 20)
#define TRACE_SPOOL_MIN		(1ULL << 20)
#define TRACE_SPOOL_MAX		(16ULL << 30)

struct trace_opts {
	const char *output;	/* -o FILE */
	const char *folded;	/* --folded OUT: report --folded at the end; "-" stdout */
	const char *cgroup;	/* -c PATH: a cgroup v2 directory, and those below */
	bool cgroup_exact;	/* --cgroup-exact: the directory alone */
	bool folded_by_address;	/* --folded-by address */
	const char *vmlinux;	/* --vmlinux FILE: this kernel's DWARF, for --folded */
	pid_t pid;		/* -p */
	unsigned int duration;	/* -d SEC; 0 until Ctrl-C or the command ends */
	__u64 min_ns;		/* --min-ns */
	__u32 buffer;		/* -b, rounded up to a power of two */
	__u64 spool;		/* --spool: bytes of records queued for the disk */
	bool kernel_addrs;	/* --kernel-addrs */
	bool lock_exact;	/* --lock-exact */
	bool waits;		/* --waits */
	bool no_fill;		/* --no-fill: leave gup_fill_pages() alone */
	bool no_stacks;		/* --no-stacks: no stack per record */
	__u64 stack_min_ns;	/* --stack-min-ns: stacks of long holds only */
	bool force_kprobe;	/* -k */
	bool verbose;		/* -v */
	bool quiet;		/* -q: no status line; errors and lost holds still said */
	char **cmd;		/* after --: run this, trace it and its children */
};

/*
 * 0 to run, 1 when help or the version was printed, -EINVAL after the
 * error. pid, duration, lock_exact, waits, cmd, force_kprobe and verbose are the
 * shared options (util/options.h), named as OPTS_SHARED_ALL() wants them.
 */
int trace_opts_parse(struct trace_opts *o, int argc, char **argv);

#endif /* __GUPSTAT_TRACE_OPTIONS_H */
