#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tools/demo, what `make run` shows a new user first: on every kernel it
# names the kernel and its workload, exits 0, counts every page of its
# 256 MB in the walk and in the pins, and, but on the batched kernel,
# ends by saying how to see the batched walk. On the project's kernels it
# runs again on 64 kB folios: a page table per walk call and 16 refs per
# grab on batched, one of each at a time on base.
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

# The project's kernels: the same again on 64 kB folios, where the
# batched walk takes a page table per call (128 per 256 MB round, a few
# more for the execs) and a folio's 16 refs per grab; base a page and a
# ref at a time. "count C, total T UNIT, avg A, max M" of TITLE there.
stats_64k() {
	sed -n '/on 64 kB folios$/,$p' "$d_log" | sed -n "/^$1/,/^\$/p" |
		sed -nE 's/^ *count ([0-9]+), total ([0-9]+) (pages|refs), avg [0-9.]+, max ([0-9]+).*/\1 \2 \4/p' | head -n1
}
case $(uname -r) in
*-gupstat-*)
	grep -q "^# kernel $(uname -r); workload: .* on 64 kB folios$" "$d_log" &&
		ok "demo: on the project's kernel, a second run on 64 kB folios" ||
		not_ok "demo: on the project's kernel, no run on 64 kB folios"
	read -r calls wpages _ < <(stats_64k 'follow_page_pte(): pages per call')
	read -r grabs refs rmax < <(stats_64k 'try_grab_folio() FOLL_PIN: refs per call')
	if [ "$WALK_BATCHED" = 1 ]; then
		want_calls=$((D_PAGES / 512)) want_max=16
	else
		want_calls=$D_PAGES want_max=1
	fi
	[ "${calls:-0}" -ge "$want_calls" ] && [ "$calls" -le $((want_calls + D_SLACK)) ] &&
		[ "${wpages:-0}" -ge "$D_PAGES" ] && [ "$wpages" -le $((D_PAGES + D_SLACK)) ] &&
		ok "demo: 64 kB folios: $wpages pages in $calls walk calls ($want_calls to $want_calls + $D_SLACK)" ||
		not_ok "demo: 64 kB folios: '${wpages:-?}' pages in '${calls:-?}' walk calls, want $D_PAGES in $want_calls to $want_calls + $D_SLACK"
	[ "${rmax:-0}" = "$want_max" ] && [ "${refs:-0}" -ge "$D_PAGES" ] && [ "$refs" -le $((D_PAGES + D_SLACK)) ] &&
		ok "demo: 64 kB folios: $refs refs in $grabs grabs, at most $rmax per grab" ||
		not_ok "demo: 64 kB folios: '${refs:-?}' refs in '${grabs:-?}' grabs, max '${rmax:-?}' per grab, want $D_PAGES refs, max $want_max" ;;
esac

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
