# SPDX-License-Identifier: GPL-2.0
# arm64: what the other files build, boot and measure for x86, for
# arm64: gupstat and the workloads cross-built, the kernels, their
# selftests and vmlinux.h, the suites and the A/B benchmark
# (docs/arm64.md).

.PHONY: arm64 arm64-tree kernel-arm64 kernel-arm64-debug debian-kernel-arm64 \
	selftests-arm64 vmlinux-h-arm64 check-arm64 bench-ab-arm64

##@ Building
# The mm selftests that drive GUP (mk/kernels.mk), for the arm64 guests.
## the same for arm64 (build/arm64/selftests/)
selftests-arm64:
	$(Q)tools/build-selftests --arch arm64 $(OUT)/arm64/selftests

# gupstat and the workloads cross-built for arm64, in their own tree
# (build/arm64/) with their own BPF objects (vmlinux/arm64, CO-RE as on
# x86; bpftool's skeleton is the same on any host): user space against
# Debian's arm64 packages (tools/arm64-root, fetched once), gupstat
# linked -static from their .a files, so that it runs on any arm64 Linux.
ARM64_CC	?= aarch64-linux-gnu-gcc

# What make arm64 cannot do without, each said in one line.
ifneq ($(filter arm64,$(MAKECMDGOALS)),)
ifeq ($(shell command -v $(ARM64_CC)),)
$(error $(ARM64_CC) not found: run 'make deps' (Debian: gcc-aarch64-linux-gnu))
endif
ifeq ($(wildcard vmlinux/arm64/vmlinux.h),)
$(error vmlinux/arm64/vmlinux.h not found: run 'make vmlinux-h-arm64' once the base-arm64 kernel is built)
endif
endif

## gupstat (static) and the workloads cross-built for arm64 (build/arm64/)
arm64:
	$(Q)root=$$(tools/arm64-root) && \
	$(MAKE) --no-print-directory OUT=$(OUT)/arm64 ARCH_DIR=arm64 CC="$(ARM64_CC) --sysroot=$$root" \
		LIBBPF_A=$$root/usr/lib/aarch64-linux-gnu/libbpf.a GUPSTAT_LDFLAGS=-static \
		LIBDW_LIBS="$(LIBDW_A_LIBS)" arm64-tree

# Only inside the sub-make above, where OUT is the arm64 tree.
arm64-tree: $(OUT)/gupstat $(WORK_PROGS)

# arm64: the kernels cross-built (kernel/build), booted in
# qemu-system-aarch64 by tools/vmrun with tools/arm64-root as the guest's
# root, running make arm64's gupstat and workloads (docs/arm64.md).
## the arm64 base and batched kernels, 4 kB pages (contpte) and 64 kB
kernel-arm64:
	$(Q)kernel/build base-arm64 batched-arm64 base-arm64-64k batched-arm64-64k >/dev/null

## the arm64 4 kB-page pair with DEBUG_VM and lockdep (check-arm64)
kernel-arm64-debug:
	$(Q)kernel/build base-arm64-debug batched-arm64-debug >/dev/null

## Debian's packaged arm64 6.12 kernel, as a guest kernel
debian-kernel-arm64:
	$(Q)tools/debian-kernel debian-6.12-arm64 >/dev/null

## regenerate vmlinux/arm64/vmlinux.h from the base-arm64 kernel
vmlinux-h-arm64:
	$(Q)tools/gen-vmlinux-h base-arm64 vmlinux/arm64/vmlinux.h

##@ Testing
# The series on arm64's debug kernels: gupstat's probes, the kernel
# suite, base/batched parity. Long (three cross-built kernels); not
# part of make check.
## gupstat and the kernel suite on the arm64 debug kernels, parity (long)
check-arm64: deps
	+$(Q)tests/check-arm64 --build

##@ Running and measuring
# Pin and unpin times, base against batched, with 4 kB pages (contpte)
# and with 64 kB pages (ROUNDS boots of each, 5 by default, A/A included:
# tools/bench/ab), then what gupstat counts of one pin per folio size on
# each kernel. About 5 min on this 2-CPU host with the kernels cached.
## bench-ab on arm64 (4 kB pages with contpte, 64 kB pages), gupstat's counts
bench-ab-arm64: deps
	$(Q)$(MAKE) -s --no-print-directory arm64 selftests-arm64 kernel-arm64
	$(Q)ROUNDS=$(or $(ROUNDS),5) tools/bench/ab $(or $(REPEATS),8) base-arm64 batched-arm64
	$(Q)ROUNDS=$(or $(ROUNDS),5) MEM=3G tools/bench/ab $(or $(REPEATS),8) base-arm64-64k batched-arm64-64k
	$(Q)MEM=3G tools/bench/walk-hists base-arm64 batched-arm64 base-arm64-64k batched-arm64-64k
