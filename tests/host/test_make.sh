#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The build says what is missing in one line, before any compile fails
# on a missing header: libbpf-dev brings both libbpf.a and the headers.
. tests/host/lib.sh

# The compiler's answer when it has no libbpf.a is the bare name.
fails_with "make without libbpf.a" 2 \
	"libbpf.a not found: run 'make deps' \(Debian: libbpf-dev\)" \
	make -s --no-print-directory LIBBPF_A=libbpf.a build/gupstat

# make help names every target a user runs (asan-tree is the asan
# sub-make's own, arm64-tree the arm64 one's), each on one line.
targets=$(sed -n 's/^\([a-z][a-z0-9-]*\):.*/\1/p' Makefile | grep -vx -e asan-tree -e arm64-tree | sort -u)
help=$(make -s --no-print-directory help)
missing=""
for t in $targets; do
	grep -q "^  $t " <<<"$help" || missing="$missing $t"
done
expect_eq "make help lists every target" "$missing" ""

# make check-unit T=NAME runs that one test; an unknown NAME says so.
fails_with "make check-unit T=nosuch" 2 "T=nosuch: no tests/unit/test_nosuch.c" \
	make -s --no-print-directory check-unit T=nosuch
tap_done
