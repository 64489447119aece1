# SPDX-License-Identifier: GPL-2.0
# Running and measuring, in guests: make run (the README's first
# command) and the benchmarks, which build what they boot first. Long,
# not part of `make check`. Each prints its results and keeps its files
# under build/; a run worth keeping is copied to results/ with a row in
# results/README.md. arm64's are in mk/arm64.mk.

.PHONY: run bench-overhead bench-serve bench-trace-disk bench-ab bench-hold \
	bench-ro-pin bench-unpin bench-unpin-sim bench-ab-count bench-wait \
	bench-overhead-count

##@ Running and measuring
# The README's first command: the live view around a built-in workload,
# in the guest. On Debian's 6.12 (the default) nothing but gupstat is
# built and only run's packages come first, so a fresh machine shows
# histograms in minutes; KERNEL=base or batched builds that kernel and
# gup_test.
KERNEL ?= debian-6.12
RUN_DEBIAN := $(filter debian-%,$(KERNEL))
## the live view around a workload, in a guest on Debian 6.12 (KERNEL=base|batched: ours)
run:
	$(Q)tools/deps $(if $(RUN_DEBIAN),run,kernel)
	$(Q)$(MAKE) -s --no-print-directory all $(if $(RUN_DEBIAN),,selftests)
	$(Q)$(if $(RUN_DEBIAN),,kernel/build $(KERNEL) >/dev/null)
	$(Q)tools/vmrun --kernel $(KERNEL) -- tools/demo

# Benchmarks: long, not part of `make check`; results kept in results/.
## gupstat's and bpftrace's overhead on gup_test, in a guest
bench-overhead: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel selftests
	$(Q)tools/vmrun --kernel base --timeout 3000 -- tools/bench/overhead-guest

# The same counted, not timed: base booted once under the cache model,
# instructions and last-level misses per pin and unpin call untraced,
# under gupstat's configurations and under bpftrace, per BPF program per
# run (tools/bench/overhead-count). FOLIOS (4k 64k), MB (256), REPEATS
# (3) and CONFIGS as the script says.
## gupstat's and bpftrace's cost per pin call, counted under the cache model
bench-overhead-count: deps
	$(Q)$(MAKE) -s --no-print-directory all selftests sim
	$(Q)kernel/build base >/dev/null
	$(Q)tools/bench/overhead-count

# gupstat serve, scraped every second, against the live view.
## gupstat serve, scraped every second, against the live view
bench-serve: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel selftests
	$(Q)tools/vmrun --kernel base --timeout 3000 -- tools/bench/overhead-guest 3 8 serve gupstat

# gupstat trace to a 9p share and to one throttled to 512 kB/s (QEMU), its
# losses against a gupstat from before the writer thread (BEFORE, a git
# revision; by default the parent of the commit that added it).
BENCH_DISK	:= $(OUT)/bench-disk
## gupstat trace to a fast and to a throttled disk
bench-trace-disk: deps
	$(Q)$(MAKE) -s --no-print-directory all selftests kernel
	$(Q)tools/bench/build-before "$(or $(BEFORE),$$(git log --diff-filter=A --format=%H -- src/trace/spool.c | tail -n1)^)" $(BENCH_DISK)/gupstat-before
	$(Q)rm -rf $(BENCH_DISK)/fast $(BENCH_DISK)/slow && mkdir -p $(BENCH_DISK)/fast $(BENCH_DISK)/slow
	$(Q)tools/vmrun --kernel base --timeout 5400 --rw $(BENCH_DISK)/fast --rw-slow $(BENCH_DISK)/slow=524288 -- \
		tools/bench/trace-disk $(BENCH_DISK)/gupstat-before $(BENCH_DISK)/fast $(BENCH_DISK)/slow \
		$(or $(RUNS),20) $(or $(SLOW_RUNS),5)

# Timed A/B: base, walk-only and batched, ROUNDS boots each with an A/A
# boot of base per round (tools/bench/ab); REPEATS per boot (16).
## get and put times, base, walk-only and batched, A/A pair per round
bench-ab: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel selftests
	$(Q)kernel/build walk-only >/dev/null
	$(Q)tools/bench/ab $(or $(REPEATS),16) base walk-only batched

# PTE-lock holds and a competing task's wake-up latency on base and the
# series (on 7.3 the early release is part of the walk patch: no kernel
# without it is built).
## PTE-lock holds and a waiter's latency, base and batched
bench-hold: deps
	$(Q)$(MAKE) -s --no-print-directory all selftests
	$(Q)kernel/build base batched >/dev/null
	$(Q)tools/bench/hold

# PTE-lock waits (gupstat --waits) under walk-contend, the series with and
# without its early PTE-lock release (batched-unbounded), under
# preempt=lazy and preempt=full (the -dyn builds, PREEMPT_DYNAMIC), batched
# booted twice as an A/A pair (tools/bench/wait); RUNS per arm and boot (10).
## PTE-lock waits, batched with and without the early release
bench-wait: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)kernel/build batched-dyn batched-unbounded-dyn >/dev/null
	$(Q)WAIT_OUT=$(OUT)/bench-wait tools/bench/wait $(or $(RUNS),10) batched-dyn batched-unbounded-dyn batched-dyn

# Read-only pins of shmem mTHP: refs per grab and time, with and without
# the series' patch 12.
## read-only pins of shmem mTHP, with and without patch 12
bench-ro-pin: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)kernel/build base batched-noro batched >/dev/null
	$(Q)tools/bench/ro-pin

# The unpin claim: gupstat validate unpin on base, the series without its
# unpin patch (batched-9) and the whole series; gupstat compare each.
## gupstat validate unpin and compare on three kernels
bench-unpin: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)kernel/build base batched-9 batched >/dev/null
	$(Q)tools/bench/unpin

# The same under the cache model (tools/vmrun --cache-sim): simulated
# struct page misses per call at 4k and 64k, where no PMU exists.
# ROUNDS and REPEATS set the boots per kernel and repeats per condition.
## the same under the cache model
bench-unpin-sim: deps
	$(Q)$(MAKE) -s --no-print-directory all sim
	$(Q)kernel/build base batched-9 batched >/dev/null
	$(Q)tools/bench/unpin --sim --rounds $(or $(ROUNDS),1) --repeats $(or $(REPEATS),5)

# A/B counted, not timed: instructions, accesses and simulated misses per
# pin and unpin call of bench-ab's workloads, under the cache model, with
# A/A rows and a flat profile (tools/bench/ab-count). KERNELS (default
# base walk-only batched: the walk's step and the batching's apart);
# FOLIOS, SIZES, REPEATS, HLLT, TRACED as the script says.
AB_COUNT_KERNELS = $(or $(KERNELS),base walk-only batched)
## bench-ab counted under the cache model, not timed
bench-ab-count: deps
	$(Q)$(MAKE) -s --no-print-directory all sim selftests
	$(Q)kernel/build $(AB_COUNT_KERNELS) $(if $(TRACED),$(TRACED),batched-traced) >/dev/null
	$(Q)tools/bench/ab-count $(AB_COUNT_KERNELS)
