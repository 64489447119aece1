/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A guest "kernel" that never prints: a multiboot image that halts at
 * once. tests/test-vmrun boots it to check that tools/vmrun stops a
 * silent guest, and that auto refuses KVM when a probe boot stays silent.
 * The header must lie in the first 8 kB of the file: QEMU looks there.
 */
	.text
	.align 4
	.long 0x1badb002	/* multiboot magic */
	.long 0			/* flags */
	.long -0x1badb002	/* checksum */
	.globl _start
_start:
	cli
1:	hlt
	jmp 1b
