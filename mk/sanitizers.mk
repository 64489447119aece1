# SPDX-License-Identifier: GPL-2.0
# The builds under sanitizers: gupstat and the unit tests again with
# ASan and UBSan (make asan, which make check and make check-quick run
# the tests on), and the libFuzzer targets with their seed corpora.

.PHONY: asan asan-tree fuzz-check fuzz fuzz-corpus

# gupstat and the unit tests built again with ASan and UBSan, in their
# own tree (build/asan/) over the normal build's BPF skeletons: make
# check's asan part runs the unit tests and the host tests of hostile
# input against it (tests/asan/run). Any finding aborts the program.
# clang: gcc 12's UBSan ignores log_path and writes its reports to the
# tests' stderr, where tests/asan/test_reports.sh would not see them.
SAN_CC		?= clang
SAN_FLAGS	:= -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

##@ Building
# The skeletons first, here: a parallel make must not build them twice.
## gupstat and the unit tests again with ASan and UBSan (build/asan/)
asan: $(SKELS)
	$(Q)$(MAKE) --no-print-directory OUT=$(OUT)/asan BPF_OUT=$(OUT) CC=$(SAN_CC) \
		LIBBPF_A=$(LIBBPF_A) CFLAGS="$(SAN_FLAGS) $(CFLAGS)" asan-tree

# Only inside the sub-make above, where OUT is the sanitized tree.
asan-tree: $(OUT)/gupstat $(UNIT_BINS)

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

$(OUT)/fuzz:
	$(Q)mkdir -p $@

##@ Testing
## each fuzzer's seeds, then FUZZ_TIME (30) seconds each
fuzz-check: $(FUZZERS)
	$(Q)FUZZ_TIME=$(or $(FUZZ_TIME),30) tests/lib/harness fuzz tests/fuzz/run -- $(OUT)/fuzz

## the same, FUZZ_TIME (600) seconds each
fuzz: $(FUZZERS)
	$(Q)FUZZ_TIME=$(or $(FUZZ_TIME),600) tests/lib/harness fuzz tests/fuzz/run -- $(OUT)/fuzz

## rewrite the fuzzers' seed corpora
fuzz-corpus: $(OUT)/fuzz/gen_corpus $(OUT)/fuzz/gen_results
	$(Q)$(OUT)/fuzz/gen_corpus tests/fuzz/corpus
	$(Q)mkdir -p tests/fuzz/corpus-results
	$(Q)$(OUT)/fuzz/gen_results tests/fuzz/corpus-results
