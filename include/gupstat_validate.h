/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gupstat validate: what its BPF programs (bpf/validate/) hand to user
 * space. One slot per observed kernel function, summed over the calls of
 * one phase (one pin, or one unpin) of the measuring process; user space
 * zeroes a slot before the phase and reads it after.
 */
#ifndef __GUPSTAT_VALIDATE_H
#define __GUPSTAT_VALIDATE_H

/* The includer brings the __u32/__u64 types: vmlinux.h or linux/types.h. */
enum v_slot_id {
	V_PIN,		/* __gup_longterm_locked(): pin_user_pages(FOLL_LONGTERM) */
	V_UNPIN,	/* unpin_user_pages() */
	V_GRAB,		/* try_grab_folio(): one refcount grab (census only) */
	V_PUT,		/* gup_put_folio(): one folio released (census only) */
	V_NR_SLOTS,
};

struct v_slot {
	__u64 calls;		/* calls that returned */
	__u64 ns;		/* time inside the function, summed */
	__u64 units;		/* pages asked for (pin, unpin) or refs (grab, put) */
	__u64 ret;		/* pin: pages pinned, summed */
	__u64 counter;		/* perf counter delta, summed over counter_calls */
	__u64 counter_calls;	/* calls whose delta is valid (did not migrate) */
	/* The call in flight: the measuring process is single-threaded. */
	__u64 entry_ns;
	__u64 entry_counter;
	__u32 entry_cpu;
	__u32 entry_counter_ok;
};

#endif /* __GUPSTAT_VALIDATE_H */
