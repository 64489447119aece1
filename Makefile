# SPDX-License-Identifier: GPL-2.0
# gupstat: `make` builds the tool, `make check` runs every test.

# The target's vmlinux/ dir and __TARGET_ARCH_: make arm64's sub-make
# sets arm64.
ARCH_DIR	:= x86
OUT		:= build
# Where the BPF objects and skeletons go: the sanitized tree (make asan)
# builds only userspace and includes the normal build's skeletons.
BPF_OUT		?= $(OUT)
CLANG		?= clang
CC		?= gcc
BPFTOOL		?= bpftool
# Quiet where no compiler is installed yet: make run and make check
# install it (tools/deps) before anything is built.
LIBBPF_A	?= $(shell $(CC) -print-file-name=libbpf.a 2>/dev/null)
# Extra flags for gupstat's link alone: make arm64 links it -static.
GUPSTAT_LDFLAGS	:=

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

CFLAGS_COMMON	:= -O2 -g -Wall -Wextra -Wno-unused-parameter -Werror -D_GNU_SOURCE -MMD -MP
CFLAGS		?=
USER_CFLAGS	:= $(CFLAGS_COMMON) -Iinclude -Isrc -I$(BPF_OUT) $(CPPFLAGS) $(CFLAGS)
BPF_CFLAGS	:= -g -O2 -target bpf -D__TARGET_ARCH_$(ARCH_DIR) -Wall -Werror -MMD -MP \
		   -Ivmlinux/$(ARCH_DIR) -Iinclude -Ibpf

