#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat on arm64 kernels (make check-arm64: the project's debug pair and
# Debian's debian-6.12-arm64): the kernel is the one its name says (page
# size, contpte), every probe attaches by fentry/fexit and by kprobes
# when asked, and 16 MB of 64 kB folios pinned through process_vm_readv()
# are counted exactly, per kernel: on base one page per walk call and
# one ref per grab; on batched a page table per call and a folio (16
# PTEs, mapped with the contiguous bit) per grab.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

log=$(mktemp)
err=$(mktemp)
other=0
trap 'rm -f "$log" "$err"' EXIT

expect_eq "arch: an arm64 guest" "$(uname -m)" aarch64
case $(uname -r) in
*-arm64-64k*) want_page=65536 ;;
*) want_page=4096 ;;
esac
page=$(getconf PAGESIZE)
expect_eq "page size: what $(uname -r | sed 's/.*-gupstat-//') is built with" "$page" "$want_page"
# arch/arm64/mm/contpte.c is built with CONFIG_ARM64_CONTPTE alone.
have_sym contpte_convert && ok "contpte: built in (contpte_convert in kallsyms)" ||
	not_ok "contpte: no contpte_convert in kallsyms"

# Every probe the kernel has attaches by fentry/fexit: arm64's BPF
# trampolines need ftrace's direct calls (kernel/config/arm64.config).
$GUPSTAT --dry-run >"$log" 2>"$err"
n_fentry=$(grep -Ec '^[a-z_]+ +fentry' "$log")
n_kprobe=$(grep -Ec '^[a-z_]+ +kprobe' "$log")
# -O2 may leave __get_user_pages() only as a clone (batched-arm64-debug
# 7.3: __get_user_pages.part.0, its head inlined into the callers):
# gupstat skips it and names the clone, and its per-call counts are gone.
gup_clone=
if have_sym __get_user_pages; then
	grep -Eq '^__get_user_pages +fentry' "$log" &&
		ok "--dry-run: __get_user_pages() by fentry" ||
		not_ok "--dry-run: __get_user_pages() in kallsyms, not by fentry: $(cat "$log" "$err")"
else
	gup_clone=$(awk '$3 ~ /^__get_user_pages\./ && $3 !~ /\.cold/ { print $3; exit }' /proc/kallsyms)
	grep -q "only its compiler clone ${gup_clone:-?} is in kallsyms" "$log" "$err" &&
		ok "--dry-run: __get_user_pages() skipped, its clone $gup_clone named" ||
		not_ok "--dry-run: no __get_user_pages() in kallsyms, clone '$gup_clone' not named: $(cat "$log" "$err")"
fi
[ "$n_fentry" -ge 5 ] && [ "$n_kprobe" = 0 ] &&
	ok "--dry-run: $n_fentry functions by fentry, none by kprobe" ||
	not_ok "--dry-run: $n_fentry by fentry, $n_kprobe by kprobe: $(cat "$log" "$err")"
$GUPSTAT -k --dry-run >"$log" 2>&1
n_kprobe=$(grep -Ec '^[a-z_]+ +kprobe' "$log")
expect_eq "--dry-run -k: every one of them by kprobe" "$n_kprobe" "$n_fentry" "$log"

# 16 MB of 64 kB folios read through process_vm_readv() (FOLL_PIN, 1024
# pages per call; gupwork aligns its region to the folio size), counted
# by fentry and by kprobes: on Debian's kernel as on ours, no GUP_TEST
# needed.
if [ "$page" != 4096 ]; then
	skip "pin counts: written for 4 kB pages, this kernel's are $page bytes (make bench-ab-arm64 counts its pins)"
	tap_done
	exit
fi
mb=16 pages=$((16 * 256))
count_pin() {
	local opts=$1
	# shellcheck disable=SC2086 # opts: gupstat options, or none
	$GUPSTAT -j -e none $opts -- $GUPWORK --folio 64k --size $mb readv >"$log" 2>"$err" ||
		{ not_ok "gupstat$opts around gupwork readv failed: $(tail -n 3 "$err")"; return; }
	if [ -n "$gup_clone" ]; then
		skip "pin$opts: FOLL_PIN pages: __get_user_pages() is only $gup_clone on this kernel"
	else
		expect_eq "pin$opts: FOLL_PIN pages" "$(hist "$log" 'gup_returned_pages{kind=pin}' sum)" $pages "$log"
	fi
	expect_eq "pin$opts: refs grabbed for them" "$(hist "$log" 'grab_refs{foll=pin}' sum)" $pages "$log"
	if [ "$WALK_BATCHED" = 1 ]; then
		expect_eq "pin$opts: one grab of 16 refs per 64 kB folio" \
			"$(bucket "$log" 'grab_refs{foll=pin}' 16)" $((pages / 16)) "$log"
	else
		expect_eq "pin$opts: one ref per grab" "$(bucket "$log" 'grab_refs{foll=pin}' 1)" $pages "$log"
	fi
	# Beyond exec's own argument pages (FOLL_GET, a walk each): a page a
	# call on base, a page table (512 PTEs) a call on batched.
	# A kernel where __get_user_pages() could not be probed has neither:
	# 0, not an abort.
	get=$(hist "$log" 'gup_returned_pages{kind=get}' sum)
	noref=$(hist "$log" 'gup_returned_pages{kind=noref}' sum)
	other=$(( ${get:-0} + ${noref:-0} ))
	expect_calls "pin$opts: walk calls beyond exec's $other" \
		"$(( $(hist "$log" walk_pages count) - other ))" \
		$(( WALK_BATCHED ? pages / 512 : pages )) "$log"
	expect_eq "pin$opts: every page unpinned" "$(hist "$log" 'unpin_pages{function=unpin_user_pages}' sum)" $pages "$log"
}
count_pin ""
count_pin " -k"
tap_done
