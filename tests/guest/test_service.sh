#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# contrib/systemd/gupstat.service started and scraped once. Under
# systemd (tools/vmrun --systemd, make check's service part): make install,
# then systemctl starts it; it is disabled until enabled, serves
# gupstat_build_info and the walk's histogram where the options file
# says, runs as a non-root user with CAP_BPF and CAP_PERFMON alone,
# stops with everything detached; a start it cannot trace fails with
# one line and stops retrying, and a refused option is not retried.
# In the plain guest (the suite), where systemd is not PID 1: the
# unit's ExecStart= run by hand with its uid and capability sets.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
. tests/lib/service.sh

tmp=$(mktemp -d)
ip link set lo up 2>/dev/null
# Under TCG the first scrape can take a while: patient, not loose.
WAIT=180

# The address the options file gives, else gupstat serve's default.
addr=$(unit_opts | tr ' ' '\n' | sed -n 's/^--listen=//p')
[ -n "$addr" ] || addr=$($GUPSTAT serve --help | sed -n 's/.*(default: \([0-9.]*:[0-9]*\).*/\1/p')
URL=http://$addr/metrics
want_caps=$(cap_mask "$(unit_key AmbientCapabilities)")

prog_count() {
	bpftool prog show 2>/dev/null | grep -cE ': (tracing|kprobe) '
}

# scraped: one scrape, until it answers; the known series in it.
scraped() {
	local i

	for ((i = 0; i < WAIT; i++)); do
		curl -sS --max-time 20 -o "$tmp/m" "$URL" 2>/dev/null && break
		sleep 1
	done
	if grep -q '^gupstat_build_info{version=' "$tmp/m" 2>/dev/null &&
		grep -q '^gupstat_walk_pages_count{' "$tmp/m"; then
		ok "scraped $URL: gupstat_build_info and gupstat_walk_pages_count"
	else
		not_ok "no scrape of $URL with gupstat_build_info and gupstat_walk_pages_count"
		head -c 1000 "$tmp/m" 2>/dev/null | diag
	fi
	# The shipped options ask for --per-cgroup. The first scrape may have
	# been asked before the probes attached (the port is bound first):
	# an exec, which walks its argument pages, then a second scrape.
	unit_opts | grep -q -- --per-cgroup || return 0
	/bin/true
	curl -sS --max-time 20 -o "$tmp/m" "$URL" 2>/dev/null
	grep -q '^gupstat_cgroup_walk_pages_total{cgroup="/' "$tmp/m" &&
		ok "--per-cgroup: series by cgroup path, e.g. $(grep -m1 -o '^gupstat_cgroup_walk_pages_total{[^}]*}' "$tmp/m")" ||
		{ not_ok "--per-cgroup: no gupstat_cgroup_walk_pages_total{cgroup=\"/...\"}"; grep '^gupstat_cgroup' "$tmp/m" | head | diag; }
}

