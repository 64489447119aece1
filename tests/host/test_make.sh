#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The build says what is missing in one line, before any compile fails
# on a missing header: libbpf-dev brings both libbpf.a and the headers.
. tests/host/lib.sh

# The compiler's answer when it has no libbpf.a is the bare name.
fails_with "make without libbpf.a" 2 \
	"libbpf.a not found: run 'make deps' \(Debian: libbpf-dev\)" \
	make -s --no-print-directory LIBBPF_A=libbpf.a build/gupstat
tap_done
