#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat serve, scraped as a fleet scrapes it: promtool checks every
# scrape, a workload of known size moves the walk's counts by exactly
# its size; --per-cgroup attributes two workloads to their cgroups to the
# page, and names a cgroup removed before a scrape by its id; a real
# Prometheus server scrapes both, evaluates the rules of contrib/ and
# answers every dashboard query through its API. Then what a careless
# user meets: a port in use, a malformed or non-loopback address, SIGTERM.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

tmp=$(mktemp -d)
MB=64
PAGES=$((MB * 256))
PORT=10435		# the default
PORT_CG=10437		# --per-cgroup
URL=http://127.0.0.1:$PORT/metrics
# Under TCG a guest is slow to start Go programs: be patient, not loose.
WAIT=180

# The guest's init leaves loopback down.
ip link set lo up


# scrape FILE [CURL_ARGS...]: GET $URL into FILE; its headers to FILE.h.
scrape() {
	local f=$1
	shift
	curl -sS --max-time 20 -D "$f.h" -o "$f" "$@" "$URL"
}

# value FILE SERIES: the sample of SERIES (its name and labels, as
# written) in FILE; the sum where several series match a bare name.
value() {
	awk -v s="$2" 'index($1, s) == 1 && (length($1) == length(s) ||
		substr($1, length(s) + 1, 1) == "{") { v += $2; n++ }
		END { if (n) printf "%.17g\n", v }' "$1"
}

# prefix_sum FILE PREFIX: the sum of the samples whose series starts with
# PREFIX (a name and some of its labels), whatever labels follow.
prefix_sum() {
	awk -v s="$2" 'index($1, s) == 1 { v += $2; n++ } END { if (n) printf "%.17g\n", v }' "$1"
}

promtool_ok() {
	if promtool check metrics <"$2" >"$tmp/lint" 2>&1; then
		ok "$1: promtool check metrics"
	else
		not_ok "$1: promtool check metrics"
		diag "$tmp/lint"
	fi
}

# prog_count: BPF tracing and kprobe programs loaded now.
prog_count() {
	bpftool prog show 2>/dev/null | grep -cE ': (tracing|kprobe) '
}

progs_before=$(prog_count)
stats_was=$(cat /proc/sys/kernel/bpf_stats_enabled)
echo 0 >/proc/sys/kernel/bpf_stats_enabled

# A workload of known size, held until the server is up: exec's own GUP
# calls happen before, so what is counted between the scrapes is its
# 64 MB process_vm_readv() alone (lib.sh held_start, held_walk).
held_start "$tmp/work" --folio 4k --size $MB readv || { not_ok "gupwork did not get ready"; tap_done; }
work=$HELD_PID
$GUPSTAT serve -e none -p $work >"$tmp/out" 2>"$tmp/err" &
gs=$!
if ! wait_for "Serving http://127.0.0.1:$PORT/metrics" "$tmp/err" $WAIT; then
	not_ok "gupstat serve did not start"
	diag "$tmp/err"
	kill $work $gs 2>/dev/null
	tap_done
fi
ok "serve: $(grep Serving "$tmp/err")"
grep -q "kernel.bpf_stats_enabled is not 1: the probes' own cost" "$tmp/err" &&
	ok "bpf stats off: said in one line" || { not_ok "bpf stats off: not said"; diag "$tmp/err"; }
[ "$(prog_count)" -gt "$progs_before" ] && ok "serve: its programs are loaded" ||
	not_ok "serve: no programs loaded ($(prog_count), $progs_before before)"

scrape "$tmp/before" && ok "scrape before the workload" || not_ok "scrape before the workload"
promtool_ok "before" "$tmp/before"
grep -q '^Content-Type: text/plain; version=0.0.4' "$tmp/before.h" &&
	ok "the 0.0.4 text format by default" || { not_ok "content type"; diag "$tmp/before.h"; }
