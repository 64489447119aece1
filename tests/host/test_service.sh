#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# contrib/systemd/gupstat.service on a kernel that refuses BPF tracing
# (this host): its ExecStart=, run as systemd would run it (the options
# file's GUPSTAT_SERVE_OPTS, the unit's uid and capability sets), fails
# at once with one line on stderr and a non-zero exit, and the unit
# restarts such a failure a bounded number of times.
. tests/host/lib.sh
. tests/lib/service.sh

if ! command -v setpriv >/dev/null || ! command -v capsh >/dev/null; then
	skip "no setpriv or capsh: run make deps"
	tap_done
fi

timeout 30 bash -c '. tests/lib/service.sh; unit_run "$1"' _ "$G" >"$tmp/out" 2>"$tmp/err"
rc=$?
expect_eq "ExecStart on a kernel that refuses tracing: exit 1 (not 124: it did not hang)" "$rc" 1 "$tmp/err"
expect_eq "one line on stderr" "$(wc -l <"$tmp/err")" 1 "$tmp/err"
grep -q '^gupstat serve: this kernel refuses BPF tracing programs' "$tmp/err" &&
	ok "the line says why: $(cut -c1-100 "$tmp/err")" || not_ok "the line: $(head -c 300 "$tmp/err")"
expect_eq "nothing on stdout" "$(wc -c <"$tmp/out")" 0

# What a failed start costs: Restart=on-failure, but at most
# StartLimitBurst starts in StartLimitIntervalSec, and a command line
# refused (2) is never retried.
expect_eq "Restart=" "$(unit_key Restart)" on-failure
burst=$(unit_key StartLimitBurst) interval=$(unit_key StartLimitIntervalSec)
restart=$(unit_key RestartSec)
if [ "${burst:-0}" -ge 1 ] && [ "${burst:-0}" -le 5 ] &&
	[ $((burst * ${restart%s})) -lt "${interval:-0}" ]; then
	ok "the restart limit is reached: $burst starts, ${restart} apart, fit in ${interval}s"
else
	not_ok "StartLimitBurst=$burst RestartSec=$restart StartLimitIntervalSec=$interval: restarts would not stop"
fi
expect_eq "RestartPreventExitStatus=" "$(unit_key RestartPreventExitStatus)" 2
tap_done
