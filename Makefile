# SPDX-License-Identifier: GPL-2.0
# gupstat: `make` builds the tool, `make check` runs every test.
#
# This file is the build (gupstat, its BPF objects and skeletons, the
# workloads, the unit tests) and the host test loop; the rest is
# included from mk/, one concern per file:
#
#   mk/sim.mk         the cache-model plugin for QEMU and its helpers
#   mk/sanitizers.mk  the ASan/UBSan tree (make asan) and the fuzzers
#   mk/kernels.mk     the x86 guest kernels, their selftests, vmlinux.h
#   mk/guests.mk      the guest suites run alone or again (check-walk...)
#   mk/bench.mk       make run and the benchmarks
#   mk/arm64.mk       all of the above that is arm64's
#   mk/install.mk     make install, the man pages, the Debian package
#
# `make help` prints the `## text` line above each target, under the
# `##@ Heading` above it in its file (mk/help.awk).

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
# The CPU's own event names for -e (kernel/pmu_pfm.c), linked statically
# as libbpf is; a tree without it (make arm64's, unless its root has
# libpfm4-dev) builds without them.
LIBPFM_A	?= $(shell $(CC) -print-file-name=libpfm.a 2>/dev/null)
ifeq ($(LIBPFM_A),libpfm.a)
LIBPFM_A	:=
endif
# elfutils' libdw, for report's source lines (kernel/dwarf.c), linked
# statically as libbpf is, with the compressors it reads sections
# through: a user without debug info needs none of them installed.
# libelf and zlib stay shared, as libbpf has them.
LIBDW_A_LIBS	:= -ldw -lbz2 -llzma
LIBDW_LIBS	?= -Wl,-Bstatic $(LIBDW_A_LIBS) -Wl,-Bdynamic
# What gupstat, the unit tests and the catalogue generator link.
USER_LIBS	= $(LIBBPF_A) $(LIBPFM_A) $(LIBDW_LIBS) -lelf -lz -lm -ljson-c -levent
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
# Each workload is one program; folio_confirm.c and edge.c are the
# library they share, with gupstat's own folio and pagemap readers
# (src/kernel/), which gupstat validate uses too.
WORK_LIB_SRCS	:= tools/workload/folio_confirm.c tools/workload/edge.c
WORK_KERNEL_SRCS := src/kernel/folio.c src/kernel/pagemap.c
WORK_LIB	:= $(patsubst tools/workload/%.c,$(OUT)/workload/%.o,$(WORK_LIB_SRCS)) \
		   $(patsubst src/kernel/%.c,$(OUT)/workload/kernel/%.o,$(WORK_KERNEL_SRCS))
WORK_PROGS	:= $(patsubst tools/workload/%.c,$(OUT)/%, \
			$(filter-out $(WORK_LIB_SRCS),$(WORK_SRCS)))
UNIT_SRCS	:= $(wildcard tests/unit/test_*.c)
UNIT_BINS	:= $(patsubst tests/unit/%.c,$(OUT)/tests/%,$(UNIT_SRCS))
# Everything in src/ but main() is linked into the unit tests.
LIB_OBJS	:= $(filter-out $(OUT)/src/main.o,$(OBJS))

.DELETE_ON_ERROR:
.SECONDARY: $(BPF_OBJS) $(VALIDATE_OBJS) $(SKELS:.skel.h=.bpf.o)
.PHONY: all unit-tests catalog deps check check-quick check-unit lint clean help

##@ Building
## build/gupstat and the workloads (the default)
all: $(OUT)/gupstat $(WORK_PROGS)

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

$(OUT)/src/kernel/pmu_pfm.o: USER_CFLAGS += $(if $(LIBPFM_A),-DHAVE_LIBPFM)

$(OUT)/src/%.o: src/%.c | $(OBJ_DIRS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(OUT)/gupstat: $(OBJS) $(LIBBPF_A)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(GUPSTAT_LDFLAGS) -o $@ $(OBJS) $(USER_LIBS)

$(OUT)/workload/%.o: tools/workload/%.c | $(OUT)/workload
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS_COMMON) -Iinclude -Isrc $(CFLAGS) -c $< -o $@

# gupstat's own folio and pagemap readers, compiled again as the
# workloads are: no skeleton, no BPF toolchain needed for them.
$(OUT)/workload/kernel/%.o: src/kernel/%.c | $(OUT)/workload/kernel
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS_COMMON) -Iinclude -Isrc $(CFLAGS) -c $< -o $@

