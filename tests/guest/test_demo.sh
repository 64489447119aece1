#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/demo, what `make run` shows a new user first: on every kernel it
# names the kernel and its workload, exits 0, counts every page of its
# 256 MB in the walk and in the pins, and, but on the batched kernel,
# ends by saying how to see the batched walk.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

d_log=$(mktemp)
d_err=$(mktemp)
D_PAGES=$((256 * 256))

rc=0
tools/demo >"$d_log" 2>"$d_err" || rc=$?
expect_eq "demo: exit status" "$rc" 0

first=$(head -n1 "$d_log")
case $first in
"# kernel $(uname -r); workload: "*" on 4 kB folios") ok "demo: names the kernel and the workload: $first" ;;
*) not_ok "demo: first line: $first" ;;
esac

# "count N, total T pages, ..." under a title: T of the first such block.
total_under() {
	sed -n "/^$1/,/^\$/p" "$d_log" | sed -nE 's/^ *count [0-9]+, total ([0-9]+) (pages|refs),.*/\1/p' | head -n1
}

# The demo counts its command and the command's children: the
# workload's pages, times the rounds its first line names (gup_test's
# -r 4 where the kernel has gup_test, one readv elsewhere), and the
# argument pages of its execs, a few each; a page counted twice would
# not stay within D_SLACK.
rounds=$(echo "$first" | sed -n 's/.* -r \([0-9]*\) .*/\1/p')
D_PAGES=$((D_PAGES * ${rounds:-1}))
D_SLACK=64
walk=$(total_under 'follow_page_pte(): pages per call')
[ "${walk:-0}" -ge "$D_PAGES" ] && [ "$walk" -le $((D_PAGES + D_SLACK)) ] &&
	ok "demo: the walk counted $walk pages ($D_PAGES to $D_PAGES + $D_SLACK)" ||
	not_ok "demo: the walk counted '${walk:-nothing}' pages, want $D_PAGES to $D_PAGES + $D_SLACK"
# unpin_user_pages_dirty_lock() calls unpin_user_pages() for a clean
# unpin: the latter sees every page either way.
unpin=$(total_under 'unpin_user_pages(): pages per call')
[ "${unpin:-0}" -ge "$D_PAGES" ] && [ "$unpin" -le $((D_PAGES + D_SLACK)) ] &&
	ok "demo: $unpin pages unpinned ($D_PAGES to $D_PAGES + $D_SLACK)" ||
	not_ok "demo: $unpin pages unpinned, want $D_PAGES to $D_PAGES + $D_SLACK"

last=$(tail -n1 "$d_log")
if [ "$WALK_BATCHED" = 1 ]; then
	[[ $last != "# the batched walk:"* ]] &&
		ok "demo: on the batched kernel, no pointer to it" ||
		not_ok "demo: on the batched kernel, it points to itself: $last"
else
	[[ $last == "# the batched walk: make run KERNEL=batched "* ]] &&
		ok "demo: ends with how to see the batched walk" ||
		not_ok "demo: last line: $last"
fi
# What a kernel lacks is said in a line each; nothing else may be.
extra=$(grep -vE '^(gupstat: (skipping |no .* counter|.*, using kprobes$)|gupwork: )' "$d_err")
[ -z "$extra" ] &&
	ok "demo: stderr holds only gupstat's skip and fallback lines and gupwork's report" ||
	not_ok "demo: unexpected stderr: $(head -n3 <<<"$extra")"

rm -f "$d_log" "$d_err"
tap_done
