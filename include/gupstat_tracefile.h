/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The gupstat trace file (`gupstat trace -o FILE`), version 3: every
 * PTE-lock hold of the GUP walk, with the cgroup of its task, and with
 * --waits every spin on a PTE lock while a walk held it. Described in
 * docs/trace.md. Every field is little-endian and of explicit width,
 * whatever the machine that wrote it; structures have no implicit
 * padding.
 *
 *	struct gt_header	magic, version, sizes, clock, flags
 *	strings			nr_strings x (struct gt_string, key, value)
 *	records			trailer.records x (struct gt_record or gt_wait)
 *	stack table		trailer.nr_stacks x (struct gt_stack, frames)
 *	cgroup table		trailer.nr_cgroups x (struct gt_cgroup, path)
 *	struct gt_trailer	counts, where the tables start
 *
 * Records are streamed as the holds happen, so their count is known only
 * at the end: it is in the trailer, at a fixed distance from the end of
 * the file. A file without its trailer was not finished (the tracer was
 * killed, or its disk filled): a reader may take the whole, well-formed
 * records after the header, up to the first that is not one.
 *
 * Waits are records among the holds, of the same size, told apart by
 * their "kind" byte (a hold's reserved byte before version 3, always 0:
 * GT_KIND_HOLD), not a table of their own: they come from the same ring
 * buffer in the same stream, so a table would have to be held back in
 * memory to the end, and a killed trace would lose every wait with it.
 * Of one size, the records keep the fixed stride an unfinished file is
 * recovered by, and a reader that wants holds only skips a record by
 * one byte; a wait keeps the task's fields (pid, tid, cpu, stack, comm,
 * cgroup) where a hold has them.
 *
 * Version 2 had no waits: no kind, its trailer struct gt_trailer_v2 (no
 * wait count). Version 1 had no cgroups either: its records are the
 * first 88 bytes of version 2's (no "cgroup"), its trailer struct
 * gt_trailer_v1 (no cgroup table). Readers read all three; a version 1
 * hold's cgroup is unknown.
 */
#ifndef __GUPSTAT_TRACEFILE_H
#define __GUPSTAT_TRACEFILE_H

#include <linux/types.h>

#define GT_MAGIC		"GUPTRACE"	/* 8 bytes, no NUL */
#define GT_TRAILER_MAGIC	"GUPTEND1"
#define GT_VERSION		3
#define GT_VERSION_V2		2	/* still read */
#define GT_VERSION_V1		1	/* still read */

/* gt_header.flags */
#define GT_F_KERNEL_ADDRS	0x1	/* stack frames carry addresses */
#define GT_F_LOCK_EXACT		0x2	/* holds start at the lock acquire */
#define GT_F_FILL_PROBED	0x4	/* gup_fill_pages() was traced */
#define GT_F_WAITS		0x8	/* --waits: spins on held PTE locks recorded */
#define GT_F_ALL		0xf

struct gt_header {
	char magic[8];			/* GT_MAGIC */
	__le32 version;			/* GT_VERSION */
	__le32 header_size;		/* this struct and its strings */
	__le32 record_size;		/* sizeof(struct gt_record), of a gt_wait too */
	__le32 flags;			/* GT_F_* */
	__le32 clock_id;		/* of the timestamps: CLOCK_MONOTONIC */
	__le32 nr_strings;
	__le64 start_ns;		/* clock_id when tracing started */
	__le64 start_realtime_ns;	/* CLOCK_REALTIME at that moment */
	__le64 min_ns;			/* --min-ns: shorter holds were left out */
};

/*
 * A key/value string: printable ASCII, no NUL. Keys in version 1:
 * "kernel" (uname -r), "method" (how holds were timed), "fill" (how or
 * why not gup_fill_pages() was traced), "gupstat" (its version),
 * "foll_flags" (NAME=0xVALUE,... from the kernel's BTF, to decode
 * gup_flags), "command" (what was traced); added later, with no version
 * change, "build_id" (the kernel's GNU build ID in hex, from
 * /sys/kernel/notes, or "unknown": what a vmlinux that resolves the
 * stacks' source lines must have). Readers ignore unknown keys.
 */
#define GT_KEY_MAX	32
#define GT_VALUE_MAX	4096
#define GT_STRINGS_MAX	64

struct gt_string {
	__le16 key_len;
	__le16 value_len;
	/* followed by key_len bytes of key, value_len bytes of value */
};

/* gt_record.flags */
#define GT_R_FILL		0x1	/* gup_fill_pages() ran inside the span */
#define GT_R_STORED_KNOWN	0x2	/* "stored" is known, not just 0 */
#define GT_R_WAITED		0x4	/* a wait in the file names this hold (version 3) */
#define GT_R_ALL		0x7

/* gt_record.kind, gt_wait.kind: what a version 3 record is */
#define GT_KIND_HOLD		0
#define GT_KIND_WAIT		1

#define GT_NO_STACK		0xffffffffu

/* enum walk_result (gupstat.h): what follow_page_pte() returned. */
#define GT_RESULTS		6

