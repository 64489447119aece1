#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat report --folded on a real trace: one 256 MB pin of 4 kB pages
# (gup_test -L, or a process_vm_readv of as much where the kernel has no
# gup_test; 64 MB on Debian's kernels, lib.sh FOLD_MB), traced once and read by every case. The folded lines add up
# to the report's total hold time, and by holds to its hold count; the
# pin's own holds, found by their stacks' frames, are as many as the
# walk makes (lib.sh calls_ok); trace --folded wrote the same file at
# the end of the run. The folded file is kept in
# $GUEST_RESULTS/folded-256m.folded for the host, which draws it
# (tests/render-flame). A trace taken with --no-stacks is refused.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

tdir=$(mktemp -d)
T=$tdir/t.gt
F=$tdir/t.folded
terr=$tdir/err
treport=$tdir/report
pages=$((FOLD_MB * 256))
if [ $WALK_BATCHED = 1 ]; then pins=$((pages / 512)); else pins=$pages; fi

f_logs() {
	diag "$terr"
	head -c 1500 "$treport" 2>/dev/null | diag
}

# The weights of the folded lines on stdin (those whose frames match
# PATTERN, if given), added up; %.0f, as mawk's %d stops at 2^31-1.
fold_sum() {
	awk -v p="${1:-}" 'p == "" || $0 ~ p { n += $NF } END { printf "%.0f\n", n }'
}

if have_gup_test; then
	what="gup_test -L -m $FOLD_MB -n $pages" frame="gup_test_ioctl"
	work=(exec -- "$GUP_TEST" -L -m "$FOLD_MB" -n "$pages")
else
	what="process_vm_readv of $FOLD_MB MB" frame="process_vm_rw"
	work=(readv)
fi
name="trace -- $what"
if ! $GUPSTAT trace -o "$T" --folded "$tdir/live.folded" -- $GUPWORK --folio 4k --size "$FOLD_MB" "${work[@]}" \
	>/dev/null 2>"$terr" || ! $GUPSTAT report -n 0 "$T" >"$treport" 2>>"$terr"; then
	not_ok "$name: trace or report failed"
	f_logs
	tap_done
fi
total=$(sed -nE 's/^ *total hold time ([0-9]+) ns .* in ([0-9]+) holds$/\1/p' "$treport")
holds=$(sed -nE 's/^ *total hold time ([0-9]+) ns .* in ([0-9]+) holds$/\2/p' "$treport")
[ -n "$total" ] && [ "$holds" -gt 0 ] && ok "$name: the report's total, $total ns in $holds holds" ||
	{ not_ok "$name: no total hold time in the report"; f_logs; }
expect_eq "$name: the report's hold count is the file's" "$holds" \
	"$(sed -nE 's/^  holds ([0-9]+), lost.*/\1/p' "$treport")"

if $GUPSTAT report --folded "$F" "$T" >/dev/null 2>>"$terr"; then
	expect_eq "$name: folded lines, by ns, add up to the total" "$(fold_sum <"$F")" "$total"
	bad=$(grep -cvE '^[^ ;][^;]*(;[^;]+)* [0-9]+$' "$F")
	expect_eq "$name: every line 'FRAME;FRAME... N'" "$bad" 0
	# Root first: the innermost frame, follow_page_pte (by function, and
	# the functions inlined in it if its vmlinux was found), ends each stack.
	expect_eq "$name: stacks end in follow_page_pte" \
		"$(grep -v '^\[no stack\] ' "$F" | grep -cvE 'follow_page_pte(;[^; ]+_\[i\])* [0-9]+$')" 0
	cmp -s "$tdir/live.folded" "$F" && ok "$name: trace --folded wrote what report --folded does" ||
		not_ok "$name: trace --folded and report --folded differ"
	[ -n "${GUEST_RESULTS:-}" ] && cp "$F" "$GUEST_RESULTS/folded-256m.folded"
else
	not_ok "$name: report --folded failed"
	f_logs
fi
by_holds=$($GUPSTAT report --folded-weight holds --folded - "$T" 2>>"$terr")
expect_eq "$name: folded lines, by holds, add up to the hold count" \
	"$(fold_sum <<<"$by_holds")" "$holds"
expect_calls "$name: holds under $frame, by their stacks" \
	"$(fold_sum "$frame" <<<"$by_holds")" $pins "$treport"

# The real writer's header for --no-stacks, as report reads it.
name="trace --no-stacks"
if $GUPSTAT trace --no-stacks -o "$tdir/n.gt" -- $GUPWORK --folio 4k --size 16 readv \
	>/dev/null 2>"$terr"; then
	fails_with "$name: report --folded" 1 "no stacks \(written with --no-stacks\)" \
		$GUPSTAT report --folded "$tdir/n.folded" "$tdir/n.gt"
	[ ! -e "$tdir/n.folded" ] && ok "$name: nothing written" || not_ok "$name: a file written"
else
	not_ok "$name: trace failed"
	f_logs
fi
rm -rf "$tdir"
tap_done
