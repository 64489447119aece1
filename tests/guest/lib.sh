# SPDX-License-Identifier: GPL-2.0
# Helpers for the in-guest tests: gupstat's numbers, what the kernel has.

GUPSTAT=${GUPSTAT:-build/gupstat}
GUPWORK=${GUPWORK:-build/gupwork}
GUP_TEST=${GUP_TEST:-build/selftests/gup_test}
. tests/lib/tap.sh

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
