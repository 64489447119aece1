#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The walk's edge cases (tools/workload/walk-edge.c), in the guest: one
# TAP line per case, its "reached:" lines as comments, its digest kept in
# $KRESULTS/walk-edge.txt for tests/kernel/walk-parity to compare between
# kernels. WALK_CASES names the cases this boot can run (tests/kernel/walk
# boots twice: ZONE_MOVABLE for migrate alone, a 1 GB page for the rest).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/kernel/lib.sh
WALK_EDGE=${WALK_EDGE:-build/walk-edge}
cases=${WALK_CASES:-place softdirty uffd-wp dirty huge1g}
tmp_out=$(mktemp)
trap 'rm -f "$tmp_out"' EXIT

before=$(pins)
for c in $cases; do
	start=$SECONDS
	"$WALK_EDGE" "$c" >"$tmp_out" 2>&1
	rc=$?
	grep -E '^(reached|FAIL):' "$tmp_out" | sed 's/^/# /'
	grep '^digest: ' "$tmp_out" | sed 's/^digest: //' >>"$KRESULTS/walk-edge.txt"
	took="$((SECONDS - start)) s"
	case $rc in
	0) ok "walk-edge $c ($took)" ;;
	# Booted for it by tests/kernel/walk: a case that cannot run fails.
	77) not_ok "walk-edge $c could not run: $(sed -n 's/^SKIP: //p' "$tmp_out")" ;;
	*) not_ok "walk-edge $c: exit $rc ($(grep -c '^FAIL:' "$tmp_out") failures, $took)"
	   tail -n 5 "$tmp_out" | sed 's/^/#   /' ;;
	esac
done
# The walk these cases drive, seen by gupstat: pages per follow_page_pte()
# call while walk-edge places and pins (1 on base; runs on batched).
case " $cases " in
*" place "*)
	"$GUPSTAT" -j -e none -- "$WALK_EDGE" place >"$tmp_out" 2>/dev/null
	got=$(buckets "$tmp_out" walk_pages)
	echo "# place under gupstat: pages per follow_page_pte() call (low:count): $got"
	max=$(hist "$tmp_out" walk_pages max)
	if [ "$WALK_BATCHED" = 1 ]; then
		[ "${max:-0}" -gt 16 ] && ok "batched: the place case's walks took runs of pages (max $max per call)" ||
			not_ok "batched: no walk of more than 16 pages in the place case (max ${max:-none})"
	else
		expect_eq "base: one page per follow_page_pte() call in the place case" "${max:-none}" 1
	fi
	;;
esac
expect_eq "pins balanced after the cases (acquired - released)" "$(pins)" "$before"
tap_done
