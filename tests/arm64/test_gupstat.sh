#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat on the project's arm64 kernels (tools/vmrun --arch arm64; make
# check-arm64): the kernel is the one its name says (page size,
# contpte), every probe attaches by fentry/fexit and by kprobes when
# asked, and one pin of 64 kB folios is counted exactly, per kernel: on
# base one page per walk call and one ref per grab; on batched a page
# table per call and a folio (16 PTEs, mapped with the contiguous bit)
# per grab.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

log=$(mktemp)
err=$(mktemp)
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
[ "$n_fentry" -ge 5 ] && [ "$n_kprobe" = 0 ] &&
	ok "--dry-run: $n_fentry functions by fentry, none by kprobe" ||
	not_ok "--dry-run: $n_fentry by fentry, $n_kprobe by kprobe: $(cat "$log" "$err")"
$GUPSTAT -k --dry-run >"$log" 2>&1
n_kprobe=$(grep -Ec '^[a-z_]+ +kprobe' "$log")
expect_eq "--dry-run -k: every one of them by kprobe" "$n_kprobe" "$n_fentry" "$log"

# One pin of 16 MB of 64 kB folios (gup_test -L), counted, by fentry and
# by kprobes. gup_test's region is not 64 kB-aligned: its first and last
# slots are base pages, 16 pages in all, so 255 folios are whole.
[ "$page" = 4096 ] || { tap_done; exit; }
mb=16 pages=$((16 * 256))
count_pin() {
	local opts=$1
	# shellcheck disable=SC2086 # opts: gupstat options, or none
	$GUPSTAT -j -e none $opts -- $GUPWORK --folio 64k --size $mb exec -- \
		$GUP_TEST -L -m $mb -n $pages -r 1 >"$log" 2>"$err" ||
		{ not_ok "gupstat $opts around gup_test -L failed: $(tail -n 3 "$err")"; return; }
	expect_eq "pin$opts: FOLL_PIN pages" "$(hist "$log" gup_GUP_PIN_got sum)" $pages "$log"
	expect_eq "pin$opts: refs grabbed for them" "$(hist "$log" grab_pin_refs sum)" $pages "$log"
	if [ "$WALK_BATCHED" = 1 ]; then
		expect_eq "pin$opts: one grab of 16 refs per whole 64 kB folio" \
			"$(bucket "$log" grab_pin_refs 16)" 255 "$log"
		expect_eq "pin$opts: one ref per grab for the 16 base pages" \
			"$(bucket "$log" grab_pin_refs 1)" 16 "$log"
	else
		expect_eq "pin$opts: one ref per grab" "$(bucket "$log" grab_pin_refs 1)" $pages "$log"
	fi
	expect_eq "pin$opts: every page unpinned" "$(hist "$log" unpin_pages sum)" $pages "$log"
}
count_pin ""
count_pin " -k"
tap_done
