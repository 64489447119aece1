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

# field NAME FILE: the number after NAME on gupstat's "calls N, pages N" line.
field() {
	grep -E '^calls [0-9]+, pages [0-9]+' "$2" | sed -E "s/.*$1 ([0-9]+).*/\1/" | head -n1
}

# pages/call histogram bucket COUNT for VALUE (e.g. bucket 1 FILE).
bucket() {
	awk -v v="$1" '$1 == v && $2 == ":" { print $3 }' "$2"
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
