#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat --waits: spins in the qspinlock slow path on a PTE lock that a
# GUP walk holds at that moment, against workloads that do and do not
# wait, and against a second, independent reading by bpftrace.
#
# walk-contend same: long-term pins on CPU 0 while a thread on CPU 1
# faults other pages of the same page tables, taking the PTE locks the
# walks hold: waits, and bpftrace's count of them agrees with gupstat's.
# walk-contend apart: the same load on page tables of the contender's
# own: walks, and not one wait. futex-storm: two threads hammering one
# futex hash bucket's spinlock beside a pin with no contender: the slow
# path runs, on locks no walk holds, and gupstat counts no wait.
# --waits -k: refused in one line. trace --waits: waits with their
# holds and stacks, in report's JSON, Perfetto and folded stacks.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
CONTEND=$BUILD/walk-contend
STORM=$BUILD/futex-storm
LOCK_FUNC=$(lock_func)
# The slow path gupstat picks from BTF (src/probe/probes.c): the native
# one's name where spinlocks are paravirt.
if have_sym native_queued_spin_lock_slowpath; then
	SLOW=native_queued_spin_lock_slowpath
else
	SLOW=queued_spin_lock_slowpath
fi

log=$(mktemp)
err=$(mktemp)
wlog=$(mktemp)
bt=$(mktemp --suffix=.bt)
btout=$(mktemp)
btout2=$(mktemp)
flag=$(mktemp -d)
trap 'rm -rf "$log" "$err" "$wlog" "$bt" "$btout" "$btout2" "$flag"' EXIT

show_logs() {
	diag "$err" "$wlog"
	tail -c 2000 "$log" | diag
	[ -s "$btout" ] && head -n 5 "$btout" | diag
	[ -s "$btout2" ] && head -n 5 "$btout2" | diag
}

# The same waits, read by bpftrace with gupstat's filter (bpf/lock.bpf.c,
# bpf/walk.bpf.c, bpf/wait.bpf.c): inside a follow_page_pte() call of
# the workload (by its comm: gupstat follows the command's process), the
# lock the call's first PTE-lock acquire stored through ptlp, read at the
# acquire's return and held until the call returns; a spin in the slow
# path whose lock is one of those at its entry is a wait, counted at its
# return. @spins counts every slow path taken by the task named STORM,
# whatever its lock. bpftrace 0.17 (bookworm): args->name, retval.
write_bt() {
	cat >"$bt" <<EOF
kfunc:follow_page_pte /comm == "$1"/ { @in[tid] = 1; }
kretfunc:$LOCK_FUNC /@in[tid] && !@acq[tid]/
{
	@acq[tid] = 1;
	if (retval != 0) {
		\$l = (uint64)*args->ptlp;
		@lk[tid] = \$l;
		@held[\$l] = 1;
	}
}
kretfunc:follow_page_pte /@in[tid]/
{
	if (@lk[tid]) { delete(@held[@lk[tid]]); }
	delete(@lk[tid]);
	delete(@acq[tid]);
	delete(@in[tid]);
}
kfunc:$SLOW
{
	if (@held[(uint64)args->lock]) { @w[tid] = 1; }
	if (comm == "$2") { @storm = count(); }
}
kretfunc:$SLOW /@w[tid]/ { @waits = count(); delete(@w[tid]); }
tracepoint:sched:sched_process_exec /comm == "bt-mark"/
{
	print(@waits);
	print(@storm);
	printf("bt-mark\n");
}
END
{
	clear(@in); clear(@acq); clear(@lk); clear(@held); clear(@w);
	clear(@waits); clear(@storm);
}
EOF
}

# bt_start OUT WALKER_COMM STORM_COMM: bpftrace in the background, its
# output in OUT, its pid in BT_PID, until it has attached; 1 if it does
# not.
bt_start() {
	write_bt "$2" "$3"
	: >"$1"
	# Unbuffered: the counts reach OUT when printed, whatever becomes of
	# bpftrace afterwards.
	bpftrace -B none "$bt" >"$1" 2>&1 &
	BT_PID=$!
	# Attaching is said before the programs load: one the kernel
	# refuses ends bpftrace after it.
	wait_for "^Attaching" "$1" 120 && sleep 1 && kill -0 "$BT_PID" 2>/dev/null && return 0
	kill "$BT_PID" 2>/dev/null
	return 1
}

