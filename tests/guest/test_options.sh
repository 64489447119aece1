#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat's options and its errors, in the guest.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

log=$(mktemp)
err=$(mktemp)
MB=16
PAGES=$((MB * 256))

fails_with "unknown option" 2 "unknown option '--frobnicate'" $GUPSTAT --frobnicate
fails_with "bad interval" 2 "out of range" $GUPSTAT -i 0
fails_with "unknown perf event" 2 "^gupstat: -e: unknown perf event (.*): 'no-such-event'$" \
	$GUPSTAT -e no-such-event -d 1
fails_with "not root" 1 "need root" setpriv --reuid=65534 --regid=65534 --clear-groups \
	--inh-caps=-all $GUPSTAT -d 1
fails_with "no BTF" 1 "BTF" unshare -m bash -c \
	"mount --bind /dev/null /sys/kernel/btf/vmlinux && exec $GUPSTAT -d 1"
fails_with "missing cgroup" 1 "cgroup" $GUPSTAT -c /sys/fs/cgroup/no-such-group -d 1

# --dry-run names every function and its method; gup_fill_pages is there
# on batched-traced only (absent on base, inlined in the posted series)
# and the skip says why.
$GUPSTAT --dry-run >"$log" 2>"$err"
grep -Eq '^follow_page_pte +fentry\+fexit' "$log" && ok "--dry-run: follow_page_pte via fentry+fexit" ||
	not_ok "--dry-run: $(cat "$log")"
if [ $FILL_TRACED = 1 ]; then
	grep -Eq '^gup_fill_pages +fentry\+fexit' "$log" &&
		ok "--dry-run: gup_fill_pages attached on batched-traced" ||
		not_ok "--dry-run fill: $(cat "$log")"
else
	grep -Eq '^gup_fill_pages +skip +not in this kernel \(absent or inlined\)' "$log" &&
		ok "--dry-run: gup_fill_pages skipped, with the reason" ||
		not_ok "--dry-run fill: $(cat "$log")"
fi
$GUPSTAT -k --dry-run >"$log" 2>&1
grep -Eq '^__get_user_pages +kprobe\+kretprobe' "$log" && ok "--dry-run -k: kprobes" ||
	not_ok "--dry-run -k: $(cat "$log")"

# NDJSON: every line an object with a type and data.
$GUPSTAT -j -P -e cpu-clock:k -- $GUPWORK --folio 4k --size $MB readv >"$log" 2>"$err"
# The command's own lines start "gupwork: "; everything else is gupstat's.
bad=$(grep -v '^gupwork: ' "$log" | jq -c 'select((.type | type) != "string" or (.data | type) != "object")' 2>&1 | head -3)
n=$(grep -vc '^gupwork: ' "$log")
[ -z "$bad" ] && [ "$n" -gt 10 ] && ok "-j: $n NDJSON records, each {type, data}" ||
	not_ok "-j: bad records: $bad"

# -e cpu-clock:k: a software counter opens in TCG, with perf's modifier
# (kernel only: exclude_user, exclude_hv); every pin call is read.
calls=$(counter "$log" gup_calls.pin)
expect_eq "-e cpu-clock:k: a counter value per FOLL_PIN call" \
	"$(($(hist "$log" gup_events count) - $(counter "$log" pmu_read_misses) >= calls))" 1 "$err"
grep -q "no 'cache-misses' counter" "$err" && not_ok "-e cpu-clock:k still tried cache-misses" ||
	ok "-e cpu-clock:k replaces the default event"

# -P: the workload's own row.
row=$(records "$log" | jq -rs '[.[] | select(.type == "proc" and .data.comm == "gupwork")] | first | .data.walk_pages')
# Its own pages and its exec's argument pages, a few: not twice as many.
[ "$row" -ge $PAGES ] 2>/dev/null && [ "$row" -le $((PAGES + 64)) ] &&
	ok "-P: gupwork row with $row walked pages ($PAGES to $PAGES + 64)" ||
	not_ok "-P: gupwork row: '$row'"

# The default counter: without a CPU PMU (TCG registers none) said
# once, with one (KVM's -cpu host: cpu, or cpu_core on a hybrid) not at
# all; the run goes on either way.
$GUPSTAT -j -- true >"$log" 2>"$err"
rc=$?
if compgen -G "/sys/bus/event_source/devices/cpu*" >/dev/null; then pmu_said=0; else pmu_said=1; fi
expect_eq "default counter: the run goes on" "$rc" 0 "$err"
expect_eq "default counter: 'no counter' said $pmu_said times" \
	"$(grep -c "no 'cache-misses' counter" "$err")" $pmu_said "$err"

