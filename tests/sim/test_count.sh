#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The model's instruction counts on code whose count is known: a user
# loop of 2N + 1 instructions between two markers, exactly, with timer
# interrupts left out; then kernel calls: the same pin counts the same
# in every repeat, twice the pages take twice the unpin's work, and the
# flat profile adds up to the calls it was taken over.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh
dir=$GUPSTAT_SIM_DIR
log=$dir/gupsim.log
PATTERN=build/tests/sim-pattern
CTL=build/gupsim-ctl
out=$(mktemp)

field() { tr ' ' '\n' <"$1" | sed -n "s/^$2=//p"; }
is() {
	if [ "$2" = "$3" ]; then ok "$1: $2"; else not_ok "$1: got '$2', want $3"; fi
}

if $CTL "$dir" config pin_user_pages unpin_user_pages >"$out" 2>&1; then
	ok "gupsim-ctl config: $(cut -d: -f1 "$out")"
else
	not_ok "gupsim-ctl config: $(cat "$out")"
	tap_done
fi
is "what the guest told the plugin: interrupt entries" \
	"$(grep -c '^irq ' "$dir/gupsim.ctl" | awk '{ print ($1 >= 10) }')" 1
for n in 10 1000000 1000000; do
	if $PATTERN "$log" loop $n >"$out" 2>&1; then
		is "loop of $((2 * n + 1)) instructions: counted" "$(field "$out" insns)" $((2 * n + 1))
		is "  no data access" "$(field "$out" accesses)" 0
	else
		not_ok "sim-pattern loop $n: $(cat "$out")"
	fi
done

if ! have_gup_test; then
	skip "no CONFIG_GUP_TEST: the kernel counts need it"
	rm -f "$out"
	tap_done
fi
# calls MB REPEATS: the call lines of a gup_test -L run on CPU 0, 4 kB pages.
calls() {
	local before
	before=$(wc -l <"$log")
	taskset -c 0 build/gupwork --folio 4k --size "$1" exec -- \
		build/selftests/gup_test -L -m "$1" -n $(($1 * 256)) -r "$2" >/dev/null 2>&1 ||
		return 1
	tail -n +$((before + 1)) "$log" | grep '^call '
}
# insns FUNC: the instructions of each call of FUNC in the calls on stdin.
insns() { awk -v f="$1" '$2 == f { print $12 }'; }

$CTL "$dir" profile >/dev/null
if calls 16 3 >"$out"; then
	pins=$(insns pin_user_pages <"$out" | tr '\n' ' ')
	is "three pins of 16 MB counted" "$(echo $pins | wc -w)" 3
	echo "$pins" | awk '{ d = ($3 > $2 ? $3 - $2 : $2 - $3) / $2; exit !(d <= 0.005) }' &&
		ok "the second and third pin count the same within 0.5%: $pins" ||
		not_ok "repeats of one pin count apart by more than 0.5%: $pins"
	unpins=$(insns unpin_user_pages <"$out" | sort -u | wc -l)
	is "every unpin of the same pages counts the same instructions" "$unpins" 1
	total=$(insns pin_user_pages <"$out" | awk '{ t += $1 } END { print t }')
	prof=$($CTL "$dir" profile | awk '$1 == "pin_user_pages" { t += $12 } END { print t }')
	is "the profile's instructions add up to the pins'" "$prof" "$total"
	small=$(insns unpin_user_pages <"$out" | head -n1)
	if calls 32 1 >"$out"; then
		big=$(insns unpin_user_pages <"$out")
		awk -v a="$small" -v b="$big" 'BEGIN { exit !(b / a >= 1.98 && b / a <= 2.02) }' &&
			ok "unpin of twice the pages: twice the instructions ($small, $big)" ||
			not_ok "unpin of 16 and 32 MB: $small and $big instructions, not 1:2 within 1%"
	else
		not_ok "gup_test at 32 MB failed"
	fi
else
	not_ok "gup_test -L at 16 MB failed: $(cat "$out")"
fi
rm -f "$out"
tap_done