# The probes a plain gupstat serve, as root and unconfined, attaches
# here, and how: the service must attach the same, but for one case.
# Where the kernel refuses fentry for a function (__get_user_pages() on
# 6.1) gupstat falls back to a kprobe, which libbpf opens as a perf
# event; at kernel.perf_event_paranoid 3 (Debian's patch, its default)
# perf_event_open() is refused to all but CAP_SYS_ADMIN, CAP_PERFMON
# notwithstanding.
root_probes() {
	local port=$((${addr##*:} + 1)) pid i

	$GUPSTAT serve -e none --listen "127.0.0.1:$port" >/dev/null 2>"$tmp/root.err" &
	pid=$!
	for ((i = 0; i < WAIT; i++)); do
		curl -sS --max-time 20 -o "$tmp/root.m" "http://127.0.0.1:$port/metrics" 2>/dev/null && break
		sleep 1
	done
	kill -TERM $pid
	wait $pid
	grep '^gupstat_probe_info{' "$tmp/root.m" | sort >"$tmp/root.probes"
}

# same_probes ADMIN LOG: the scrape in $tmp/m names root_probes' probes,
# less the kprobes where the paranoid level refuses them to a service
# without CAP_SYS_ADMIN (ADMIN 0), each of those said in LOG in one line.
same_probes() {
	local lost=0

	cp "$tmp/root.probes" "$tmp/want"
	if [ "$1" = 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 2 ]; then
		lost=$(grep -c 'method="kprobe' "$tmp/root.probes")
		grep -v 'method="kprobe' "$tmp/root.probes" >"$tmp/want"
	fi
	grep '^gupstat_probe_info{' "$tmp/m" | sort >"$tmp/probes"
	if [ -s "$tmp/probes" ] && cmp -s "$tmp/probes" "$tmp/want"; then
		ok "the probes of gupstat as root, attached the same way: $(wc -l <"$tmp/probes"), $(grep -c kprobe "$tmp/probes") by kprobe, $lost refused (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid))"
	else
		not_ok "its probes are not gupstat's as root, less $lost"
		diff "$tmp/want" "$tmp/probes" | diag
		diag "$2"
	fi
	[ "$lost" = 0 ] && return
	expect_eq "each refused kprobe said in one line" \
		"$(grep -c '^gupstat serve: skipping .*: kprobe attach refused (Permission denied)$' "$2")" "$lost" "$2"
}

# check_pid PID: its capabilities and user are the unit's.
check_pid() {
	local st=/proc/$1/status

	expect_eq "CapEff is the unit's: CAP_BPF and CAP_PERFMON" "$(awk '$1 == "CapEff:" { print $2 }' "$st")" "$want_caps"
	expect_eq "CapBnd is the unit's" "$(awk '$1 == "CapBnd:" { print $2 }' "$st")" \
		"$(cap_mask "$(unit_key CapabilityBoundingSet)")"
	expect_eq "no_new_privs" "$(awk '$1 == "NoNewPrivs:" { print $2 }' "$st")" 1
	uid=$(awk '$1 == "Uid:" { print $2 }' "$st")
	[ "$uid" != 0 ] && ok "not root (uid $uid)" || not_ok "runs as root"
}

progs_before=$(prog_count)
root_probes

if [ "$(cat /proc/1/comm)" != systemd ]; then
	# The plain guest: the unit's ExecStart= by hand.
	unit_run "$PWD/$GUPSTAT" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	if wait_for "Serving http://$addr/metrics" "$tmp/err" $WAIT; then
		ok "ExecStart under the unit's uid and capabilities: $(head -n1 "$tmp/err")"
		scraped
		same_probes 0 "$tmp/err"
		check_pid $pid
	else
		not_ok "ExecStart under the unit's uid and capabilities did not serve"
		diag "$tmp/err"
	fi
	kill -TERM $pid 2>/dev/null
	wait $pid
	expect_eq "SIGTERM: exit 0" "$?" 0 "$tmp/err"
	expect_eq "every program detached" "$(prog_count)" "$progs_before"
	tap_done
fi

# Under systemd: installed as make install installs it.
make -s --no-print-directory install >"$tmp/install" 2>&1
expect_eq "make install" "$?" 0 "$tmp/install"
systemctl daemon-reload
expect_eq "installed disabled" "$(systemctl is-enabled gupstat 2>&1)" disabled
expect_eq "and not running" "$(systemctl is-active gupstat 2>&1)" inactive

since=$(date +%s)
systemctl start gupstat
expect_eq "systemctl start gupstat" "$?" 0
scraped
journalctl -u gupstat --since "@$since" -o cat _COMM=gupstat >"$tmp/j"
same_probes 0 "$tmp/j"
pid=$(systemctl show -P MainPID gupstat)
if [ "${pid:-0}" != 0 ]; then
	check_pid "$pid"
else
	not_ok "no main PID: $(systemctl status gupstat 2>&1 | tail -n 5)"
fi
systemctl stop gupstat
expect_eq "stopped: exit 0, not a failure" \
	"$(systemctl show -P Result gupstat) $(systemctl show -P ExecMainStatus gupstat)" "success 0"
expect_eq "every program detached" "$(prog_count)" "$progs_before"

# The drop-in docs/install.md gives for a kernel at perf_event_paranoid
# 3: CAP_SYS_ADMIN added to both sets (systemd merges the lines), and
# every probe of gupstat as root is the service's.
d=/etc/systemd/system/gupstat.service.d
mkdir -p $d
printf '[Service]\nCapabilityBoundingSet=CAP_SYS_ADMIN\nAmbientCapabilities=CAP_SYS_ADMIN\n' >$d/sys-admin.conf
systemctl daemon-reload
since=$(date +%s)
systemctl start gupstat
scraped
journalctl -u gupstat --since "@$since" -o cat _COMM=gupstat >"$tmp/j"
same_probes 1 "$tmp/j"
pid=$(systemctl show -P MainPID gupstat)
expect_eq "with the drop-in: CapEff CAP_BPF, CAP_PERFMON and CAP_SYS_ADMIN" \
	"$(awk '$1 == "CapEff:" { print $2 }' "/proc/$pid/status" 2>&1)" \
	"$(cap_mask "CAP_BPF CAP_PERFMON CAP_SYS_ADMIN")"
systemctl stop gupstat
# Why the unit has no ProtectKernelTunables=: it hides /proc/kallsyms,
# from which gupstat tells that a function can take a kprobe.
if grep -q 'method="kprobe' "$tmp/root.probes"; then
	echo 'ProtectKernelTunables=yes' >>$d/sys-admin.conf
	systemctl daemon-reload
	since=$(date +%s)
	systemctl start gupstat
	scraped
	journalctl -u gupstat --since "@$since" -o cat _COMM=gupstat >"$tmp/j"
	grep '^gupstat_probe_info{' "$tmp/m" | sort >"$tmp/probes"
	expect_eq "ProtectKernelTunables=yes: the kprobes are lost" \
		"$(diff "$tmp/root.probes" "$tmp/probes" | grep -c '^< .*method="kprobe'):$(grep -c 'method="kprobe' "$tmp/probes")" \
		"$(grep -c 'method="kprobe' "$tmp/root.probes"):0"
	# gupstat names the probe it skips, though not /proc/kallsyms as
	# the reason (it says fentry was refused: the last way it tried).
	f=$(grep -m1 -o 'function="[^"]*",method="kprobe' "$tmp/root.probes" | cut -d'"' -f2)
	grep -q "^gupstat serve: skipping $f: " "$tmp/j" &&
		ok "and the journal names it: $(grep -m1 "^gupstat serve: skipping $f: " "$tmp/j")" ||
		{ not_ok "no 'skipping $f' in the journal"; diag "$tmp/j"; }
	systemctl stop gupstat
else
	skip "no kprobe here: ProtectKernelTunables= would lose nothing"
fi
rm -r $d
systemctl daemon-reload

# A start that cannot trace (here: the drop-in takes the capabilities
# away, as a kernel refusing tracing refuses): one line, a non-zero exit,
# three tries, then systemd stops trying.
mkdir -p /run/systemd/system/gupstat.service.d
printf '[Service]\nAmbientCapabilities=\nRestartSec=1s\n' \
	>/run/systemd/system/gupstat.service.d/refused.conf
systemctl daemon-reload
systemctl reset-failed gupstat 2>/dev/null
since=$(date +%s)
systemctl start gupstat
# systemd's own word that it stopped trying; the unit's Result stays the
# first failure's (exit-code), which a start-limit-hit does not replace.
for ((i = 0; i < 60; i++)); do
	journalctl -u gupstat --since "@$since" -o cat _PID=1 | grep -q 'Start request repeated too quickly' && break
	sleep 1
done
sleep 5
# NRestarts counts the restart refused by the limit too.
expect_eq "refused: systemd gives up after StartLimitBurst starts" \
	"$(systemctl show -P NRestarts gupstat) $(systemctl is-active gupstat)" \
	"$(unit_key StartLimitBurst) failed"
journalctl -u gupstat --since "@$since" -o cat _PID=1 | grep -q 'Start request repeated too quickly' &&
	ok "journal: Start request repeated too quickly" ||
	not_ok "no 'Start request repeated too quickly' in 60s: $(systemctl status gupstat 2>&1 | tail -n 5)"
journalctl -u gupstat --since "@$since" -o cat _COMM=gupstat >"$tmp/j"
expect_eq "each start said one line, $(unit_key StartLimitBurst) starts" \
	"$(sort -u "$tmp/j" | wc -l):$(wc -l <"$tmp/j")" "1:$(unit_key StartLimitBurst)" "$tmp/j"
grep -q '^gupstat serve: need root (CAP_BPF and CAP_PERFMON' "$tmp/j" &&
	ok "that line: $(head -n1 "$tmp/j")" || not_ok "the line: $(head -n1 "$tmp/j")"
expect_eq "exit status 1" "$(systemctl show -P ExecMainStatus gupstat)" 1
expect_eq "nothing attached" "$(prog_count)" "$progs_before"

# A refused option (exit 2) is not retried.
rm /run/systemd/system/gupstat.service.d/refused.conf
echo 'GUPSTAT_SERVE_OPTS="-e none --no-such-option"' >/etc/default/gupstat
systemctl daemon-reload
systemctl reset-failed gupstat
systemctl start gupstat
sleep 5
expect_eq "a refused option: exit 2, not restarted" \
	"$(systemctl show -P ExecMainStatus gupstat) $(systemctl show -P NRestarts gupstat) $(systemctl is-active gupstat)" \
	"2 0 failed"
make -s --no-print-directory uninstall >/dev/null 2>&1
tap_done
