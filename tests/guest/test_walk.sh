#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat's numbers against workloads of known size.
# On an unpatched kernel follow_page_pte() looks up one PTE per call, so a region of
# N 4 kB pages walked once is exactly N calls of one page each, and each
# page is grabbed with one ref; unpin releases per folio.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
LOCK_FUNC=$(lock_func)

log=$(mktemp)
err=$(mktemp)
wlog=$(mktemp)
MB=64
PAGES=$((MB * 256))

show_logs() {
	diag "$err" "$wlog"
	tail -c 2000 "$log" | diag
}

# run_case NAME "GUPSTAT_OPTS" GUPWORK_ARGS...: 0 when the run worked:
# gupstat -j OPTS -p attached to the waiting workload (lib.sh held_run),
# so that what is counted is the workload's GUP alone. gupwork exits 3
# when part of its region was collapsed into PMD-mapped THP behind its
# back (khugepaged) and its numbers no longer describe the folio size
# chosen: that run is repeated once, saying so.
run_case() {
	local name=$1 opts=$2 rc
	shift 2
	held_run "$log" "$err" "$wlog" "-j $opts" "$@" && return 0
	rc=$?
	if [ $rc = 3 ]; then
		echo "# $name: $(grep 'PMD-mapped' "$wlog"); once more"
		held_run "$log" "$err" "$wlog" "-j $opts" "$@" && return 0
	fi
	not_ok "$name: gupstat or the workload failed"
	show_logs
	return 1
}

# expect_hist NAME HIST FIELD WANT
expect_hist() {
	expect_eq "$1: $2 $3" "$(hist "$log" "$2" "$3")" "$4" "$log"
}

# expect_bucket NAME HIST LOW WANT
expect_bucket() {
	local got
	got=$(bucket "$log" "$2" "$3")
	[ "$got" = "$4" ] && ok "$1: $2 bucket $3 ($got)" ||
		{ not_ok "$1: $2 bucket $3: got $got, want $4; buckets $(buckets "$log" "$2")"; show_logs; }
}

# Which kernel (lib.sh): base walks one PTE per follow_page_pte() call;
# the batched series walks up to a page table (512 PTEs) per call and
# grabs a same-folio run with one try_grab_folio().
# process_vm_readv pins 1024 pages per __get_user_pages() call: two page
# tables' worth, so the batched walk takes two calls per pin call.
if [ $WALK_BATCHED = 1 ]; then WALK_CALLS=$((PAGES / 512)) WALK_BATCH=512
else WALK_CALLS=$PAGES WALK_BATCH=1; fi

# walk_checks NAME GRAB_REFS: the walk, its holds, grabs of GRAB_REFS refs.
walk_checks() {
	local name=$1 refs=$2 calls
	calls=$(hist "$log" walk_pages count)
	expect_calls "$name: walk_pages count" "$calls" $WALK_CALLS "$log"
	expect_hist "$name" walk_pages sum $PAGES
	expect_full "$name: walk_pages bucket $WALK_BATCH" \
		"$(bucket "$log" walk_pages $WALK_BATCH)" "$calls" $WALK_CALLS
	expect_hist "$name" walk_hold_ns count "$calls"
	expect_hist "$name" 'grab_refs{foll=pin}' sum $PAGES
	expect_bucket "$name" 'grab_refs{foll=pin}' "$refs" $((PAGES / refs))
	expect_eq "$name: FOLL_PIN calls" "$(counter "$log" gup_calls.pin)" $((PAGES / 1024)) "$log"
	expect_hist "$name" 'gup_returned_pages{kind=pin}' sum $PAGES
	# unpin_user_pages_dirty_lock() calls unpin_user_pages() when there
	# is nothing to dirty, as for process_vm_readv.
	expect_hist "$name" 'unpin_pages{function=unpin_user_pages_dirty_lock}' sum $PAGES
	expect_hist "$name" 'unpin_pages{function=unpin_user_pages}' sum $PAGES
	expect_eq "$name: no return without its entry" "$(counter "$log" state_misses)" 0 "$log"
	[ $FILL_TRACED = 1 ] || return 0
	# Every page stored goes through gup_fill_pages(), a run at a time.
	expect_hist "$name" fill_pages sum $PAGES
}

name="readv 4k"
if run_case "$name" "" --folio 4k --size $MB readv; then
	walk_checks "$name" 1
	expect_bucket "$name" put_refs 1 $PAGES
	grep -q '"method":"fentry+fexit' "$log" && ok "$name: method fentry+fexit named" ||
		not_ok "$name: method not named"
fi

name="readv 4k kprobes (-k)"
if run_case "$name" "-k" --folio 4k --size $MB readv; then
	walk_checks "$name" 1
	grep -q '"method":"kprobe+kretprobe' "$log" && ok "$name: method kprobe+kretprobe named" ||
		not_ok "$name: method not named"
fi

