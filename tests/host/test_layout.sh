#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The source layout the docs promise: a directory per subcommand over
# src/util, and no source file left at the top of src/ but main.c.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

for d in live trace report validate compare util tracefile; do
	[ -n "$(ls src/$d/*.c 2>/dev/null)" ] && ok "src/$d has sources" || not_ok "src/$d has no sources"
done
top=$(cd src && ls ./*.c | grep -v '^./main.c$' | tr '\n' ' ')
expect_eq "no source at the top of src/ but main.c" "$top" ""
tap_done