held_walk
expect_eq "the workload ran" "$?" 0 "$tmp/work"
scrape "$tmp/after" && ok "scrape after the workload" || not_ok "scrape after the workload"
promtool_ok "after" "$tmp/after"

W=$([ $WALK_BATCHED = 1 ] && echo count || echo pointer)
S='{method="fentry+fexit",walk="'$W'"}'
H='{lock="upper_bound",method="fentry+fexit",walk="'$W'"}'
count0=$(value "$tmp/before" "gupstat_walk_pages_count$S")
count1=$(value "$tmp/after" "gupstat_walk_pages_count$S")
if [ -n "$count0" ] && [ -n "$count1" ]; then
	expect_calls "walk _count moved by the 64 MB readv's calls" $((count1 - count0)) \
		"$([ "$WALK_BATCHED" = 1 ] && echo $((PAGES / 512)) || echo "$PAGES")"
	[ $WALK_BATCHED = 1 ] || expect_eq "walk _count moved by 16384 exactly" \
		$((count1 - count0)) $PAGES
else
	not_ok "no gupstat_walk_pages_count$S in the scrapes"
	grep walk_pages_count "$tmp/after" | diag
fi
expect_eq "walk pages _sum moved by 16384 pages" \
	"$(($(value "$tmp/after" "gupstat_walk_pages_sum$S") - $(value "$tmp/before" "gupstat_walk_pages_sum$S")))" \
	$PAGES
expect_eq "hold _count is the walk's _count" \
	"$(value "$tmp/after" "gupstat_walk_hold_seconds_count$H")" "$count1"
expect_eq "hold +Inf bucket is its _count" \
	"$(value "$tmp/after" "gupstat_walk_hold_seconds_bucket{${H:1:-1},le=\"+Inf\"}")" "$count1"
expect_eq "hold: 26 buckets by default, 63 ns (2^6 - 1) to 1.07 s (2^30 - 1) and +Inf" \
	"$(grep -c "^gupstat_walk_hold_seconds_bucket{${H:1:-1}," "$tmp/after")" 26
grep -q "^gupstat_walk_hold_seconds_bucket{${H:1:-1},le=\"6.3e-08\"} " "$tmp/after" &&
	grep -q "^gupstat_walk_hold_seconds_bucket{${H:1:-1},le=\"1.073741823\"} " "$tmp/after" &&
	ok "hold: the first and last bounds" || not_ok "hold: bounds 6.3e-08 and 1.073741823 missing"
expect_eq "bpf stats off: no cost families, the gauge 0" \
	"$(grep -c '^gupstat_probe_run' "$tmp/after"):$(value "$tmp/after" gupstat_bpf_stats_enabled)" 0:0
# __get_user_pages() is probed by kprobes where the kernel refuses its
# trampoline (6.1): its series say so in their method label.
pin='gupstat_gup_calls_total{kind="pin",'
expect_eq "FOLL_PIN calls moved by 16, of 1024 pages each" \
	"$(($(prefix_sum "$tmp/after" "$pin") - $(prefix_sum "$tmp/before" "$pin")))" $((PAGES / 1024))
grep -q "^gupstat_kernel_info{release=\"$(uname -r)\"" "$tmp/after" &&
	ok "the kernel release as an info metric" || not_ok "no gupstat_kernel_info for $(uname -r)"

scrape "$tmp/om" -H 'Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'
grep -q '^Content-Type: application/openmetrics-text; version=1.0.0' "$tmp/om.h" &&
	[ "$(tail -n 1 "$tmp/om")" = "# EOF" ] && ok "OpenMetrics when asked, ending in # EOF" ||
	{ not_ok "OpenMetrics"; diag "$tmp/om.h"; }

# The 99th percentile hold, as histogram_quantile() must find it: within
# the bucket where the cumulative count first reaches 99%.
q99_bounds() {
	awk -v s="gupstat_walk_hold_seconds_bucket{${H:1:-1}," 'index($1, s) == 1 {
		le = $1; sub(/.*le="/, "", le); sub(/".*/, "", le)
		les[n] = le; cum[n++] = $2 }
		END { t = cum[n - 1]; for (i = 0; i < n; i++) if (cum[i] >= 0.99 * t) {
			print (i ? les[i - 1] : 0), les[i]; exit } }' "$1"
}