# The walk's entry state without trace, --waits or --lock-exact is a
# per-CPU slot, the walk's only while its task stays on the CPU: a walk
# whose task moved to another CPU between entry and exit is a state
# miss, counted, and its pages are not. A CPU hog on every vCPU switches
# the workload out at ticks and moves it, some of it inside walks. On
# base (a page a walk) walks and misses add up to the region exactly; on
# the batched kernel a missed walk's pages are unknown, so the pages fall
# short by a miss or more, and by none without one.
name="readv 4k beside CPU hogs"
hogs=()
for ((cpu = 0; cpu < $(nproc); cpu++)); do
	taskset -c $cpu sh -c 'while :; do :; done' &
	hogs+=($!)
done
if run_case "$name" "" --folio 4k --size $MB readv; then
	misses=$(counter "$log" state_misses)
	echo "# $name: $misses state misses"
	if [ $WALK_BATCHED = 1 ]; then
		sum=$(hist "$log" walk_pages sum)
		[ "$misses" = 0 ] && expect_eq "$name: every page walked, no miss" "$sum" $PAGES "$log" ||
			{ [ "$sum" -lt $PAGES ] && ok "$name: $misses misses, $sum of $PAGES pages" ||
				not_ok "$name: $misses misses and still $sum of $PAGES pages"; }
	else
		expect_eq "$name: walks and state misses add up to the pages" \
			$(($(hist "$log" walk_pages count) + misses)) $PAGES "$log"
		expect_eq "$name: pages walked and missed add up" \
			$(($(hist "$log" walk_pages sum) + misses)) $PAGES "$log"
	fi
	expect_eq "$name: a hold per counted walk" "$(hist "$log" walk_hold_ns count)" \
		"$(hist "$log" walk_pages count)" "$log"
fi
kill "${hogs[@]}"
wait "${hogs[@]}" 2>/dev/null

# 64 kB mTHP: base grabs each page alone; the batched walk grabs a
# folio's 16 pages with one ref grab. Unpin releases a folio's 16 pins
# with one gup_put_folio() on both.
name="readv 64k mTHP"
if ! have_mthp; then
	skip "$name: no per-size mTHP controls in $(uname -r) (test_promised.sh requires them on ours)"
elif run_case "$name" "" --folio 64k --size $MB readv; then
	walk_checks "$name" "$([ "$WALK_BATCHED" = 1 ] && echo 16 || echo 1)"
	expect_bucket "$name" put_refs 16 $((PAGES / 16))
fi

# Read-only shared memory of 64 kB shmem folios (gupwork --shared: an
# anonymous MAP_SHARED region, written, then made PROT_READ), pinned
# without FOLL_WRITE by process_vm_readv(). The folios are not anonymous,
# so gup_must_unshare() does not look at each page, and the batched
# series grabs a folio's 16 read-only pages at once as it does writable
# ones; base grabs each page alone.
name="readv 64k shmem read-only"
if ! have_shmem_mthp; then
	skip "$name: no per-size shmem mTHP controls in $(uname -r) (required on ours: test_promised.sh)"
elif run_case "$name" "" --shared --folio 64k --size $MB readv; then
	walk_checks "$name" "$([ "$WALK_BATCHED" = 1 ] && echo 16 || echo 1)"
	expect_bucket "$name" put_refs 16 $((PAGES / 16))
fi

# MADV_POPULATE_READ asks for the whole range in one GUP call without a
# pages array: the batched walk covers a page table per call.
name="populate-read 4k"
if run_case "$name" "" --folio 4k --size $MB populate-read; then
	calls=$(hist "$log" walk_pages count)
	expect_calls "$name: walk_pages count" "$calls" $WALK_CALLS "$log"
	expect_full "$name: walk_pages bucket $WALK_BATCH" \
		"$(bucket "$log" walk_pages $WALK_BATCH)" "$calls" $WALK_CALLS
	expect_hist "$name" walk_pages sum $PAGES
	expect_eq "$name: no-ref GUP returned every page" "$(hist "$log" 'gup_returned_pages{kind=noref}' sum)" $PAGES "$log"
	expect_hist "$name" 'grab_refs{foll=pin}' count 0
fi

# A 2 MB THP is mapped by a PMD: the walk never reaches follow_page_pte(),
# and each folio is pinned and unpinned as a whole.
name="readv 2M THP"
if run_case "$name" "" --folio 2m --size $MB readv; then
	expect_hist "$name" walk_pages count 0
	expect_hist "$name" 'grab_refs{foll=pin}' sum $PAGES
	expect_hist "$name" 'gup_returned_pages{kind=pin}' sum $PAGES
	expect_bucket "$name" put_refs 512 $((MB / 2))
fi

# A kernel with neither lock function (6.1 takes the PTE lock in a
# macro) has no start for the exact hold: refused in one line.
name="--lock-exact"
if [ -z "$LOCK_FUNC" ]; then
	fails_with "$name without a PTE-lock function" 1 \
		"^gupstat: --lock-exact: cannot trace __pte_offset_map_lock: not in this kernel" \
		$GUPSTAT --lock-exact -d 1