# The live view's and gupstat trace's programs, one object per concern,
# statically linked into one for one skeleton; gupstat validate's are a
# separate object and skeleton (bpf/validate/): they keep per-phase sums
# for one process, not the live view's histograms.
#
# shared.bpf.o, which defines every shared map (bpf/shared.bpf.h), comes
# first: libbpf's linker (1.1, and still 1.5: docs/bpf.md) leaves a map
# relocation that libbpf cannot open when an extern map is seen before
# its definition.
BPF_OBJS	:= $(patsubst bpf/%.bpf.c,$(BPF_OUT)/bpf/%.bpf.o, \
			bpf/shared.bpf.c $(filter-out bpf/shared.bpf.c,$(wildcard bpf/*.bpf.c)))
VALIDATE_OBJS	:= $(patsubst bpf/%.bpf.c,$(BPF_OUT)/bpf/%.bpf.o,$(wildcard bpf/validate/*.bpf.c))
SKELS		:= $(BPF_OUT)/gupstat.skel.h $(BPF_OUT)/validate.skel.h
SRCS		:= $(wildcard src/*.c src/*/*.c)
OBJS		:= $(patsubst src/%.c,$(OUT)/src/%.o,$(SRCS))
OBJ_DIRS	:= $(sort $(dir $(OBJS)))
WORK_SRCS	:= $(wildcard tools/workload/*.c)
# Each workload is one program; folio.c, pagemap.c and edge.c are the
# library they share.
WORK_LIB_SRCS	:= tools/workload/folio.c tools/workload/pagemap.c tools/workload/edge.c
WORK_LIB	:= $(patsubst tools/workload/%.c,$(OUT)/workload/%.o,$(WORK_LIB_SRCS))
WORK_PROGS	:= $(patsubst tools/workload/%.c,$(OUT)/%, \
			$(filter-out $(WORK_LIB_SRCS),$(WORK_SRCS)))
UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRCS))
# Everything in src/ but main() is linked into the unit tests.
LIB_OBJS	:= $(filter-out $(OUT)/src/main.o,$(OBJS))

.DELETE_ON_ERROR:
.SECONDARY: $(BPF_OBJS) $(VALIDATE_OBJS) $(SKELS:.skel.h=.bpf.o)
.PHONY: help lint all catalog man install uninstall deb kernel kernel-debug debian-kernels check-series selftests selftests-arm64 vmlinux-h vmlinux-h-arm64 arm64 arm64-tree check check-quick check-unit unit-tests clean deps run bench-overhead bench-serve bench-trace-disk bench-ab bench-hold bench-ro-pin bench-unpin bench-unpin-sim bench-ab-count bench-ab-arm64 kernel-arm64 kernel-arm64-debug debian-kernel-arm64 check-arm64 check-debian sim check-sim check-walk check-stress fuzz-check fuzz fuzz-corpus asan asan-tree

all: $(OUT)/gupstat $(WORK_PROGS)

# One line per target; docs/testing.md says which tests each runs.
help:
	@echo 'Building:'
	@echo '  all              build/gupstat and the workloads (the default)'
	@echo '  unit-tests       the C unit tests, build/tests/test_*'
	@echo '  sim              the cache-model plugin for QEMU and its helpers'
	@echo '  asan             gupstat and the unit tests again with ASan and UBSan (build/asan/)'
	@echo '  arm64            gupstat (static) and the workloads cross-built for arm64 (build/arm64/)'
	@echo '  man              the man pages (scdoc)'
	@echo '  kernel           the base and batched guest kernels'
	@echo '  kernel-debug     the same with DEBUG_VM and lockdep (what make check boots)'
	@echo '  kernel-arm64     the arm64 base and batched kernels, 4 kB pages (contpte) and 64 kB'
	@echo '  kernel-arm64-debug  the arm64 4 kB-page pair with DEBUG_VM and lockdep (check-arm64)'
	@echo '  debian-kernels   Debian'"'"'s packaged 6.1, 6.12 and 7.3 kernels, as guest kernels'
	@echo '  debian-kernel-arm64  Debian'"'"'s packaged arm64 6.12 kernel, as a guest kernel'
	@echo '  selftests        the mm selftests that drive GUP, built statically'
	@echo '  selftests-arm64  the same for arm64 (build/arm64/selftests/)'
	@echo '  catalog          rewrite the docs'"'"', man pages'"'"' and schema'"'"'s generated parts from the catalogue'
	@echo '  vmlinux-h        regenerate vmlinux/x86/vmlinux.h from the base kernel'
	@echo '  vmlinux-h-arm64  regenerate vmlinux/arm64/vmlinux.h from the base-arm64 kernel'
	@echo '  deps             install the Debian packages the build and tests need'
	@echo 'Testing:'
	@echo '  check            every test: unit, host, fuzz, asan, and the guests (long)'
	@echo '  check-quick      unit, host, fuzz seeds and asan: make check without kernels or guests'
	@echo '  check-unit       the unit tests; T=NAME runs build/tests/test_NAME alone'
	@echo '  check-series     reviewers'"'"' build checks of kernel/patches (long)'
	@echo '  check-sim        the cache model'"'"'s known patterns, in a guest under it'
	@echo '  check-walk       the batched walk'"'"'s edge cases on both debug kernels (in check)'
	@echo '  check-arm64      gupstat and the kernel suite on the arm64 debug kernels, parity (long)'
	@echo '  check-debian     the guest suite on Debian'"'"'s 6.1, 6.12, 7.2 and 7.3 kernels'
	@echo '  check-stress     the guest suite 5 times on each kernel, 2 boots at a time (ROUNDS=, JOBS=)'
	@echo '  fuzz-check       each fuzzer'"'"'s seeds, then FUZZ_TIME (30) seconds each'
	@echo '  fuzz             the same, FUZZ_TIME (600) seconds each'
	@echo '  fuzz-corpus      rewrite the fuzzers'"'"' seed corpora'
	@echo '  lint             shellcheck on every shell script (make check runs it too)'
	@echo 'Running and measuring:'
	@echo '  run              the live view around a workload, in a guest on Debian 6.12 (KERNEL=base|batched: ours)'
	@echo '  bench-overhead   gupstat'"'"'s and bpftrace'"'"'s overhead on gup_test, in a guest'
	@echo '  bench-serve      gupstat serve, scraped every second, against the live view'
	@echo '  bench-trace-disk gupstat trace to a fast and to a throttled disk'
	@echo '  bench-ab         get and put times, base, walk-only and batched, A/A pair per round'
	@echo '  bench-hold       PTE-lock holds and a waiter'"'"'s latency, base and batched'
	@echo '  bench-ro-pin     read-only pins of shmem mTHP, with and without patch 12'
	@echo '  bench-unpin      gupstat validate unpin and compare on three kernels'
	@echo '  bench-unpin-sim  the same under the cache model'
	@echo '  bench-ab-count   bench-ab counted under the cache model, not timed'
	@echo '  bench-ab-arm64   bench-ab on arm64 (4 kB pages with contpte, 64 kB pages), gupstat'"'"'s counts'
	@echo 'Installing:'
	@echo '  install          gupstat (static), its man pages, completion and service (disabled)'
	@echo '  uninstall        remove what install put there'
	@echo '  deb              a Debian package in build/deb/, checked with lintian'
	@echo '  clean            remove build/'
	@echo '  help             this list'

# libbpf-dev brings both the static library and the BPF headers: say so
# before the first BPF compile fails on a missing header.
ifeq ($(LIBBPF_A),libbpf.a)
$(LIBBPF_A):
	$(error libbpf.a not found: run 'make deps' (Debian: libbpf-dev))
endif

$(BPF_OUT)/bpf/%.bpf.o: bpf/%.bpf.c vmlinux/$(ARCH_DIR)/vmlinux.h | $(LIBBPF_A) $(BPF_OUT)/bpf/validate
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

# One skeleton per linked object; shared maps are defined once and
# declared extern elsewhere, which the link resolves.
$(BPF_OUT)/gupstat.bpf.o: $(BPF_OBJS)
$(BPF_OUT)/validate.bpf.o: $(VALIDATE_OBJS)
$(BPF_OUT)/gupstat.bpf.o $(BPF_OUT)/validate.bpf.o:
	$(call msg,BPF-LD,$@)
	$(Q)$(BPFTOOL) gen object $@ $^

$(BPF_OUT)/%.skel.h: $(BPF_OUT)/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@

# Objects include the skeletons: generate them all first.
$(OBJS): | $(SKELS)

$(OUT)/src/%.o: src/%.c | $(OBJ_DIRS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(OUT)/gupstat: $(OBJS) $(LIBBPF_A)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(GUPSTAT_LDFLAGS) -o $@ $(OBJS) $(LIBBPF_A) -lelf -lz -lm -ljson-c -levent

$(OUT)/workload/%.o: tools/workload/%.c | $(OUT)/workload
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS_COMMON) -Iinclude $(CFLAGS) -c $< -o $@

# Static: the workloads run in the guest and on any test machine.
$(WORK_PROGS): $(OUT)/%: $(OUT)/workload/%.o $(WORK_LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -static -o $@ $^ -lpthread

$(OUT)/tests/test_%: tests/unit/test_%.c $(LIB_OBJS) $(LIBBPF_A) | $(OUT)/tests
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -Itests/unit -Itests/lib -o $@ $< $(LIB_OBJS) $(LIBBPF_A) -lelf -lz -lm -ljson-c -levent

# The cache-model plugin for QEMU (sim/), against the plugin API header
# of the QEMU installed here (fetched once from its source package).
SIM_SRCS	:= $(wildcard sim/*.c)
SIM_PLUGIN	:= $(OUT)/gupsim.so
SIM_CFLAGS	:= $(filter-out -MMD -MP,$(CFLAGS_COMMON))

sim: $(SIM_PLUGIN) $(OUT)/tests/sim-pattern $(OUT)/gupsim-ctl

$(SIM_PLUGIN): $(SIM_SRCS) $(wildcard sim/*.h) include/gupsim.h | $(OUT)/tests
	$(call msg,PLUGIN,$@)
	$(Q)inc=$$(tools/qemu-plugin-header) && \
	$(CC) $(SIM_CFLAGS) -fPIC -shared -Iinclude -I"$$inc" $(CFLAGS) -o $@ $(SIM_SRCS) -lpthread

# Known access patterns for the model, run in the guest (tests/sim/).
$(OUT)/tests/sim-pattern: tests/sim/pattern.c $(OUT)/src/gupsim/simlog.o | $(OUT)/tests
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(CFLAGS) -static -o $@ $^

# The guest's side of a counting run of a workload other than gupstat.
SIMCTL_OBJS	:= $(addprefix $(OUT)/src/,gupsim/simctl.o gupsim/simlog.o kernel/ksyms.o util/msg.o util/input.o)
$(OUT)/gupsim-ctl: tools/sim/gupsim-ctl.c $(SIMCTL_OBJS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(CFLAGS) -static -o $@ $^

$(BPF_OUT)/bpf/validate $(OBJ_DIRS) $(OUT)/workload $(OUT)/tests $(OUT)/fuzz:
	$(Q)mkdir -p $@

deps:
	$(Q)tools/deps

# shellcheck on every shell script; make check runs the same per script
# (tests/host/test_lint.sh).
lint:
	$(Q)tools/lint

kernel:
	$(Q)kernel/build base batched >/dev/null

# What make check boots: the same two with DEBUG_VM, lockdep and
# might_sleep() checks (kernel/config/debug.config).
kernel-debug:
	$(Q)kernel/build base-debug batched-debug batched-traced-debug >/dev/null

# Debian's own packaged kernels, as guest kernels (tools/debian-kernel).
debian-kernels:
	$(Q)tools/debian-kernel debian-6.1 debian-6.12 debian-7.3 >/dev/null

# Reviewers' build checks of kernel/patches: every prefix builds, W=1
# and sparse add no warning, mm/ builds for arm64 and i386, checkpatch.
# Long (own source copy and object trees); not part of `make check`.
check-series: deps
	$(Q)kernel/check-series

# The mm selftests that drive GUP, built statically from the same source
# (Debian's linux-source-7.3).
selftests:
	$(Q)tools/build-selftests $(OUT)/selftests

selftests-arm64:
	$(Q)tools/build-selftests --arch arm64 $(OUT)/arm64/selftests

vmlinux-h:
	$(Q)tools/gen-vmlinux-h base vmlinux/$(ARCH_DIR)/vmlinux.h

vmlinux-h-arm64:
	$(Q)tools/gen-vmlinux-h base-arm64 vmlinux/arm64/vmlinux.h

unit-tests: $(UNIT_BINS) $(OUT)/tests/silent.elf $(OUT)/catalog-gen

# The catalogue as JSON, from which tools/catalog/update writes what
# restates it (make catalog) and the host tests check it.
$(OUT)/catalog-gen: tools/catalog/gen.c $(LIB_OBJS) $(LIBBPF_A)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LIB_OBJS) $(LIBBPF_A) -lelf -lz -lm -ljson-c -levent

# Rewrite the docs', the man pages' and the NDJSON schema's generated
# parts from the catalogue (src/probe/catalog.c, src/probe/probes.h).
catalog: $(OUT)/catalog-gen
	$(Q)tools/catalog/update $(OUT)/catalog-gen

# A guest image that never prints, for tests/test-vmrun.
$(OUT)/tests/silent.elf: tests/data/silent.S | $(OUT)/tests
	$(call msg,AS,$@)
	$(Q)$(CC) -m32 -nostdlib -static -Wl,-Ttext=0x100000 -Wl,--build-id=none -o $@ $<

# make check-unit T=NAME: build/tests/test_NAME alone, as `perf test NAME`.
ifneq ($(filter check-unit,$(MAKECMDGOALS)),)
ifneq ($(T),)
ifeq ($(wildcard tests/unit/test_$(T).c),)
$(error T=$(T): no tests/unit/test_$(T).c)
endif
endif
endif
CHECK_UNIT_BINS	:= $(if $(T),$(OUT)/tests/test_$(T),$(UNIT_BINS))

check-unit: $(if $(T),$(CHECK_UNIT_BINS),unit-tests)
	$(Q)tests/lib/harness unit $(CHECK_UNIT_BINS)

# gupstat and the unit tests built again with ASan and UBSan, in their
# own tree (build/asan/) over the normal build's BPF skeletons: make
# check's asan part runs the unit tests and the host tests of hostile
# input against it (tests/asan/run). Any finding aborts the program.
# clang: gcc 12's UBSan ignores log_path and writes its reports to the
# tests' stderr, where tests/asan/test_reports.sh would not see them.
SAN_CC		?= clang
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

# The skeletons first, here: a parallel make must not build them twice.
asan: $(SKELS)
	$(Q)$(MAKE) --no-print-directory OUT=$(OUT)/asan BPF_OUT=$(OUT) CC=$(SAN_CC) \
		LIBBPF_A=$(LIBBPF_A) CFLAGS="$(SAN_FLAGS) $(CFLAGS)" asan-tree

# Only inside the sub-make above, where OUT is the sanitized tree.
asan-tree: $(OUT)/gupstat $(UNIT_BINS)

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

arm64:
	$(Q)root=$$(tools/arm64-root) && \
	$(MAKE) --no-print-directory OUT=$(OUT)/arm64 ARCH_DIR=arm64 CC="$(ARM64_CC) --sysroot=$$root" \
		LIBBPF_A=$$root/usr/lib/aarch64-linux-gnu/libbpf.a GUPSTAT_LDFLAGS=-static arm64-tree

# Only inside the sub-make above, where OUT is the arm64 tree.
arm64-tree: $(OUT)/gupstat $(WORK_PROGS)

# Two readers of hostile files under libFuzzer with ASan and UBSan: the
# trace file reader (src/tracefile/reader.c, clock.c and src/util/input.c alone)
# and gupstat compare's results file reader (src/results/json.c over
# json-c, then compare's verdicts, plot and JSON on what it read). fuzz-check
# replays each seed corpus and fuzzes each target for FUZZ_TIME seconds
# (default 30; tests/fuzz/run); fuzz is the same, longer (default 600 s
# each). fuzz-corpus rewrites the seeds.
FUZZ_CC		?= clang
FUZZ_FLAGS	:= -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
		   -D_GNU_SOURCE -Iinclude -Isrc -Itests/unit -Itests/lib

FUZZ_SRCS	:= src/tracefile/reader.c src/tracefile/clock.c src/util/input.c
RESULTS_SRCS	:= src/results/json.c src/results/stats.c src/util/json.c src/util/jscan.c src/util/input.c \
		   src/util/stats.c
RESULTS_FUZZ_SRCS := $(RESULTS_SRCS) src/compare/claims.c src/compare/plot.c src/util/svg.c \
		     src/compare/columns.c src/compare/json.c
FUZZERS		:= $(OUT)/fuzz/fuzz_trace_file $(OUT)/fuzz/fuzz_results

$(OUT)/fuzz/fuzz_trace_file: tests/fuzz/fuzz_trace_file.c $(FUZZ_SRCS) src/tracefile/reader.h \
			     src/tracefile/clock.h src/util/input.h include/gupstat_tracefile.h | $(OUT)/fuzz
	$(call msg,FUZZ-CC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_trace_file.c $(FUZZ_SRCS)

# p_err() is the harness's own: no src/util/msg.c.
$(OUT)/fuzz/fuzz_results: tests/fuzz/fuzz_results.c $(RESULTS_FUZZ_SRCS) src/results/results.h \
			  src/compare/compare.h src/util/json.h src/util/input.h | $(OUT)/fuzz
	$(call msg,FUZZ-CC,$@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ tests/fuzz/fuzz_results.c $(RESULTS_FUZZ_SRCS) -ljson-c -lm

$(OUT)/fuzz/gen_corpus: tests/fuzz/gen_corpus.c src/tracefile/writer.c tests/unit/synth.h | $(OUT)/fuzz
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -Itests/unit -Itests/lib -o $@ tests/fuzz/gen_corpus.c src/tracefile/writer.c

$(OUT)/fuzz/gen_results: tests/fuzz/gen_results.c $(RESULTS_SRCS) src/util/msg.c | $(OUT)/fuzz
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ tests/fuzz/gen_results.c $(RESULTS_SRCS) src/util/msg.c -ljson-c -lm

fuzz-check: $(FUZZERS)
	$(Q)FUZZ_TIME=$(or $(FUZZ_TIME),30) tests/lib/harness fuzz tests/fuzz/run -- $(OUT)/fuzz

fuzz: $(FUZZERS)
	$(Q)FUZZ_TIME=$(or $(FUZZ_TIME),600) tests/lib/harness fuzz tests/fuzz/run -- $(OUT)/fuzz

fuzz-corpus: $(OUT)/fuzz/gen_corpus $(OUT)/fuzz/gen_results
	$(Q)$(OUT)/fuzz/gen_corpus tests/fuzz/corpus
	$(Q)mkdir -p tests/fuzz/corpus-results
	$(Q)$(OUT)/fuzz/gen_results tests/fuzz/corpus-results

# `make check` and `make run` start from a bare machine: packages first,
# then a fresh make, so that libbpf.a is found once it is installed.
check: deps
	+$(Q)tests/check --build

# The inner loop: make check's host parts (unit, host, fuzz seeds, the
# sanitizer build), no kernel built and no guest booted.
check-quick: deps
	+$(Q)tests/check --build --quick

# The README's first command: the live view around a built-in workload,
# in the guest. On Debian's 6.12 (the default) nothing but gupstat is
# built and only run's packages come first, so a fresh machine shows
# histograms in minutes; KERNEL=base or batched builds that kernel and
# gup_test.
KERNEL ?= debian-6.12
RUN_DEBIAN := $(filter debian-%,$(KERNEL))
run:
	$(Q)tools/deps $(if $(RUN_DEBIAN),run,kernel)
	$(Q)$(MAKE) -s --no-print-directory all $(if $(RUN_DEBIAN),,selftests)
	$(Q)$(if $(RUN_DEBIAN),,kernel/build $(KERNEL) >/dev/null)
	$(Q)tools/vmrun --kernel $(KERNEL) -- tools/demo

# Benchmarks: long, not part of `make check`; results go in docs/.
bench-overhead: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel selftests
	$(Q)tools/vmrun --kernel base --timeout 3000 -- tools/bench/overhead-guest

# gupstat serve, scraped every second, against the live view.
bench-serve: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel selftests
	$(Q)tools/vmrun --kernel base --timeout 3000 -- tools/bench/overhead-guest 3 8 serve gupstat

# gupstat trace to a 9p share and to one throttled to 512 kB/s (QEMU), its
# losses against a gupstat from before the writer thread (BEFORE, a git
# revision; by default the parent of the commit that added it).
BENCH_DISK	:= $(OUT)/bench-disk
bench-trace-disk: deps
	$(Q)$(MAKE) -s --no-print-directory all selftests kernel
	$(Q)tools/bench/build-before "$(or $(BEFORE),$$(git log --diff-filter=A --format=%H -- src/trace/spool.c | tail -n1)^)" $(BENCH_DISK)/gupstat-before
	$(Q)rm -rf $(BENCH_DISK)/fast $(BENCH_DISK)/slow && mkdir -p $(BENCH_DISK)/fast $(BENCH_DISK)/slow
	$(Q)tools/vmrun --kernel base --timeout 5400 --rw $(BENCH_DISK)/fast --rw-slow $(BENCH_DISK)/slow=524288 -- \
		tools/bench/trace-disk $(BENCH_DISK)/gupstat-before $(BENCH_DISK)/fast $(BENCH_DISK)/slow \
		$(or $(RUNS),20) $(or $(SLOW_RUNS),5)

# Timed A/B: base, walk-only and batched, ROUNDS boots each with an A/A
# boot of base per round (tools/bench/ab); REPEATS per boot (16).
bench-ab: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel selftests
	$(Q)kernel/build walk-only >/dev/null
	$(Q)tools/bench/ab $(or $(REPEATS),16) base walk-only batched

# PTE-lock holds and a competing task's wake-up latency on base and the
# series (on 7.3 the early release is part of the walk patch: no kernel
# without it is built).
bench-hold: deps
	$(Q)$(MAKE) -s --no-print-directory all selftests
	$(Q)kernel/build base batched >/dev/null
	$(Q)tools/bench/hold

# Read-only pins of shmem mTHP: refs per grab and time, with and without
# the series' patch 12.
bench-ro-pin: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)kernel/build base batched-noro batched >/dev/null
	$(Q)tools/bench/ro-pin

# The unpin claim: gupstat validate unpin on base, the series without its
# unpin patch (batched-9) and the whole series; gupstat compare each.
bench-unpin: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)kernel/build base batched-9 batched >/dev/null
	$(Q)tools/bench/unpin

# arm64: the kernels cross-built (kernel/build), booted in
# qemu-system-aarch64 by tools/vmrun with tools/arm64-root as the guest's
# root, running make arm64's gupstat and workloads (docs/arm64.md).
kernel-arm64:
	$(Q)kernel/build base-arm64 batched-arm64 base-arm64-64k batched-arm64-64k >/dev/null

kernel-arm64-debug:
	$(Q)kernel/build base-arm64-debug batched-arm64-debug >/dev/null

debian-kernel-arm64:
	$(Q)tools/debian-kernel debian-6.12-arm64 >/dev/null

# The series on arm64's debug kernels: gupstat's probes, the kernel
# suite, base/batched parity. Long (three cross-built kernels); not
# part of make check.
check-arm64: deps
	+$(Q)tests/check-arm64 --build

# gupstat's guest suite on each of Debian's x86 kernels, 7.2 included
# (make check boots 6.1, 6.12 and 7.3). About 12 min with them cached.
check-debian: deps
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)tools/debian-kernel debian-6.1 debian-6.12 debian-7.2 debian-7.3 >/dev/null
	$(Q)tests/check-debian

# Pin and unpin times, base against batched, with 4 kB pages (contpte)
# and with 64 kB pages (ROUNDS boots of each, 5 by default, A/A included:
# tools/bench/ab), then what gupstat counts of one pin per folio size on
# each kernel. About 5 min on this 2-CPU host with the kernels cached.
bench-ab-arm64: deps
	$(Q)$(MAKE) -s --no-print-directory arm64 selftests-arm64 kernel-arm64
	$(Q)ROUNDS=$(or $(ROUNDS),5) tools/bench/ab $(or $(REPEATS),8) base-arm64 batched-arm64
	$(Q)ROUNDS=$(or $(ROUNDS),5) MEM=3G tools/bench/ab $(or $(REPEATS),8) base-arm64-64k batched-arm64-64k
	$(Q)MEM=3G tools/bench/walk-hists base-arm64 batched-arm64 base-arm64-64k batched-arm64-64k

# make install: the statically linked gupstat (the same objects as
# build/gupstat, linked -static-pie: it runs on any x86-64 Linux with no
# library installed), its man pages (scdoc), its bash completion and its
# systemd service with the service's options file, under
# $(DESTDIR)$(PREFIX) and $(DESTDIR)/etc; make uninstall removes those
# files alone.
# tools/install does both, as install(1) does (docs/install.md).
PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
MAN8DIR		?= $(PREFIX)/share/man/man8
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions
SCDOC		?= scdoc
MAN_PAGES	:= $(patsubst man/%.scd,$(OUT)/man/%,$(wildcard man/*.scd))
# The service (contrib/systemd, installed disabled) goes where systemd
# looks for units of this PREFIX: under /usr, where the distribution's
# systemd.pc says (/lib/systemd/system on Debian 12), else
# PREFIX/lib/systemd/system, which systemd reads too
# (/usr/local/lib/systemd/system). Its options file is read at
# /etc/default/gupstat whatever PREFIX is: the unit names that path.
SYSTEMDUNITDIR	?= $(if $(filter /usr,$(PREFIX)),$(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system),$(PREFIX)/lib/systemd/system)
DEFAULTSDIR	?= /etc/default
INSTALLED	:= $(OUT)/static/gupstat completion/gupstat $(MAN_PAGES) \
		   contrib/systemd/gupstat.service contrib/default/gupstat

$(OUT)/static/gupstat: $(OBJS) $(LIBBPF_A) | $(OUT)/static
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -static-pie -o $@ $(OBJS) $(LIBBPF_A) -lelf -lz -lm -ljson-c -levent

$(OUT)/man/%: man/%.scd | $(OUT)/man
	$(call msg,SCDOC,$@)
	$(Q)command -v $(SCDOC) >/dev/null || { echo "$(SCDOC) not found: run 'make deps' (Debian: scdoc)" >&2; exit 2; }
	$(Q)$(SCDOC) <$< >$@

$(OUT)/static $(OUT)/man:
	$(Q)mkdir -p $@

man: $(MAN_PAGES)

# tools/install reads these from its environment: a DESTDIR with spaces
# or quotes needs no quoting here.
install uninstall: export DESTDIR := $(DESTDIR)
install uninstall: export SBINDIR := $(SBINDIR)
install uninstall: export MAN8DIR := $(MAN8DIR)
install uninstall: export BASHCOMPDIR := $(BASHCOMPDIR)
install uninstall: export SYSTEMDUNITDIR := $(SYSTEMDUNITDIR)
install uninstall: export DEFAULTSDIR := $(DEFAULTSDIR)
install: $(INSTALLED)
	$(Q)tools/install install $(INSTALLED)

uninstall:
	$(Q)tools/install uninstall $(INSTALLED)

# A Debian binary package, build/deb/gupstat_VERSION_amd64.deb, built by
# dpkg-buildpackage from a copy of this tree and checked with lintian.
deb:
	$(Q)tools/deb $(OUT)/deb

# The same under the cache model (tools/vmrun --cache-sim): simulated
# struct page misses per call at 4k and 64k, where no PMU exists.
# ROUNDS and REPEATS set the boots per kernel and repeats per condition.
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
bench-ab-count: deps
	$(Q)$(MAKE) -s --no-print-directory all sim selftests
	$(Q)kernel/build $(AB_COUNT_KERNELS) $(if $(TRACED),$(TRACED),batched-traced) >/dev/null
	$(Q)tools/bench/ab-count $(AB_COUNT_KERNELS)

# The cache model's known patterns, in a guest under it (tests/sim/).
# Not in make check: one boot of five under the model stalled before its
# first pattern (docs/testing.md).
check-sim: deps
	$(Q)$(MAKE) -s --no-print-directory all sim kernel-debug
	$(Q)rm -rf $(OUT)/sim-check && mkdir -p $(OUT)/sim-check
	$(Q)tools/vmrun --kernel base-debug --cache-sim $(OUT)/sim-check --timeout 1800 -- tests/sim/suite

# The batched walk's edge cases alone (tests/kernel/walk), on both debug
# kernels, and their digests compared; also part of make check.
check-walk: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel-debug
	$(Q)tests/check-walk

# The in-guest suite ROUNDS times back to back on every kernel make
# check boots, JOBS boots at a time: tests that fail by chance. Each
# target defaults ROUNDS itself: a global default would reach every
# bench's $(or $(ROUNDS),N) as well.
check-stress: deps
	$(Q)$(MAKE) -s --no-print-directory all kernel-debug debian-kernels selftests
	$(Q)tests/stress $(or $(ROUNDS),5) $(or $(JOBS),2)

clean:
	$(Q)rm -rf $(OUT)

-include $(wildcard $(OUT)/*/*.d $(OUT)/*/*/*.d $(OUT)/*/*/*/*.d)