# bt_mark: every bpftrace started prints its two counts and "bt-mark",
# all its probes still attached, as the program named bt-mark starts.
# Its counts are read from there, not from its END: a bpftrace has run
# no END for over a minute after SIGINT under TCG (make check,
# base-debug, 2026-12-06; its detach, or what precedes END, not known).
bt_mark() {
	[ -x "$flag/bt-mark" ] || cp /bin/true "$flag/bt-mark"
	"$flag/bt-mark"
}

# bt_stop PID OUT: after bt_mark, the counts it printed in BT_WAITS and
# BT_SPINS (1 if it printed none in 2 minutes), then SIGINT; a bpftrace
# still running a minute later is killed, its counts standing.
bt_stop() {
	local i rc=0
	BT_WAITS='' BT_SPINS=''
	if wait_for '^bt-mark$' "$2" 120; then
		BT_WAITS=$(bt_count "$2" @waits:)
		BT_SPINS=$(bt_count "$2" @storm:)
	else
		rc=1
	fi
	kill -INT "$1"
	# Bounded: a bpftrace that never exits is a failure said in one
	# line, not the file's whole time budget.
	for i in $(seq 60); do
		kill -0 "$1" 2>/dev/null || break
		sleep 1
	done
	if kill -0 "$1" 2>/dev/null; then
		echo "bpftrace still running $i s after SIGINT: killed" >>"$2"
		kill -KILL "$1"
	fi
	wait "$1"
	return $rc
}

# bt_count OUT NAME: the count bt_mark printed, 0 for a map never added to.
bt_count() {
	awk -v k="$2" '$0 == "bt-mark" { exit } $1 == k { n = $2 } END { print n + 0 }' "$1"
}

# waits FILE: the waits gupstat counted (the histogram's count; 0 where
# the report has none), "none" if the report has no counters record.
waits() {
	local n
	[ -n "$(counter "$1" pte_held_lost)" ] || { echo none; return; }
	n=$(hist "$1" pte_lock_wait_ns count)
	echo "${n:-0}"
}

# Can this kernel take --waits at all? Refused (no out-of-line PTE-lock
# acquire, 6.1) the cases that need it skip, with the refusal's line.
WAITS_OK=1
if ! $GUPSTAT --waits --dry-run >"$log" 2>"$err"; then
	WAITS_OK=0
	WHY="--waits refused here: $(head -n 1 "$err")"
fi
have_gup_test || { WAITS_OK=0; WHY=${WHY:-"no gup_test (CONFIG_GUP_TEST): no walk-contend"}; }

# 1, 2: walk-contend same, gupstat --waits around it and two bpftrace
# readings of the same waits, one attached before gupstat and one after.
# A BPF trampoline runs its programs one after the other, in the order
# of their attach (newest first, kernel/bpf/trampoline.c): at the
# acquire's return one reading enters the lock before gupstat does and
# the other after, and a spin that starts between the two is a wait to
# the first and not yet to the second. On the batched walk a hold is 256
# PTEs and that window a sliver of it; on base a hold is one PTE, and
# the programs' own run is much of it (TCG stops the walker's vCPU
# anywhere while the contender's runs): there one reading alone may
# differ from gupstat by half (base-debug, 2026-12-05: gupstat 220,
# bpftrace attached before it 101). At the walk's return the lock is
# already free: no spin starts on it there. So gupstat's count lies
# between the two readings'; 2 either side for a spin that straddles
# a vCPU switch at the attach edges, which the workload, started after
# all three attached and ended before any detached, does not reach.
name="walk-contend same"
if [ $WAITS_OK = 0 ]; then
	for c in "gupstat and bpftrace ran" "waits counted" "pte_held_lost" \
		"the waiter's row" "bpftrace agrees"; do
		skip "$name: $c: $WHY"
	done
elif ! bt_start "$btout" walk-contend futex-storm; then
	not_ok "$name: bpftrace did not attach"
	show_logs
	for c in "waits counted" "pte_held_lost" "the waiter's row" "bpftrace agrees"; do
		not_ok "$name: $c: not run"
	done
