# SPDX-License-Identifier: GPL-2.0
# TAP for every shell test file: source it, call ok/not_ok/expect_eq/
# fails_with (diag for what a failure shows), end with tap_done. Each test file is its own process and
# prints its own plan, which the harness (tests/lib/harness, prove)
# checks: a file that dies half-way is a failure, not fewer passes.
tap_nr=0
tap_failed=0

ok() {
	tap_nr=$((tap_nr + 1))
	echo "ok $tap_nr - $*"
}

not_ok() {
	tap_nr=$((tap_nr + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_nr - $*"
}

# diag [FILE...]: FILEs, or stdin, as TAP diagnostics ("#   " before
# each line), under the case they explain: `not_ok ...; diag "$log"`,
# `head -n 5 "$log" | diag`. prove shows them and counts nothing.
diag() {
	sed 's/^/#   /' "$@"
}

# skip WHY: a case this machine or kernel cannot run, said as such.
skip() {
	tap_nr=$((tap_nr + 1))
	echo "ok $tap_nr # skip $*"
}

# expect_eq WHAT GOT WANT [LOG]: pass when equal, else show the log.
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1 ($2)"
	else
		not_ok "$1: got '$2', want '$3'"
		[ -n "${4:-}" ] && diag "$4"
	fi
	return 0
}

# fails_with NAME WANT_RC PATTERN CMD...: exactly one line on stderr,
# matching PATTERN (grep -E), and exit status WANT_RC.
fails_with() {
	local name=$1 want=$2 pattern=$3 rc out err
	shift 3
	out=$(mktemp) err=$(mktemp)
	"$@" >"$out" 2>"$err" </dev/null
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$err")" = 1 ] && grep -Eq -- "$pattern" "$err"; then
		ok "$name: rc $rc, $(cat "$err")"
	else
		not_ok "$name: rc $rc (want $want), stderr: $(head -c 300 "$err")"
	fi
	rm -f "$out" "$err"
}

# tap_done: the plan, and the exit status prove reads with it.
tap_done() {
	echo "1..$tap_nr"
	[ "$tap_failed" = 0 ]
	exit
}
