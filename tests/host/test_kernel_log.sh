#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/lib/kernel-log on made-up consoles: a report while a test file
# ran fails and names the file, whichever kind of report it is; lines
# before the command, boot noise, dump_page()'s line and the test
# markers do not count; a guest that died fails; the allow list takes
# a line out for the kernels it names only. Also run-one's timeout.
. tests/host/lib.sh

# console NAME LINE...: a console as tools/vmrun keeps it, the command's
# window between the init's markers; LINEs go after test_a.sh's start.
console() {
	local name=$1
	shift
	{
		echo '[    0.500000] ACPI: some boot complaint: WARNING: before the command'
		echo VMRUN-UP
		echo '[    1.000000] gupstat-test: start tests/guest/test_a.sh'
		printf '%s\n' "$@"
		echo '[    9.000000] gupstat-test: start tests/guest/test_b.sh'
		echo VMRUN-EXIT=0
	} >"$tmp/$name"
}

# judge NAME [KERNEL]: the judge's failed count and exit status.
judge() {
	tests/lib/kernel-log "$tmp/$1" "${2:-base-debug}" >"$tmp/out" 2>&1
	echo "rc $? $(grep -c '^not ok' "$tmp/out") failed"
}

console clean '[    2.000000] page dumped because: gup_test: dump_pages() test' \
	'[    2.100000] process launched with executable stack'
expect_eq "a clean window passes" "$(judge clean)" "rc 0 0 failed" "$tmp/out"
grep -q '^ok 1 - .* 2 test files ran' "$tmp/out" && ok "the markers are counted, not judged" ||
	{ not_ok "markers"; diag "$tmp/out"; }

for report in 'WARNING: CPU: 1 PID: 77 at mm/gup.c:912 follow_page_pte+0x1a3/0x400' \
	'BUG: sleeping function called from invalid context at mm/gup.c:1500' \
	'WARNING: possible circular locking dependency detected' \
	'kernel BUG at mm/gup.c:1200!' 'Oops: general protection fault, probably for non-canonical address' \
	'rcu: INFO: rcu_preempt self-detected stall on CPU' 'UBSAN: shift-out-of-bounds in mm/gup.c:10:5'; do
	console splat "[    3.000000] $report" '[    3.100000] Call Trace:'
	expect_eq "a report fails: ${report:0:40}" "$(judge splat)" "rc 1 1 failed" "$tmp/out"
done
grep -q 'while tests/guest/test_a.sh ran, the first: UBSAN: shift' "$tmp/out" &&
	ok "the failure names the file and the report's first line" || { not_ok "naming"; diag "$tmp/out"; }

console two 'WARNING: one' && sed -i 's/^VMRUN-EXIT=0$/WARNING: two\nVMRUN-EXIT=0/' "$tmp/two"
expect_eq "reports in two files are two failures" "$(judge two)" "rc 1 2 failed" "$tmp/out"

console died '[    3.000000] Oops: int3' && sed -i '/^VMRUN-EXIT=0$/d' "$tmp/died"
expect_eq "a guest that died fails twice: its oops and no exit status" "$(judge died)" "rc 1 2 failed" "$tmp/out"
grep -q 'without an exit status, while tests/guest/test_b.sh ran' "$tmp/out" &&
	ok "the death names the file that was running" || { not_ok "death"; diag "$tmp/out"; }

: >"$tmp/empty"
expect_eq "no console kept fails" "$(judge empty)" "rc 1 1 failed" "$tmp/out"

mkdir -p "$tmp/lib" && cp tests/lib/kernel-log tests/lib/splat.ere "$tmp/lib/"
printf 'debian-*\tWARNING: CPU: .* at fs/harmless\\.c\tmade up for this test\n' >"$tmp/lib/kernel-log.allow"
console allowed 'WARNING: CPU: 0 PID: 1 at fs/harmless.c:1 x'
"$tmp/lib/kernel-log" "$tmp/allowed" debian-6.12 >"$tmp/out" 2>&1
expect_eq "an allowed report passes on the kernels named" "rc $?" "rc 0" "$tmp/out"
"$tmp/lib/kernel-log" "$tmp/allowed" base-debug >"$tmp/out" 2>&1
expect_eq "and fails on the others" "rc $?" "rc 1" "$tmp/out"

# run-one: a file over its time is stopped and said as a failure.
printf '#!/bin/sh\necho "ok 1 - first"\nsleep 30\necho "1..2"\n' >"$tmp/slow.sh" && chmod +x "$tmp/slow.sh"
start=$SECONDS
out=$(GUPSTAT_FILE_TIMEOUT=1 tests/lib/run-one "$tmp/slow.sh")
rc=$?
expect_eq "run-one stops a file at GUPSTAT_FILE_TIMEOUT" "rc $rc, $((SECONDS - start < 10))" "rc 124, 1"
echo "$out" | grep -q "^not ok - $tmp/slow.sh: stopped after 1s" && ok "and says so as a failed case" ||
	not_ok "run-one said: $out"
tap_done