# --per-cgroup, with the kernel timing BPF programs: a second server, on
# its own port, counting every task. Three workloads of known size, each
# moved into a cgroup of its own once it is ready (so that exec's own GUP
# is not in it): C's cgroup is removed before the first scrape names it.
echo 1 >/proc/sys/kernel/bpf_stats_enabled
CG=/sys/fs/cgroup
mkdir -p $CG/gupA $CG/gupB $CG/gupC
$GUPSTAT serve --per-cgroup -P -e cpu-clock --waits --listen 127.0.0.1:$PORT_CG >"$tmp/out2" 2>"$tmp/err2" &
gs2=$!
wait_for "Serving" "$tmp/err2" $WAIT || { not_ok "serve --per-cgroup did not start"; diag "$tmp/err2"; }
! grep -q "bpf_stats_enabled is not 1" "$tmp/err2" && ok "bpf stats on: nothing said" ||
	not_ok "bpf stats on: said it is off"
# in_cgroup NAME MB: a readv of MB in cgroup NAME, from its start.
in_cgroup() {
	held_start "$tmp/w$1" --folio 4k --size "$2" readv || not_ok "gupwork for $1 did not get ready"
	echo $HELD_PID >$CG/$1/cgroup.procs
	held_walk
}
in_cgroup gupC 4
rmdir $CG/gupC && ok "gupC removed before any scrape" || not_ok "gupC not removed"
in_cgroup gupA 16
in_cgroup gupB 32
URL=http://127.0.0.1:$PORT_CG/metrics
scrape "$tmp/cg"
URL=http://127.0.0.1:$PORT/metrics
promtool_ok "--per-cgroup" "$tmp/cg"
expect_eq "--per-cgroup: gupA's 16 MB, to the page" \
	"$(value "$tmp/cg" 'gupstat_cgroup_walk_pages_total{cgroup="/gupA"}')" 4096
expect_eq "--per-cgroup: gupB's 32 MB, to the page" \
	"$(value "$tmp/cg" 'gupstat_cgroup_walk_pages_total{cgroup="/gupB"}')" 8192
expect_calls "--per-cgroup: gupB's walk calls" \
	"$(value "$tmp/cg" 'gupstat_cgroup_walk_calls_total{cgroup="/gupB"}')" \
	"$([ "$WALK_BATCHED" = 1 ] && echo 16 || echo 8192)"
cid=$(grep -o '^gupstat_cgroup_walk_pages_total{cgroup="id:[0-9]*"} 1024$' "$tmp/cg")
[ -n "$cid" ] && ok "--per-cgroup: gupC, removed unnamed, by its id: $cid" ||
	{ not_ok "--per-cgroup: no id:N series of 1024 pages for gupC"; grep cgroup_walk_pages "$tmp/cg" | diag; }
expect_eq "--per-cgroup: the removed cgroup said once" \
	"$(grep -c 'a cgroup was removed before it could be named' "$tmp/err2")" 1
# process_vm_readv() pins (pin_user_pages_remote()) and unpins them all.
expect_eq "--per-cgroup: gupA pinned its 4096 pages, unpinned 4096, long-term none" \
	"$(value "$tmp/cg" 'gupstat_cgroup_pin_pages_total{cgroup="/gupA"}'):$(value "$tmp/cg" \
	'gupstat_cgroup_unpin_pages_total{cgroup="/gupA"}'):$(value "$tmp/cg" \
	'gupstat_cgroup_longterm_pin_pages_total{cgroup="/gupA"}')" 4096:4096:0
