#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The build says what is missing in one line, before any compile fails
# on a missing header: libbpf-dev brings both libbpf.a and the headers.
. tests/host/lib.sh

# The compiler's answer when it has no libbpf.a is the bare name.
fails_with "make without libbpf.a" 2 \
	"libbpf.a not found: run 'make deps' \(Debian: libbpf-dev\)" \
	make -s --no-print-directory LIBBPF_A=libbpf.a build/gupstat

# make help names every target a user runs, each on one line: every
# target of a rule or a .PHONY list in the Makefile and mk/*.mk
# (asan-tree is the asan sub-make's own, arm64-tree the arm64 one's).
mk=(Makefile mk/*.mk)
targets=$({
	sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' "${mk[@]}"
	sed -n -e :a -e '/\\$/{N;ba' -e '}' -e 's/\\\n//g' -e 's/^\.PHONY://p' "${mk[@]}" | tr -s ' \t' '\n'
} | grep -v '^$' | grep -vx -e asan-tree -e arm64-tree | sort -u)
help=$(make -s --no-print-directory help)
missing=""
for t in $targets; do
	grep -q "^  $t " <<<"$help" || missing="$missing $t"
done
expect_eq "make help lists every target" "$missing" ""

# ... and is what the Makefiles' comments say, no more: one line per
# `## text` comment, one heading per `##@` one, no line without its text.
want=$(grep -h '^## ' "${mk[@]}" | wc -l)
got=$(grep -c '^  [a-z]' <<<"$help")
expect_eq "make help has a line per ## comment" "$got" "$want"
want=$(sed -n 's/^##@ *//p' "${mk[@]}" | sort -u | wc -l)
got=$(grep -c '^[A-Z][^:]*:$' <<<"$help")
expect_eq "make help has a heading per ##@ heading" "$got" "$want"
bad=$(grep -vE '^([A-Z][^:]*:|  [a-z][a-z0-9-]* +[^ ].*)$' <<<"$help")
expect_eq "no make help line without its text" "$bad" ""

# make check-unit T=NAME runs that one test; an unknown NAME says so.
fails_with "make check-unit T=nosuch" 2 "T=nosuch: no tests/unit/test_nosuch.c" \
	make -s --no-print-directory check-unit T=nosuch
tap_done
