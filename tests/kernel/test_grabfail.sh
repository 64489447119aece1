#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A grab that fails part-way through a walk (build/walk-grabfail), where
# the kernel has the grab-failure hook of kernel/patches/local: make
# check's fill part runs this file on batched-traced-debug. Each lookup
# (process_vm_readv() and PIN_BASIC_TEST of 4 kB, 64 kB and 2 MB folios,
# failing at the first grab and at the third) is one case: the pages it
# returned and the pins it took and dropped must be those of the grabs
# before the failing one. Then no pin may be outstanding.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
before=$(pins)
# Base grabs a page at a time; the batched walk a folio's run at once.
FOLLOW_REFS=$([ "$WALK_BATCHED" = 1 ] && echo 0 || echo 1) build/walk-grabfail >"$out" 2>&1
rc=$?
if [ "$rc" = 77 ]; then
	not_ok "walk-grabfail could not run: $(sed -n 's/^SKIP: //p' "$out")"
else
	while IFS= read -r line; do
		case $line in
		"pass: "*) ok "walk-grabfail ${line#pass: }" ;;
		"FAIL: "*) not_ok "walk-grabfail ${line#FAIL: }" ;;
		"reached: "*) not_ok "walk-grabfail ${line#reached: }" ;;
		esac
	done <"$out"
	expect_eq "walk-grabfail: lookups judged (3 folio sizes, 2 failing grabs, 2 entry points)" \
		"$(grep -c '^\(pass\|FAIL\): ' "$out")" 12
	expect_eq "walk-grabfail: exit status" "$rc" 0
fi
expect_eq "walk-grabfail: pins outstanding after it, against before" "$(pins)" "$before"
tap_done