elif run_case "$name" "--lock-exact" --folio 4k --size $MB readv; then
	expect_calls "$name: walk_hold_ns count" "$(hist "$log" walk_hold_ns count)" $WALK_CALLS "$log"
	grep -q "exact: from $LOCK_FUNC() return" "$log" && ok "$name: the method names $LOCK_FUNC()" ||
		not_ok "$name: exact method from $LOCK_FUNC() not named"
fi
# The label comes from the command line; what the BPF side measures
# comes from its read-only data. Read that back from the loaded
# programs: lock_exact must be set with --lock-exact and clear without,
# or the holds would be the upper bound under the exact label.
# lock_exact_loaded ARGS...: "true" or "false", as the kernel holds it.
lock_exact_loaded() {
	local id v pid
	$GUPSTAT "$@" -d 60 >/dev/null 2>"$err" &
	pid=$!
	wait_for "Hit Ctrl-C" "$err" 60
	# The newest: an earlier gupstat's maps may outlive it for a while.
	id=$(bpftool map show | awk -F: '/ name gupstat_\.rodata / { id = $1 } END { print id }')
	v=$(bpftool map dump id "${id:-none}" 2>/dev/null | grep -o '"lock_exact": [a-z]*' | cut -d' ' -f2)
	kill "$pid" 2>/dev/null
	wait "$pid"
	echo "${v:-unreadable}"
}
if [ -n "$LOCK_FUNC" ]; then
	expect_eq "--lock-exact: the loaded programs measure from the lock" "$(lock_exact_loaded --lock-exact)" true "$err"
	expect_eq "without it: from follow_page_pte()'s entry" "$(lock_exact_loaded)" false "$err"
fi

# gupstat -- COMMAND counts the command and its children from its exec
# on, which includes exec's own argument-page lookups; the same command
# line over twice the memory must differ by exactly the extra pages
# walked (the calls are not exact on the batched kernel, whose walk may
# end early). Without CONFIG_GUP_TEST, gupwork's readv is the command.
command_calls() {
	if have_gup_test; then
		$GUPSTAT -j -- $GUPWORK --folio 4k --size "$1" exec -- \
			$GUP_TEST -L -m "$1" -n $(($1 * 256)) -r 1 >"$log" 2>"$err"
	else
		$GUPSTAT -j -- $GUPWORK --folio 4k --size "$1" readv >"$log" 2>"$err"
	fi && hist "$log" walk_pages sum
}
c64=$(command_calls 64)
c128=$(command_calls 128)
expect_eq "gupstat -- COMMAND: 128 MB minus 64 MB run, pages walked" "$((c128 - c64))" $PAGES "$log"
if have_gup_test; then
	expect_eq "gup_test -L: FOLL_LONGTERM counted" "$(counter "$log" gup_longterm_calls)" 1 "$log"
else
	skip "gup_test -L: FOLL_LONGTERM counted: no gup_test in $(uname -r); readv was the command"
fi
expect_eq "gupstat -- COMMAND: exits with the command's status" \
	"$($GUPSTAT -- false >/dev/null 2>&1; echo $?)" 1

# Negative control: counting another process must see none of the walk,
# so the equalities above cannot pass by counting the whole system.
sleep 600 &
other=$!
$GUPSTAT -j -p $other >"$log" 2>"$err" &
gs=$!
wait_for "Hit Ctrl-C" "$err" 60 || not_ok "-p: gupstat did not attach within 60 s"
$GUPWORK --folio 4k --size $MB readv >/dev/null
kill -INT $gs
wait $gs
rc=$?
kill $other
expect_eq "-p other process: Ctrl-C exits 0" "$rc" 0 "$err"
expect_eq "-p other process: workload not counted" "$(hist "$log" walk_pages count)" 0 "$log"
rm -f "$log" "$err" "$wlog"

# Every pin taken by the workloads above was released: on the batched
# kernel a wrong refcount batch would leave pins behind (or underflow).
# The counters are per-CPU with lazily folded deltas: fold them first
# (as tests/guest/lib.sh's pins does), or the two can differ by what
# one CPU has not folded yet.
echo 1 >/proc/sys/vm/stat_refresh 2>/dev/null
acq=$(awk '$1 == "nr_foll_pin_acquired" { print $2 }' /proc/vmstat)
rel=$(awk '$1 == "nr_foll_pin_released" { print $2 }' /proc/vmstat)
[ -n "$acq" ] && [ "$acq" -gt 0 ] && [ "$acq" = "$rel" ] &&
	ok "pins balance: nr_foll_pin_acquired = nr_foll_pin_released = $acq" ||
	not_ok "pins do not balance: acquired '$acq', released '$rel'"
tap_done