expect_eq "--per-cgroup: no series dropped" "$(value "$tmp/cg" gupstat_cgroup_series_dropped_total)" 0
runs=$(prefix_sum "$tmp/cg" 'gupstat_probe_runs_total{program="walk_fexit",function="follow_page_pte"}')
# Read after the cgroups' rows in a scrape: at least every call they counted.
calls=$(prefix_sum "$tmp/cg" 'gupstat_cgroup_walk_calls_total{')
[ -n "$runs" ] && [ -n "$calls" ] && [ "$calls" -gt 0 ] && [ "$runs" -ge "$calls" ] &&
	ok "bpf stats on: follow_page_pte's exit program ran $runs times, for $calls calls counted" ||
	{ not_ok "bpf stats on: walk_fexit runs '$runs', calls counted '$calls'"; grep '^gupstat_probe_runs' "$tmp/cg" | diag; }
grep -q '^gupstat_gup_events_count{event="cpu-clock",method=' "$tmp/cg" &&
	ok "-e cpu-clock: the counter histograms say event=\"cpu-clock\"" ||
	{ not_ok "-e cpu-clock: no event label"; grep '^gupstat_gup_events_count' "$tmp/cg" | diag; }

# A real Prometheus, scraping both every second, with the rules of
# contrib/, asked through its HTTP API.
cat >"$tmp/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: ['$PWD/contrib/prometheus/gupstat.rules.yml']
scrape_configs:
  - job_name: gupstat
    static_configs:
      - targets: ['127.0.0.1:$PORT']
  - job_name: gupstat_cgroup
    static_configs:
      - targets: ['127.0.0.1:$PORT_CG']
YML
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/tsdb" \
	--web.listen-address=127.0.0.1:9090 >"$tmp/prom.log" 2>&1 &
prom=$!
# query PROMQL: the first result's value, or nothing.
query() {
	curl -sS --max-time 10 -G --data-urlencode "query=$1" \
		http://127.0.0.1:9090/api/v1/query 2>/dev/null | jq -r '.data.result[0].value[1] // empty'
}
got=
for ((i = 0; i < WAIT; i++)); do
	got=$(query "gupstat_walk_pages_count{job=\"gupstat\",${S:1:-1}}")
	[ "$got" = "$count1" ] && break
	sleep 1
done
expect_eq "Prometheus: the walk's _count through /api/v1/query" "$got" "$count1"
expect_eq "Prometheus: up{job=\"gupstat\"}" "$(query 'up{job="gupstat"}')" 1
q=$(query "histogram_quantile(0.99, gupstat_walk_hold_seconds_bucket{job=\"gupstat\",${H:1:-1}})")
read -r lo hi < <(q99_bounds "$tmp/after")
if [ -n "$q" ] && awk -v q="$q" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(q >= lo && q <= hi && q > 0) }'; then
	ok "Prometheus: histogram_quantile(0.99) of the hold, $q s, within ($lo, $hi]"
else
	not_ok "Prometheus: histogram_quantile(0.99) of the hold: '$q', want within ($lo, $hi]"
	tail -n 20 "$tmp/prom.log" | diag
