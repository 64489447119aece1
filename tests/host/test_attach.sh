#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A kernel that lets no probe in: every command that attaches ends in one
# line, in the kernel's terms (which way in was refused and why), exit
# status 1, and never names a BPF program: those are gupstat's own.
# Runs where the kernel has no kprobes (this host's has neither kprobes
# nor BPF tracing programs); elsewhere the cases are skipped.
# Also run on the sanitized build: tests/asan/run.
. tests/host/lib.sh

# The prefix is the command as typed: "gupstat", "gupstat trace", ...
refused='^gupstat( [a-z]+)?: this kernel refuses BPF tracing programs \(fentry: [^)]+\) and has no kprobes \([^)]+\)$'
no_kprobes='^gupstat( [a-z]+)?: this kernel has no kprobes \([^)]+\)$'

# run NAME CMD...: stdout and stderr in $tmp/NAME.{out,err}, rc in $tmp/NAME.rc;
# bounded, in case a kernel lets the probes in after all.
run() {
	local name=$1
	shift
	timeout 60 "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" </dev/null
	echo $? >"$tmp/$name.rc"
}

# no_program_names NAME: the messages never name a BPF program.
no_program_names() {
	if grep -Eq '[a-z]_(fentry|fexit|kprobe|kretprobe)\b' "$tmp/$1.err"; then
		not_ok "$1: a BPF program named: $(cat "$tmp/$1.err")"
	else
		ok "$1: no BPF program named"
	fi
}

if [ "$(id -u)" != 0 ]; then
	skip "not root: gupstat stops at the privilege check"
	tap_done
fi
if [ -e /sys/bus/event_source/devices/kprobe ] || [ -e /sys/kernel/tracing/kprobe_events ]; then
	skip "this kernel has kprobes: the refusals need one without"
	tap_done
fi

# -k: kprobes only, and there are none.
fails_with "gupstat -k" 1 "$no_kprobes" $G -k
fails_with "gupstat -k --dry-run" 1 "$no_kprobes" $G -k --dry-run
run k_dry $G -k --dry-run
no_program_names k_dry

run dry $G --dry-run
if [ "$(cat "$tmp/dry.rc")" = 0 ] && grep -Eq ' fentry(\+fexit)? ' "$tmp/dry.out"; then
	skip "fentry attaches on this kernel: the refusal of both needs one that refuses it"
	tap_done
fi

fails_with "gupstat" 1 "$refused" $G
fails_with "gupstat --dry-run" 1 "$refused" $G --dry-run
# --dry-run attaches for real: nothing listed as if it would attach.
grep -q 'kprobe+kretprobe\|fentry+fexit' "$tmp/dry.out" &&
	not_ok "--dry-run lists a method that cannot attach: $(cat "$tmp/dry.out")" ||
	ok "--dry-run lists no method that cannot attach"
fails_with "gupstat --lock-exact" 1 "$refused" $G --lock-exact
fails_with "gupstat -- true" 1 "$refused" $G -- true
run live $G
no_program_names live
no_program_names dry

fails_with "gupstat trace -o F" 1 "^gupstat trace: this kernel refuses BPF tracing programs" $G trace -o "$tmp/t.gst"
[ -e "$tmp/t.gst" ] && not_ok "gupstat trace left $tmp/t.gst behind" ||
	ok "gupstat trace: no half-written file left"
run trace $G trace -o "$tmp/t.gst"
no_program_names trace

# Validate may stop before the attach (no gup_test here); where it gets
# there, the same line.
fails_with "gupstat validate unpin" 1 "$refused|^gupstat validate: cannot open /sys/kernel/debug/gup_test" \
	$G validate unpin -o "$tmp/v.json"
[ -e "$tmp/v.json" ] && not_ok "gupstat validate left $tmp/v.json behind" ||
	ok "gupstat validate: no half-written file left"
run validate $G validate unpin -o "$tmp/v.json"
no_program_names validate
tap_done
