#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The walk's edge cases (tools/workload/walk-edge.c, walk-contend.c,
# walk-devmap.c), in the guest: one TAP line per case, its "reached:"
# lines as comments, its digest kept in $KRESULTS/walk-edge.txt for
# tests/kernel/walk-parity to compare between kernels. WALK_CASES names
# the cases this boot can run (tests/kernel/walk boots twice: ZONE_MOVABLE
# for migrate alone, a 1 GB page and a pmem region for the rest).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/kernel/lib.sh
WALK_EDGE=${WALK_EDGE:-build/walk-edge}
cases=${WALK_CASES:-place softdirty uffd-wp dirty huge1g}
tmp_out=$(mktemp)
tmp_mnt=
trap 'rm -f "$tmp_out"; [ -z "$tmp_mnt" ] || { umount "$tmp_mnt"; rmdir "$tmp_mnt"; } 2>/dev/null' EXIT
PREEMPT=/sys/kernel/debug/sched/preempt

# edge NAME CMD...: run one case's program, its output in $tmp_out; the
# TAP line, its reached: and FAIL: lines, its digest under NAME.
edge() {
	local name=$1 start=$SECONDS rc took
	shift
	"$@" >"$tmp_out" 2>&1
	rc=$?
	grep -E '^(reached|FAIL):' "$tmp_out" | sed 's/^/# /'
	sed -n "s/^digest: [a-z0-9-]* /$name /p" "$tmp_out" >>"$KRESULTS/walk-edge.txt"
	took="$((SECONDS - start)) s"
	case $rc in
	0) ok "walk-edge $name ($took)" ;;
	# Booted for it by tests/kernel/walk: a case that cannot run fails.
	77) not_ok "walk-edge $name could not run: $(sed -n 's/^SKIP: //p' "$tmp_out")" ;;
	*) not_ok "walk-edge $name: exit $rc ($(grep -c '^FAIL:' "$tmp_out") failures, $took)"
	   tail -n 5 "$tmp_out" | diag ;;
	esac
	return "$rc"
}

