/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What gupstat and its QEMU cache-model plugin (sim/, build/gupsim.so)
 * agree on. The guest cannot call into the plugin, and QEMU 7.2's
 * plugin API cannot read a guest register, so the two talk through:
 *
 *  - a marker instruction the guest executes: "nopl disp32(%rax)", a
 *    no-op on any x86 CPU, whose displacement is GUPSIM_MAGIC | command;
 *    the plugin sees its bytes when it translates it;
 *  - two files in a directory the host shares with the guest over 9p
 *    (uncached, so each read goes to the host): the guest writes
 *    GUPSIM_CTL and runs GUPSIM_CONFIG; the plugin appends one line per
 *    finished window to GUPSIM_LOG, before the guest runs on.
 *
 * GUPSIM_CTL, lines of:
 *	func NAME 0xADDR	count every call of the function at ADDR
 *	vmemmap 0xSTART 0xEND	struct page lines: [START, END)
 *	irq 0xADDR		an interrupt or exception entry (asm_*):
 *				from there to its iretq is not the call's
 *	switch 0xSTART 0xEND	__switch_to_asm: its load of the next
 *				task's stack pointer names the task now
 *				running, and only the caller's work is
 *				the call's
 *
 * GUPSIM_LOG, lines of:
 *	ready MODEL...		answer to GUPSIM_CONFIG: the model in words
 *	call NAME VCPU COUNTS	one call of a function, entry to return
 *	mark VCPU COUNTS	GUPSIM_MARK_BEGIN to GUPSIM_MARK_END
 *	prof NAME 0xADDR COUNTS	answer to GUPSIM_PROFILE: what the calls of
 *				NAME since the last one did in the code
 *				block (translation block) at ADDR
 *	profend			the end of that answer
 *	error TEXT		what the plugin could not do
 * COUNTS: GS_NR numbers in enum gupsim_count order.
 */
#ifndef __GUPSTAT_GUPSIM_H
#define __GUPSTAT_GUPSIM_H

#define GUPSIM_MAGIC		0x67750000u	/* "gu" */
#define GUPSIM_MAGIC_MASK	0xffff0000u

enum gupsim_cmd {
	GUPSIM_CONFIG = 1,
	GUPSIM_MARK_BEGIN,
	GUPSIM_MARK_END,
	GUPSIM_PROFILE,
};

#define GUPSIM_CTL		"gupsim.ctl"
#define GUPSIM_LOG		"gupsim.log"
#define GUPSIM_MAX_FUNCS	4
#define GUPSIM_MAX_IRQ		128
#define GUPSIM_NAME_MAX		64

/*
 * Data accesses and misses per level, for all data and struct pages;
 * instructions executed. All of them the call's own: what interrupt and
 * exception handlers, and other tasks while the caller was switched out,
 * did inside the window is counted apart, in GS_OTHER_*, so that the
 * call's counts do not depend on when a timer fired.
 */
enum gupsim_count {
	GS_ACCESS, GS_L1_MISS, GS_L2_MISS, GS_LLC_MISS,
	GS_SP_ACCESS, GS_SP_L1_MISS, GS_SP_L2_MISS, GS_SP_LLC_MISS,
	GS_INSNS, GS_OTHER_INSNS, GS_OTHER_ACCESS,
	GS_NR
};

#define GUPSIM_STR_(x)		#x
#define GUPSIM_STR(x)		GUPSIM_STR_(x)
/*
 * The plugin knows the x86 marker alone: elsewhere GUPSIM_HAS_MARKER is
 * 0, simctl_init() refuses --sim, and no marker is ever run.
 */
#ifdef __x86_64__
#define GUPSIM_HAS_MARKER	1
/* Spelled out in bytes: an assembler may pick a shorter encoding. */
#define GUPSIM_MARKER(cmd)						\
	__asm__ __volatile__(".byte 0x0f, 0x1f, 0x80\n\t.long %c0"	\
			     : : "i" (GUPSIM_MAGIC | (cmd)) : "memory")
#else
#define GUPSIM_HAS_MARKER	0
#define GUPSIM_MARKER(cmd)	do { } while (0)
#endif

#endif /* __GUPSTAT_GUPSIM_H */