# Static: the workloads run in the guest and on any test machine.
$(WORK_PROGS): $(OUT)/%: $(OUT)/workload/%.o $(WORK_LIB)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -static -o $@ $^ -lpthread

$(OUT)/tests/test_%: tests/unit/test_%.c $(LIB_OBJS) $(LIBBPF_A) | $(OUT)/tests
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -Itests/unit -Itests/lib -o $@ $< $(LIB_OBJS) $(USER_LIBS)

$(BPF_OUT)/bpf/validate $(OBJ_DIRS) $(OUT)/workload $(OUT)/workload/kernel $(OUT)/tests:
	$(Q)mkdir -p $@

## the C unit tests, build/tests/test_*
unit-tests: $(UNIT_BINS) $(OUT)/tests/silent.elf $(OUT)/catalog-gen

# The catalogue as JSON, from which tools/catalog/update writes what
# restates it (make catalog) and the host tests check it.
$(OUT)/catalog-gen: tools/catalog/gen.c $(LIB_OBJS) $(LIBBPF_A)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) -o $@ $< $(LIB_OBJS) $(USER_LIBS)

# From the catalogue (src/probe/catalog.c, src/probe/probes.h), written
# between marker lines: what the docs, a man page and the schema restate;
# then, from the -j schemas, the man pages' OUTPUT FIELDS.
## rewrite the docs', man pages' and schema's generated parts from the catalogue
catalog: $(OUT)/catalog-gen
	$(Q)tools/catalog/update $(OUT)/catalog-gen
	$(Q)tools/catalog/fields

# A guest image that never prints, for tests/test-vmrun.
$(OUT)/tests/silent.elf: tests/data/silent.S | $(OUT)/tests
	$(call msg,AS,$@)
	$(Q)$(CC) -m32 -nostdlib -static -Wl,-Ttext=0x100000 -Wl,--build-id=none -o $@ $<

## install the Debian packages the build and tests need
deps:
	$(Q)tools/deps

##@ Testing
# `make check` and `make run` start from a bare machine: packages first,
# then a fresh make, so that libbpf.a is found once it is installed.
## every test: unit, host, fuzz, asan, and the guests (long)
check: deps
	+$(Q)tests/check --build

# The inner loop: make check's host parts (unit, host, fuzz seeds, the
# sanitizer build), no kernel built and no guest booted.
## unit, host, fuzz seeds and asan: make check without kernels or guests
check-quick: deps
	+$(Q)tests/check --build --quick

# make check-unit T=NAME: build/tests/test_NAME alone, as `perf test NAME`.
ifneq ($(filter check-unit,$(MAKECMDGOALS)),)
ifneq ($(T),)
ifeq ($(wildcard tests/unit/test_$(T).c),)
$(error T=$(T): no tests/unit/test_$(T).c)
endif
endif
endif
CHECK_UNIT_BINS	:= $(if $(T),$(OUT)/tests/test_$(T),$(UNIT_BINS))

## the unit tests; T=NAME runs build/tests/test_NAME alone
check-unit: $(if $(T),$(CHECK_UNIT_BINS),unit-tests)
	$(Q)tests/lib/harness unit $(CHECK_UNIT_BINS)

# shellcheck on every shell script; make check runs the same per script
# (tests/host/test_lint.sh).
## shellcheck on every shell script (make check runs it too)
lint:
	$(Q)tools/lint

##@ Installing
## remove build/
clean:
	$(Q)rm -rf $(OUT)

# One line per target; docs/testing.md says which tests each runs. Each
# `## text` line is the line of the target below it; `##@ Heading`
# starts a group, printed in HELP_HEADINGS' order (any other after them).
# A `## text` line above anything but a target fails make help.
HELP_HEADINGS	:= Building:Testing:Running and measuring:Installing
## this list
help:
	@awk -v order='$(HELP_HEADINGS)' -f mk/help.awk $(HELP_FILES)

include mk/sim.mk
include mk/sanitizers.mk
include mk/kernels.mk
include mk/guests.mk
include mk/bench.mk
include mk/arm64.mk
include mk/install.mk
# The Makefiles make help reads: these, not the .d files below.
HELP_FILES	:= $(MAKEFILE_LIST)

-include $(wildcard $(OUT)/*/*.d $(OUT)/*/*/*.d $(OUT)/*/*/*/*.d)
