#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# GUP racing mm changes: build/gup-race over every folio size and racer,
# one TAP line per combination. Each run maps a region of that folio
# size and for RACE_SECONDS looks it up through the GUP_TEST ioctls, a
# long-term pin and process_vm_readv() while the racer changes it, and
# checks that every page returned is the page asked for (see
# tools/workload/gup-race.c); then that each corruption --inject makes
# is caught. gup-race sets the THP size knobs and puts
# them back; a killed run could not, so they are compared and restored
# here.
#
# Time: 15 runs of RACE_SECONDS plus set-up each (12 before pageout: near
# 75 s on a non-debug kernel under TCG, near two minutes on a debug
# kernel, where the loop does fewer rounds in the same time but set-up
# and exit take longer), and four --inject runs of 2 s.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/kernel/lib.sh

GUP_RACE=${GUP_RACE:-$BUILD/gup-race}
RACE_SECONDS=${RACE_SECONDS:-5}
# The move and numa racers need two NUMA nodes: tests/kernel/walk boots
# them.
RACE_SIZES=${RACE_SIZES:-4k 64k 2m}
RACE_RACERS=${RACE_RACERS:-mprotect dontneed collapse fork pageout}
# The --inject checks: once per kernel is enough (tests/kernel/walk sets 0).
RACE_INJECT=${RACE_INJECT:-1}
RACE_THP=/sys/kernel/mm/transparent_hugepage

# "FILE VALUE" for every THP enabled knob, VALUE the selected one.
# Bash only: under TCG every exec of a host binary over 9p costs ~0.25 s.
race_knobs() {
	local f v
	for f in "$RACE_THP"/enabled "$RACE_THP"/hugepages-*kB/enabled; do
		[ -f "$f" ] || continue
		read -r v <"$f"
		[[ $v =~ \[([a-z]+)\] ]] && echo "$f ${BASH_REMATCH[1]}"
	done
}

race_restore_knobs() {
	local f v
	while read -r f v; do
		echo "$v" >"$f"
	done <<<"$1"
}

# race_one SIZE RACER: one combination, one TAP line. gup-race stops
# itself after RACE_SECONDS; timeout is for a run that hangs.
race_one() {
	local size=$1 racer=$2 line summary='' n=0 rc=0 whole=${RACE_SECONDS%%.*}
	timeout -k 5 $((${whole:-0} * 4 + 60)) \
		"$GUP_RACE" --size "$size" --racer "$racer" --seconds "$RACE_SECONDS" \
		>"$race_log" 2>&1 || rc=$?
	while IFS= read -r line; do
		[[ $line =~ ^gup-race:\ [0-9]+[kM]\ [a-z]+:\ (.*):\ ok$ ]] &&
			summary=${BASH_REMATCH[1]}
	done <"$race_log"
	# A racer that changed nothing proved nothing: every racer must have
	# run operations that overlapped GUP calls (racer ops, races seen),
	# and done its own thing while pins were held (efault, zeroed,
	# collapse ok, forks while pinned, swapped out, moved, hinting
	# faults). But for pageout at 2 MB: reclaim takes a PMD folio whole
	# or not at all, and the GUP loop nearly always holds a page of it
	# (one run swapped 6 pages on base, one none on batched), so there
	# the count is only reported.
	if [[ $summary =~ (\ 0\ races\ seen|racer\ ops\ 0,) ]] ||
		{ [[ $summary =~ (efault|zeroed|collapse\ ok|forks\ while\ pinned|swapped\ out|pages\ moved|hinting\ faults)\ 0[,\)] ]] &&
			[ "$size $racer" != "2m pageout" ]; }; then
		not_ok "gup-race $size $racer: the racer changed nothing: $summary"
		return
	fi
	if [ "$rc" = 0 ] && [ -n "$summary" ]; then
		ok "gup-race $size $racer: $summary"
		return
	fi
	not_ok "gup-race $size $racer: exit $rc$([ "$rc" = 124 ] && echo ' (timed out)')"
	while IFS= read -r line && [ $((n++)) -lt 40 ]; do
		echo "#   $line"
	done <"$race_log"
}

# race_inject KIND WHAT: --inject corrupts one page per write pass as a
# broken walk would; the run must fail, on the check that names WHAT.
race_inject() {
	local kind=$1 what=$2 rc=0 line
	timeout -k 5 60 "$GUP_RACE" --size 4k --racer dontneed --seconds 2 \
		--mb 2 --inject "$kind" >"$race_log" 2>&1 || rc=$?
	line=$(grep -m1 "^gup-race: FAIL .*$what" "$race_log")
	if [ "$rc" = 1 ] && [ -n "$line" ]; then
		ok "gup-race --inject $kind: caught: ${line#gup-race: FAIL }"
	else
		not_ok "gup-race --inject $kind: exit $rc, no failure saying '$what'"
		diag "$race_log" | head -n 20
	fi
}

race_saved=$(race_knobs)
race_log=/tmp/gup-race.$$.log
if [ ! -x "$GUP_RACE" ]; then
	not_ok "gup-race: $GUP_RACE not built (make)"
else
	[[ " $RACE_RACERS " == *" pageout "* ]] && swap_on "the pageout racer"
	[[ " $RACE_RACERS " == *" numa "* ]] && numa_on "the numa racer"
	for race_size in $RACE_SIZES; do
		for race_racer in $RACE_RACERS; do
			race_one "$race_size" "$race_racer"
		done
	done
	[[ " $RACE_RACERS " == *" pageout "* ]] && swap_off
	[[ " $RACE_RACERS " == *" numa "* ]] && numa_off
	if [ "$RACE_INJECT" = 1 ]; then
		race_inject misplace "misplaced"
		race_inject stale "older generation"
		race_inject zero "zero, and no zap since the write"
		race_inject torn "torn: first word idx [0-9]* gen [0-9]*, last word zero"
	fi
fi
if [ "$(race_knobs)" = "$race_saved" ]; then
	ok "gup-race: THP knobs as they were"
else
	not_ok "gup-race: THP knobs changed; restoring them"
	race_restore_knobs "$race_saved"
fi
rm -f "$race_log"
tap_done
