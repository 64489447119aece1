# SPDX-License-Identifier: GPL-2.0
# The x86 guest kernels (kernel/build; Debian's own with
# tools/debian-kernel), the reviewers' checks of kernel/patches, the mm
# selftests built against them and vmlinux.h regenerated from them.
# arm64's are in mk/arm64.mk.

.PHONY: kernel kernel-debug debian-kernels check-series selftests vmlinux-h

##@ Building
## the base and batched guest kernels
kernel:
	$(Q)kernel/build base batched >/dev/null

# What make check boots: the same two with DEBUG_VM, lockdep and
# might_sleep() checks (kernel/config/debug.config).
## the same with DEBUG_VM and lockdep (what make check boots)
kernel-debug:
	$(Q)kernel/build base-debug batched-debug batched-traced-debug >/dev/null

# Debian's own packaged kernels, as guest kernels (tools/debian-kernel).
## Debian's packaged 6.1, 6.12 and 7.3 kernels, as guest kernels
debian-kernels:
	$(Q)tools/debian-kernel debian-6.1 debian-6.12 debian-7.3 >/dev/null

## regenerate vmlinux/x86/vmlinux.h from the base kernel
vmlinux-h:
	$(Q)tools/gen-vmlinux-h base vmlinux/$(ARCH_DIR)/vmlinux.h

# The mm selftests that drive GUP, built statically from the same source
# (Debian's linux-source-7.3).
## the mm selftests that drive GUP, built statically
selftests:
	$(Q)tools/build-selftests $(OUT)/selftests

##@ Testing
# Reviewers' build checks of kernel/patches: every prefix builds, W=1
# and sparse add no warning, mm/ builds for arm64 and i386, checkpatch.
# Long (own source copy and object trees); not part of `make check`.
## reviewers' build checks of kernel/patches (long)
check-series: deps
	$(Q)kernel/check-series