# -c: a cgroup v2 directory; the workload joins it before it walks.
cg=/sys/fs/cgroup/gupstat-test
mkdir -p $cg
# in_cg DIR GUPSTAT_ARGS...: gupstat ARGS around a readv of $MB in DIR.
in_cg() {
	local dir=$1
	shift
	: >"$log"
	held_start "$err.w" --folio 4k --size $MB readv &&
		echo $HELD_PID >"$dir/cgroup.procs" &&
		held_attach "$log" "$err" "$@" &&
		held_walk &&
		held_stop
}
in_cg $cg -j -c $cg
expect_eq "-c CGROUP: the workload in it is counted" "$(hist "$log" walk_pages sum)" $PAGES "$log"
# --per-cgroup: the same workload, in a row of its own named by its path.
in_cg $cg -j -e none --per-cgroup
expect_eq "--per-cgroup: the workload's pages in its cgroup's row" \
	"$(jq -r 'select(.type == "cgroup" and .data.cgroup == "/gupstat-test") | .data.walk_pages' "$log")" \
	$PAGES "$log"
$GUPSTAT -e none --per-cgroup -- $GUPWORK --folio 4k --size 4 readv >"$log" 2>"$err"
grep -q '^ *WALK-CALLS .* CGROUP$' "$log" && grep -Eq ' /$' "$log" &&
	ok "--per-cgroup: the table, the root cgroup named /" ||
	{ not_ok "--per-cgroup: no table or no / row"; diag "$log"; }
# A task in a child cgroup, as a pod slice's, a service's or a VM
# scope's run: -c counts it with the parent's, --cgroup-exact does not.
mkdir -p $cg/child
in_cg $cg/child -j -e none -c $cg
expect_eq "-c PARENT: a task in PARENT/child is counted" "$(hist "$log" walk_pages sum)" $PAGES "$log"
# ... by kprobes as well, a program type of its own for the helper.
in_cg $cg/child -j -e none -k -c $cg
expect_eq "-k -c PARENT: a task in PARENT/child is counted" "$(hist "$log" walk_pages sum)" \
	$PAGES "$log"
in_cg $cg/child -j -e none -c $cg --cgroup-exact
expect_eq "-c PARENT --cgroup-exact: a task in PARENT/child is not" \
	"$(hist "$log" walk_pages sum)" 0 "$log"
in_cg $cg/child -j -e none -c $cg/child --cgroup-exact
expect_eq "-c CHILD --cgroup-exact: its own task is counted" "$(hist "$log" walk_pages sum)" \
	$PAGES "$log"
# trace's -c is the same filter: the child's holds, under its own path.
# (A hold lost to a preempted exit program is possible on 7.x: > 0.)
tr=$(mktemp -u)
child_pages() {
	$GUPSTAT report -j "$tr" 2>>"$err" |
		jq -r '[.cgroups.rows[] | select(.path == "/gupstat-test/child") | .pages] | add // 0'
}
in_cg $cg/child trace -o "$tr" -c $cg
p=$(child_pages)
[ "${p:-0}" -gt 0 ] && [ "$p" -le $PAGES ] && ok "trace -c PARENT: $p pages of PARENT/child's holds" ||
	{ not_ok "trace -c PARENT: '$p' pages of the child's"; diag "$err"; }
rm -f "$tr"
in_cg $cg/child trace -o "$tr" -c $cg --cgroup-exact
expect_eq "trace -c PARENT --cgroup-exact: no hold of PARENT/child" "$(child_pages)" 0 "$err"
rm -f "$tr"
rmdir $cg/child

# The command runs where we do, not in the (now empty) test cgroup.
$GUPSTAT -j -c $cg -- $GUPWORK --folio 4k --size $MB readv >"$log" 2>"$err"
expect_eq "-c an empty cgroup: nothing counted" "$(hist "$log" walk_pages sum)" 0 "$log"
rmdir $cg

# -i 1 -T: a timestamped report per second, then a last one at the end.
$GUPSTAT -i 1 -T -d 3 >"$log" 2>"$err"
n=$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' "$log")
[ "$n" -ge 3 ] && ok "-i 1 -T -d 3: $n timestamped reports" ||
	not_ok "-i 1 -T -d 3: $n timestamped reports: $(head -c 300 "$log")"
# bcc's INTERVAL COUNT: three reports a second apart, and the run ends
# at the third, with no report after it.
start=$(date +%s%N)
timeout 90 $GUPSTAT -T 1 3 >"$log" 2>"$err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
n=$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' "$log")
[ "$rc:$n" = 0:3 ] && [ "$ms" -ge 2900 ] && [ "$ms" -lt 60000 ] &&
	ok "gupstat -T 1 3: exit 0, 3 reports in $ms ms" ||
	not_ok "gupstat -T 1 3: exit $rc, $n reports in $ms ms: $(head -c 300 "$err")"
# On a terminal, reports follow one another unless --clear redraws them.
if command -v script >/dev/null; then
	script -qec "$GUPSTAT -e none 1 2" /dev/null >"$log" 2>&1
	script -qec "$GUPSTAT -e none --clear 1 2" /dev/null >"$err" 2>&1
	expect_eq "on a terminal: no clear by default, one per report with --clear" \
		"$(grep -c $'\e\\[2J' "$log"):$(grep -c $'\e\\[2J' "$err")" 0:2 "$err"
else
	skip "no script(1) for a terminal"
fi
fails_with "a COMMAND without --" 2 "a COMMAND to run goes after '--'" $GUPSTAT -e none true
rm -f "$log" "$err" "$err.w" "$tr"
tap_done
