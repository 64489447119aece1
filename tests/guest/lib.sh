# SPDX-License-Identifier: GPL-2.0
# Helpers for the in-guest tests: TAP output and gupstat's numbers.

GUPSTAT=${GUPSTAT:-build/gupstat}
GUPWORK=${GUPWORK:-build/gupwork}
GUP_TEST=${GUP_TEST:-build/selftests/gup_test}
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

# expect_eq WHAT GOT WANT [LOG]: pass when equal, else show the log.
expect_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1 ($2)"
	else
		not_ok "$1: got '$2', want '$3'"
		[ -n "${4:-}" ] && sed 's/^/#   /' "$4"
	fi
}

# fails_with NAME WANT_RC PATTERN CMD...: exactly one line on stderr,
# matching PATTERN, and exit status WANT_RC.
fails_with() {
	local name=$1 want=$2 pattern=$3 rc out err
	shift 3
	out=$(mktemp) err=$(mktemp)
	"$@" >"$out" 2>"$err"
	rc=$?
	if [ "$rc" = "$want" ] && [ "$(wc -l <"$err")" = 1 ] && grep -q "$pattern" "$err"; then
		ok "$name: rc $rc, $(cat "$err")"
	else
		not_ok "$name: rc $rc (want $want), stderr: $(head -c 300 "$err")"
	fi
	rm -f "$out" "$err"
}

# The numbers come from gupstat -j (NDJSON); the last report counts. A
# traced command shares gupstat's stdout: only the JSON lines are read.
records() {
	grep '^{"type":' "$1"
}

# hist FILE NAME FIELD: a histogram's count, sum or max.
hist() {
	records "$1" | jq -rs --arg n "$2" --arg f "$3" \
		'[.[] | select(.type == "hist" and .data.name == $n)] | last | .data[$f] // empty'
}

# bucket FILE NAME LOW: the count in the bucket starting at LOW (0 if none).
bucket() {
	records "$1" | jq -rs --arg n "$2" --argjson lo "$3" \
		'[.[] | select(.type == "hist" and .data.name == $n)] | last |
		 [.data.buckets[]? | select(.low == $lo) | .count] | add // 0'
}

# counter FILE NAME: one of the "counters" record's fields.
counter() {
	records "$1" | jq -rs --arg n "$2" '[.[] | select(.type == "counters")] | last | .data[$n] // empty'
}

# buckets FILE NAME: "low:count" pairs, for messages.
buckets() {
	records "$1" | jq -rs --arg n "$2" '[.[] | select(.type == "hist" and .data.name == $n)] | last |
		[.data.buckets[]? | "\(.low):\(.count)"] | join(" ")'
}

# wait_for PATTERN FILE [SEC]: until FILE shows PATTERN (e.g. attached).
wait_for() {
	local i
	for ((i = 0; i < ${3:-60} * 10; i++)); do
		grep -q "$1" "$2" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# What this kernel has, asked of the kernel itself (not its version):
# the suite runs on our kernels and on Debian's, and a test that needs
# what a kernel lacks checks the refusal instead.
have_gup_test() { [ -e /sys/kernel/debug/gup_test ]; }
have_mthp() { [ -d /sys/kernel/mm/transparent_hugepage/hugepages-64kB ]; }
have_sym() { awk -v s="$1" '$3 == s { f = 1; exit } END { exit !f }' /proc/kallsyms; }
