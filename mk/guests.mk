# SPDX-License-Identifier: GPL-2.0
# Guest suites run on their own, outside make check or beside it: the
# batched walk's edge cases alone, the suite on every Debian kernel, the
# suite again and again for tests that fail by chance, and the cache
# model's known patterns under it. Each builds what it boots first.

.PHONY: check-walk check-debian check-stress check-sim

##@ Testing
# The batched walk's edge cases alone (tests/kernel/walk), on both debug
# kernels, and their digests compared; also part of make check.
## the batched walk's edge cases on both debug kernels (in check)
check-walk: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel-debug
	$(Q)tests/check-walk

# gupstat's guest suite on each of Debian's x86 kernels, 7.2 included
# (make check boots 6.1, 6.12 and 7.3). About 12 min with them cached.
## the guest suite on Debian's 6.1, 6.12, 7.2 and 7.3 kernels
check-debian: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)tools/debian-kernel debian-6.1 debian-6.12 debian-7.2 debian-7.3 >/dev/null
	$(Q)tests/check-debian

# The in-guest suite ROUNDS times back to back on every kernel make
# check boots, JOBS boots at a time: tests that fail by chance. Each
# target defaults ROUNDS itself: a global default would reach every
# bench's $(or $(ROUNDS),N) as well.
## the guest suite 5 times on each kernel, 2 boots at a time (ROUNDS=, JOBS=)
check-stress: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel-debug debian-kernels selftests
	$(Q)tests/stress $(or $(ROUNDS),5) $(or $(JOBS),2)

# The cache model's known patterns, in a guest under it (tests/sim/).
# Not in make check: one boot of five under the model stalled before its
# first pattern (docs/testing.md).
## the cache model's known patterns, in a guest under it
check-sim: deps
	$(Q)$(MAKE) -s --no-print-directory all sim kernel-debug
	$(Q)rm -rf $(OUT)/sim-check && mkdir -p $(OUT)/sim-check
	$(Q)tools/vmrun --kernel base-debug --cache-sim $(OUT)/sim-check --timeout 1800 -- tests/sim/suite