# early FILE: walks ended early in walk-contend under gupstat. It pins
# 256 present PTEs of one table at a time, so the batched walk covers a
# pin in one follow_page_pte() call unless it lets the lock go, which it
# checks every 32 PTEs: calls of 32 pages or more beyond one per pin (the
# "reached:" line counts the pins; the process's other walks are a page
# or two).
early() {
	local calls pinned
	calls=$(records "$1" | jq -rs '[.[] | select(.type == "hist" and .data.metric == "walk_pages")] | last |
		[.data.buckets[]? | select(.low >= 32) | .count] | add // 0')
	pinned=$(sed -n 's/^reached: .* while \([0-9]*\) pins of 256 pages .*/\1/p' "$1")
	echo $((calls - ${pinned:-0}))
}

# contend: walk-contend under gupstat, the waiter's arm against its
# control. spin_needbreak() is live only under a preemptible model, so on
# a kernel that can switch to preempt=none (PREEMPT_DYNAMIC on 6.x) the
# control is none and the arm full, the same workload. 7.x x86 offers
# lazy and full only (PREEMPT_NONE needs ARCH_NO_PREEMPT): there the
# model stays and the control is walk-contend apart, its contender
# faulting tables of its own (the same load, no waiter on the walk's
# locks). spin_needbreak() is live under lazy and full alike on 7.x. On
# batched the waiter's arm must end more walks early than the control,
# summed over CONTEND_PAIRS=5 pairs, by more than two standard
# deviations of the difference of two Poisson counts (d^2 > 4 (on +
# off)): with no effect of the waiter, a pass about once in 44. Walks
# ended early (docs/testing.md): 6.12, none 7, 3, 11, 4 and full 28, 30,
# 40, 37 a run; 7.3, apart 16 and same 100 in three pairs, then apart 28
# and same 56 (which failed the old "more than twice" rule, passes this
# one). On base one pair: the check is exact.
contend_arms() {
	if echo none >"$PREEMPT" 2>/dev/null && grep -q '(none)' "$PREEMPT"; then
		CONTEND_OFF="none same" CONTEND_ON="full same"
	else
		CONTEND_OFF="- apart" CONTEND_ON="- same"
	fi
}

# contend_run "MODEL WHERE": one walk-contend under gupstat; its early
# walks in N, the arm's name (the model, or where it faults) in ARM.
contend_run() {
	local model=${1% *} where=${1#* }
	ARM=$model
	if [ "$model" = - ]; then ARM=$where; else echo "$model" >"$PREEMPT"; fi
	edge "contend-$ARM" "$GUPSTAT" -j -e none -- build/walk-contend "$where"
	n=$(early "$tmp_out")
	max+="${max:+ }$(hist "$tmp_out" walk_pages max)"
}

case_contend() {
	local was n d pairs=1 sum_off=0 sum_on=0 seen="" max="" off on ARM
	if [ ! -w "$PREEMPT" ]; then
		not_ok "walk-edge contend could not run: no $PREEMPT (kernel without CONFIG_PREEMPT_DYNAMIC)"
		return
	fi
	[ "$WALK_BATCHED" = 1 ] && pairs=${CONTEND_PAIRS:-5}
	was=$(sed 's/.*(\(.*\)).*/\1/' "$PREEMPT")
	contend_arms
	echo "$was" >"$PREEMPT"
	for _ in $(seq "$pairs"); do
		contend_run "$CONTEND_OFF"
		seen+="${seen:+, }$ARM $n" sum_off=$((sum_off + n)) off=$ARM
		contend_run "$CONTEND_ON"
		seen+=", $ARM $n" sum_on=$((sum_on + n)) on=$ARM
	done
	echo "$was" >"$PREEMPT"
	if [ "$WALK_BATCHED" = 1 ]; then
		echo "# contend ($was at boot): walks ended early per run: $seen"
		d=$((sum_on - sum_off))
		if [ "$d" -gt 0 ] && [ $((d * d)) -gt $((4 * (sum_on + sum_off))) ]; then
			ok "batched: with a waiter on the PTE lock ($on), more walks ended early than without ($off) in $pairs pairs, by over two sigma ($sum_on, $sum_off): spin_needbreak() let it go"
		else
			not_ok "batched: in $pairs pairs $on ended $sum_on walks early, $off $sum_off: not two sigma apart, no sign of spin_needbreak()"
		fi
	else
		expect_eq "base: one page per follow_page_pte() call under contention" "$max" "1 1"
	fi
}

# devmap: an ext4 on the boot's pmem region (memmap=S!O), mounted -o dax
# (which needs blocks of a page: mkfs picks 1 kB for a small device).
case_devmap() {
	if [ ! -b /dev/pmem0 ]; then
		not_ok "walk-edge devmap could not run: no /dev/pmem0 (kernel without CONFIG_ZONE_DEVICE, CONFIG_BLK_DEV_PMEM or CONFIG_X86_PMEM_LEGACY, or a boot without memmap=S!O)"
		return
	fi
	tmp_mnt=$(mktemp -d)
	if ! mkfs.ext4 -q -F -b 4096 -E nodiscard /dev/pmem0 >"$tmp_out" 2>&1 ||
		! mount -t ext4 -o dax=always /dev/pmem0 "$tmp_mnt" >>"$tmp_out" 2>&1; then
		not_ok "walk-edge devmap could not run: ext4 -o dax on /dev/pmem0: $(tail -n1 "$tmp_out")"
		rmdir "$tmp_mnt"
		tmp_mnt=
		return
	fi
	edge devmap build/walk-devmap "$tmp_mnt"
	umount "$tmp_mnt" && rmdir "$tmp_mnt"
	tmp_mnt=
}

before=$(pins)
for c in $cases; do
	case $c in
	contend) case_contend ;;
	devmap) case_devmap ;;
	*) edge "$c" "$WALK_EDGE" "$c" ;;
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