struct gt_record {
	__le64 ts_ns;			/* hold start, header.clock_id */
	__le64 hold_ns;			/* duration */
	__le64 fill_ns;			/* time in gup_fill_pages() within it */
	__le64 addr;			/* user address the walk started at */
	__le32 pid;			/* process (tgid) */
	__le32 tid;			/* thread */
	__le32 cpu;
	__le32 pages;			/* pages looked up */
	__le32 stored;			/* of those, stored in pages[] */
	__le32 gup_flags;		/* FOLL_*, see "foll_flags" */
	__le32 stack;			/* gt_stack.id, or GT_NO_STACK */
	__le32 fills;			/* gup_fill_pages() calls within it */
	__le16 flags;			/* GT_R_* */
	__u8 result;			/* enum walk_result, < GT_RESULTS */
	__u8 kind;			/* GT_KIND_HOLD; before version 3 reserved, 0 */
	__le32 reserved1;		/* 0 */
	char comm[16];			/* NUL-terminated */
	__le64 cgroup;			/* cgroup v2 id of the task; version 2 on */
};

/*
 * Version 3, --waits: a task spun on a PTE lock while a GUP walk held
 * it, from ts_ns for wait_ns, until it had the lock. The hold it waited
 * on is the hold record of holder_tid whose ts_ns is hold_ts_ns (that
 * hold has GT_R_WAITED); it may be missing, lost in the ring buffer or
 * past the end of an unfinished file. The fields a hold has too are at
 * a hold's offsets; the stack is the waiter's, in the same table.
 */
struct gt_wait {
	__le64 ts_ns;			/* the spin's start, header.clock_id */
	__le64 wait_ns;			/* until the waiter had the lock */
	__le64 hold_ts_ns;		/* the hold's ts_ns */
	__le64 lock;			/* the lock's address; 0 without GT_F_KERNEL_ADDRS */
	__le32 pid;			/* the waiter's process (tgid) */
	__le32 tid;			/* and thread */
	__le32 cpu;
	__le32 holder_pid;		/* the walk's process */
	__le32 holder_tid;		/* and thread */
	__le32 reserved0;		/* 0 */
	__le32 stack;			/* the waiter's: gt_stack.id, or GT_NO_STACK */
	__le32 reserved1;		/* 0 */
	__le16 flags;			/* none yet: 0 */
	__u8 reserved2;			/* 0 */
	__u8 kind;			/* GT_KIND_WAIT */
	__le32 reserved3;		/* 0 */
	char comm[16];			/* the waiter's, NUL-terminated */
	__le64 cgroup;			/* cgroup v2 id of the waiter */
};

/* A version 1 record: version 2's without "cgroup". */
#define GT_RECORD_V1_SIZE	88

/*
 * A stack, innermost frame first; nr_frames x (struct gt_frame, name).
 * Ids are unique and ascending.
 */
#define GT_FRAMES_MAX	127
#define GT_NAME_MAX	255

struct gt_stack {
	__le32 id;
	__le16 nr_frames;
	__le16 reserved;		/* 0 */
};

/* A frame: "symbol+0xoffset", and its address only with GT_F_KERNEL_ADDRS. */
struct gt_frame {
	__le64 addr;			/* 0 without GT_F_KERNEL_ADDRS */
	__le16 name_len;		/* 1..GT_NAME_MAX, followed by the name */
	__le16 reserved[3];		/* 0 */
};

/*
 * A cgroup the records name, and its path as /proc/PID/cgroup writes it
 * ("/", "/system.slice/x.service"), found while the trace ran: a
 * struct gt_cgroup and path_len bytes of path. Ids are unique and
 * ascending. A record's cgroup may be missing from the table: it was
 * removed before the tracer could name it.
 */
#define GT_CGPATH_MAX	4096
/* The most a table may hold: the writer names no more, readers refuse more. */
#define GT_CGROUPS_MAX		65536U
#define GT_CGROUP_TABLE_MAX	(16U << 20)

struct gt_cgroup {
	__le64 id;
	__le16 path_len;		/* 1..GT_CGPATH_MAX, starts with '/' */
	__le16 reserved[3];		/* 0 */
};

/*
 * Every version ends with nr_stacks and trailer_size: version 2 adds the
 * cgroup table's place before them, version 3 the wait count, so the
 * last 4 bytes of a finished file are always the trailer's size.
 */
struct gt_trailer {
	char magic[8];			/* GT_TRAILER_MAGIC */
	__le64 records;			/* records in the file, holds and waits */
	__le64 lost;			/* records lost: ring buffer full, probe skipped */
	__le64 below_min;		/* holds shorter than min_ns */
	__le64 stack_errors;		/* records whose stack was not taken */
	__le64 stacks_offset;		/* file offset of the stack table */
	__le64 end_ns;			/* clock_id when tracing ended */
	__le64 cgroups_offset;		/* file offset of the cgroup table */
	__le64 waits;			/* of the records, waits */
	__le32 nr_cgroups;
	__le32 reserved;		/* 0 */
	__le32 nr_stacks;
	__le32 trailer_size;		/* sizeof(struct gt_trailer) */
};

struct gt_trailer_v2 {
	char magic[8];
	__le64 records;
	__le64 lost;
	__le64 below_min;
	__le64 stack_errors;
	__le64 stacks_offset;
	__le64 end_ns;
	__le64 cgroups_offset;
	__le32 nr_cgroups;
	__le32 reserved;		/* 0 */
	__le32 nr_stacks;
	__le32 trailer_size;		/* sizeof(struct gt_trailer_v2) */
};

struct gt_trailer_v1 {
	char magic[8];
	__le64 records;
	__le64 lost;
	__le64 below_min;
	__le64 stack_errors;
	__le64 stacks_offset;
	__le64 end_ns;
	__le32 nr_stacks;
	__le32 trailer_size;		/* sizeof(struct gt_trailer_v1) */
};

#endif /* __GUPSTAT_TRACEFILE_H */