fi
for c in gupA:4096 gupB:8192; do
	expect_eq "Prometheus: ${c%:*}'s walk pages through /api/v1/query" \
		"$(query "gupstat_cgroup_walk_pages_total{cgroup=\"/${c%:*}\"}")" "${c#*:}"
	expect_eq "Prometheus: ${c%:*}'s walk calls through /api/v1/query, the scrape's exactly" \
		"$(query "gupstat_cgroup_walk_calls_total{cgroup=\"/${c%:*}\"}")" \
		"$(value "$tmp/cg" "gupstat_cgroup_walk_calls_total{cgroup=\"/${c%:*}\"}")"
done
avg=$(query "gupstat_walk_pages_sum{job=\"gupstat\",${S:1:-1}} / gupstat_walk_pages_count{job=\"gupstat\",${S:1:-1}}")
want=$(awk -v a="$(value "$tmp/after" "gupstat_walk_pages_sum$S")" -v b="$count1" 'BEGIN { printf "%.17g", a / b }')
awk -v a="${avg:-x}" -v b="$want" 'BEGIN { d = a - b; exit !(a != "x" && d * d < 1e-18 * b * b) }' &&
	ok "Prometheus: pages per walk call, _sum / _count ($avg)" ||
	not_ok "Prometheus: pages per walk call: '$avg', want $want"
# Every dashboard panel's query and every recording rule returns a
# number, with pins, gets and unpins in every minute while they are
# asked (the latency quantiles' rates need calls in their window), and
# waits on the walks' PTE locks (the --per-cgroup server has --waits).
. tests/guest/dashboard.sh
( while :; do
	$GUPWORK --folio 4k --size 4 readv >/dev/null 2>&1
	build/walk-contend same >/dev/null 2>&1
	sleep 1
done ) &
load=$!
DASHBOARD_WAIT=$WAIT dashboard_check http://127.0.0.1:9090 --finite
kill $load
wait $load 2>/dev/null
kill $prom
wait $prom 2>/dev/null
kill -TERM $gs2
wait $gs2
expect_eq "--per-cgroup: SIGTERM, exit status 0" "$?" 0 "$tmp/err2"
echo "$stats_was" >/proc/sys/kernel/bpf_stats_enabled
rmdir $CG/gupA $CG/gupB

# Bad input, while the first server holds the port.
fails_with "a port in use" 1 "cannot listen on 127\.0\.0\.1:$PORT: Address already in use" \
	$GUPSTAT serve -e none
fails_with "a malformed address" 2 "--listen: not ADDR:PORT" $GUPSTAT serve --listen 10435
fails_with "a bad port" 2 "--listen: not a port from 1 to 65535" $GUPSTAT serve --listen 127.0.0.1:0
fails_with "a non-loopback address without --allow-remote" 2 "not a loopback address: add --allow-remote" \
	$GUPSTAT serve --listen 0.0.0.0:$PORT

kill -TERM $gs
wait $gs
expect_eq "SIGTERM: exit status 0" "$?" 0 "$tmp/err"
expect_eq "SIGTERM: every program detached" "$(prog_count)" "$progs_before"
curl -s --max-time 5 -o /dev/null "$URL"
expect_eq "SIGTERM: the port is closed (curl: cannot connect)" "$?" 7

# The scrape's size, measured: two servers counting the same workload,
# by default and with the bucket range of before --buckets-ns (log2
# slots 0 to 40: 1:1099511627775), scraped with nothing running between.
$GUPSTAT serve -e none --listen 127.0.0.1:10438 >/dev/null 2>"$tmp/err3" &
s3=$!
$GUPSTAT serve -e none --buckets-ns 1:1099511627775 --listen 127.0.0.1:10439 >/dev/null 2>"$tmp/err4" &
s4=$!
if wait_for "Serving" "$tmp/err3" $WAIT && wait_for "Serving" "$tmp/err4" $WAIT; then
	$GUPWORK --folio 4k --size 16 readv >/dev/null 2>&1
	sleep 1
	curl -sS --max-time 20 -o "$tmp/size-new" http://127.0.0.1:10438/metrics
	curl -sS --max-time 20 -o "$tmp/size-old" http://127.0.0.1:10439/metrics
	new=$(wc -c <"$tmp/size-new") old=$(wc -c <"$tmp/size-old")
	nb=$(grep -c '_seconds_bucket{' "$tmp/size-new") ob=$(grep -c '_seconds_bucket{' "$tmp/size-old")
	expect_eq "--buckets-ns 1:1099511627775: 42 hold buckets, as before" \
		"$(grep -c '^gupstat_walk_hold_seconds_bucket{' "$tmp/size-old")" 42
	[ "$new" -lt "$old" ] && [ "$nb" -lt "$ob" ] &&
		ok "scrape size: $new bytes ($nb time buckets) by default, $old ($ob) with the old range" ||
		not_ok "scrape size: $new bytes ($nb) by default, $old ($ob) with the old range"
else
	not_ok "the two servers for the scrape size did not start"
	diag "$tmp/err3" "$tmp/err4"
fi
kill -TERM $s3 $s4
wait $s3 $s4

# With a COMMAND: counted alone, and still served after it exits.
$GUPSTAT serve -e none -- $GUPWORK --folio 4k --size 16 readv >"$tmp/out" 2>"$tmp/err" &
gs=$!
if wait_for "still serving" "$tmp/err" $WAIT && scrape "$tmp/cmd"; then
	sum=$(value "$tmp/cmd" "gupstat_walk_pages_sum$S")
	# exec's argument pages are the command's own GUP too: a few pages.
	[ -n "$sum" ] && [ "$sum" -ge 4096 ] && [ "$sum" -le $((4096 + 16)) ] &&
		ok "-- COMMAND: its 16 MB walk counted ($sum pages), served after its exit" ||
		{ not_ok "-- COMMAND: walk pages $sum, want 4096 to 4112"; diag "$tmp/err"; }
else
	not_ok "-- COMMAND: no scrape after the command exited"
	diag "$tmp/err"
fi
kill -INT $gs
wait $gs
expect_eq "Ctrl-C: exit status 0" "$?" 0 "$tmp/err"

# -P, capped: one series, the other processes counted as dropped.
$GUPSTAT serve -e none -P --max-series 1 --listen 127.0.0.1:10436 >"$tmp/out" 2>"$tmp/err" &
gs=$!
URL=http://127.0.0.1:10436/metrics
if wait_for "Serving" "$tmp/err" $WAIT; then
	for i in 1 2 3; do $GUPWORK --folio 4k --size 4 readv >/dev/null; done
	scrape "$tmp/procs"
	expect_eq "-P --max-series 1: one process series" \
		"$(grep -c '^gupstat_process_walk_calls_total{' "$tmp/procs")" 1
	d=$(value "$tmp/procs" gupstat_process_series_dropped_total)
	[ -n "$d" ] && [ "$d" -ge 2 ] && ok "-P: the three workloads past the cap counted ($d dropped)" ||
		not_ok "-P: dropped '$d', want at least 2"
	promtool_ok "-P" "$tmp/procs"
else
	not_ok "-P: serve did not start"
	diag "$tmp/err"
fi
kill -TERM $gs
wait $gs

# --waits: the walk-contend pins meet a faulting thread on their page
# tables; the waits are exported as a histogram family, and per waiter
# with -P, and the scrape still passes promtool.
$GUPSTAT serve -e none -P --waits --listen 127.0.0.1:10438 >"$tmp/out" 2>"$tmp/err" &
gs=$!
URL=http://127.0.0.1:10438/metrics
if wait_for "Serving" "$tmp/err" $WAIT; then
	build/walk-contend same >"$tmp/contend" 2>&1
	expect_eq "--waits: walk-contend ran" "$?" 0 "$tmp/contend"
	scrape "$tmp/waits"
	promtool_ok "--waits" "$tmp/waits"
	n=$(value "$tmp/waits" gupstat_pte_lock_wait_seconds_count)
	w=$(value "$tmp/waits" gupstat_process_pte_waits_total)
	[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$w" = "$n" ] &&
		ok "--waits: $n waits on the walks' PTE locks, all of them in the -P rows ($w)" ||
		{ not_ok "--waits: histogram count '$n', -P rows '$w'"; diag "$tmp/err"; }
	expect_eq "--waits: no hold left unregistered" \
		"$(value "$tmp/waits" gupstat_pte_held_lost_total)" 0
else
	not_ok "--waits: serve did not start"
	diag "$tmp/err"
fi
kill -TERM $gs
wait $gs

rm -rf "$tmp"
tap_done