else
	bt1=$BT_PID
	bt2=''
	rm -f "$flag/ready" "$flag/go"
	# The command waits, once gupstat has attached, for the second reading.
	$GUPSTAT -j -P --waits -- sh -c 'echo ready >"$1/ready"; until [ -e "$1/go" ]; do sleep 0.1; done
		exec "$2" same' sh "$flag" "$CONTEND" >"$log" 2>"$err" &
	gs=$!
	if wait_for ready "$flag/ready" 120 && bt_start "$btout2" walk-contend futex-storm; then
		bt2=$BT_PID
	fi
	touch "$flag/go"
	wait $gs
	rc=$?
	bt_mark
	bt_stop $bt1 "$btout"
	btrc=$?
	n1=$BT_WAITS
	n2=''
	if [ -n "$bt2" ]; then
		bt_stop "$bt2" "$btout2" && n2=$BT_WAITS
	fi
	grep '^reached:' "$log" >"$wlog"
	if [ $rc = 0 ] && [ $btrc = 0 ] && [ -n "$n2" ]; then
		ok "$name: gupstat and bpftrace ran ($(grep faults "$wlog"))"
	else
		not_ok "$name: gupstat exited $rc, bpftrace's counts '$n1' '$n2'"
		show_logs
	fi
	n=$(waits "$log")
	if [ "$n" != none ] && [ "$n" -gt 0 ]; then
		ok "$name: $n waits counted, buckets $(buckets "$log" pte_lock_wait_ns)"
	else
		not_ok "$name: waits counted: $n, want more than 0"
		show_logs
	fi
	expect_eq "$name: pte_held_lost" "$(counter "$log" pte_held_lost)" 0 "$log"
	# The waiter is the contender, a thread of the command: its row has
	# every wait and their time, as the histogram has them.
	row=$(records "$log" | jq -rs '[.[] | select(.type == "proc" and .data.comm == "walk-contend")] |
		last | .data | "\(.pte_waits) \(.pte_wait_ns)"')
	expect_eq "$name: the waiter's row, waits and ns" "$row" \
		"$n $(hist "$log" pte_lock_wait_ns sum)" "$log"
	if [ "$n" != none ] && [ -n "$n1" ] && [ -n "$n2" ] && [ "$n1" -gt 0 ] && [ "$n2" -gt 0 ]; then
		lo=$((n1 < n2 ? n1 : n2))
		hi=$((n1 < n2 ? n2 : n1))
	else
		lo=1 hi=0
	fi
	if [ "$n" != none ] && [ "$n" -ge $((lo - 2)) ] && [ "$n" -le $((hi + 2)) ] && [ $lo -le $hi ]; then
		ok "$name: bpftrace agrees: gupstat $n waits, bpftrace $n1 attached before it and $n2 after"
	else
		not_ok "$name: bpftrace disagrees: gupstat $n waits, bpftrace ${n1:-none} attached before it and ${n2:-none} after (want gupstat between them, 2 either side)"
		show_logs
	fi
	: >"$btout2"
fi

# walked_no_wait: $name's run in $log walked the page tables and gupstat
# counted no wait.
walked_no_wait() {
	local calls

	calls=$(hist "$log" walk_pages count)
	if [ "${calls:-0}" -gt 0 ]; then
		ok "$name: walked ($calls follow_page_pte() calls)"
	else
		not_ok "$name: no walk counted"
		show_logs
	fi
	expect_eq "$name: no wait" "$(waits "$log")" 0 "$log"
}

# 3: walk-contend apart: as much walking and faulting, on other tables.
name="walk-contend apart"
if [ $WAITS_OK = 0 ]; then
	for c in "gupstat ran" "walked" "no wait"; do
		skip "$name: $c: $WHY"
	done
else
	$GUPSTAT -j --waits -- "$CONTEND" apart >"$log" 2>"$err"
	rc=$?
	grep '^reached:' "$log" >"$wlog"
	if [ $rc = 0 ]; then
		ok "$name: gupstat ran ($(grep faults "$wlog"))"
	else
		not_ok "$name: gupstat exited $rc"
		show_logs
	fi
	walked_no_wait
fi

# 4: a spinlock contended on purpose that no walk holds, beside a pin.
name="futex storm"
if [ $WAITS_OK = 0 ] && ! $GUPSTAT --waits --dry-run >/dev/null 2>&1; then
	for c in "ran" "the slow path ran" "walked" "no wait"; do
		skip "$name: $c: $WHY"
	done
elif ! bt_start "$btout" gupwork futex-storm; then
	if grep -q "Error loading program" "$btout"; then
		# bpftrace 0.17 cannot load its kretfunc on the acquire of
		# Debian's 6.12: the slow path's independent reading is gone.
		for c in "ran" "the slow path ran" "walked" "no wait"; do
			skip "$name: $c: bpftrace cannot load here: $(grep -m1 ERROR "$btout")"
		done
	else
		not_ok "$name: bpftrace did not attach"
		show_logs
		for c in "the slow path ran" "walked" "no wait"; do
			not_ok "$name: $c: not run"
		done
	fi
else
	timeout -k 10 300 $GUPSTAT -j --waits -- sh -c "$STORM 8 & $GUPWORK --size 64 --for 6 readv; r=\$?; wait \$! && exit \$r" \
		>"$log" 2>"$err"
	rc=$?
	bt_mark
	bt_stop $BT_PID "$btout"
	btrc=$?
	grep -E '^reached:|^gupwork' "$log" >"$wlog"
	if [ $rc = 0 ] && [ $btrc = 0 ]; then
		ok "$name: ran ($(grep '^reached:' "$wlog"))"
	else
		not_ok "$name: gupstat exited $rc, bpftrace's counts '$BT_WAITS' '$BT_SPINS'"
		show_logs
	fi
	if [ "${BT_SPINS:-0}" -gt 0 ]; then
		ok "$name: the slow path ran $BT_SPINS times in futex-storm (bpftrace), bpftrace's waits $BT_WAITS"
	else
		not_ok "$name: bpftrace saw no slow path in futex-storm (${BT_SPINS:-none})"
		show_logs
	fi
	walked_no_wait
fi

# 6: gupstat trace --waits around walk-contend same: the file has the
# waits, each naming the hold it waited on, both with stacks; Perfetto
# draws a flow from each hold to each wait on it; the waiters' folded
# stacks weigh exactly the time waited.
name="trace --waits"
gt=$flag/waits.gt
if [ $WAITS_OK = 0 ]; then
	for c in "traced" "waits, each with its hold" "both stacks" "Perfetto flows" \
		"folded waits"; do
		skip "$name: $c: $WHY"
	done
else
	# The batched walk meets few waiters under trace's cost (2 to 5 in
	# a run, 0 once in a run of this file, batched-debug 2026-12-06): a
	# run without a wait checks nothing, so up to three are run.
	n='' total='' nohold=''
	for runs in 1 2 3; do
		rm -f "$gt"
		$GUPSTAT trace --waits -o "$gt" -- "$CONTEND" same >"$wlog" 2>"$err"
		rc=$?
		[ $rc = 0 ] || break
		$GUPSTAT report -j -n 5 "$gt" >"$log" 2>>"$err"
		read -r n total nohold < <(jq -r '[.waits.waits, .waits.total_ns,
			([.waits.longest[] | select(.hold == null)] | length)] | @tsv' "$log")
		[ "${n:-0}" -gt 0 ] && break
	done
	expect_eq "$name: traced" "$rc" 0 "$err"
	[ "${n:-0}" -gt 0 ] && [ "$nohold" = 0 ] &&
		ok "$name: $n waits in run $runs, each of the longest with the hold it waited on" ||
		{ not_ok "$name: waits '$n', longest without their hold '$nohold'"; show_logs; }
	bad=$(jq '[.waits.longest[] | select((.stack // [] | length) == 0 or
		((.hold.stack // []) | any(.symbol | startswith("follow_page_pte+")) | not))] |
		length' "$log")
	expect_eq "$name: both stacks: the waiter's, and the holder's through follow_page_pte()" \
		"$bad" 0 "$log"
	$GUPSTAT report -n 0 --perfetto "$flag/w.json" "$gt" >/dev/null 2>>"$err"
	flows=$(jq -r '[([.traceEvents[] | select(.ph == "s")] | length),
		([.traceEvents[] | select(.ph == "f")] | length)] | @tsv' "$flag/w.json")
	expect_eq "$name: Perfetto flows, one from each hold to each wait" "$flows" "$n	$n"
	$GUPSTAT report --folded - --folded-weight waits "$gt" >"$wlog" 2>>"$err"
	expect_eq "$name: folded waits: the waiters' stacks weigh the ns waited" \
		"$(awk '{ s += $NF } END { printf "%d", s }' "$wlog")" "$total"
fi

# 5: the lock's address is read at the acquire's return: no kretprobe.
fails_with "--waits -k" 1 "--waits.*(-k|kretprobe)|(-k|kretprobe).*--waits" $GUPSTAT --waits -k -d 1

tap_done
