#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What differs between kernels, checked on each: the suite also boots
# Debian's own 6.1, 6.12, 7.2 and 7.3, which nobody here built.
# The expectations are the test's own, per kernel release; gupstat
# decides the same things from BTF and kallsyms.
#   6.1:  __get_user_pages() has 7 arguments, which 6.1's BPF trampoline
#         refuses at attach time: kprobes stand in for that probe alone;
#         the slow path grabs page by page in try_grab_page() (its
#         try_grab_folio() is the fast path's); FOLL_* are #defines, not
#         in BTF; no per-size mTHP controls; no function to time
#         --lock-exact from (the PTE lock is taken in a macro).
#   6.12: try_grab_folio(folio, refs, flags), fentry everywhere;
#         --lock-exact from __pte_offset_map_lock().
#   7.x:  as 6.12, but __pte_offset_map_lock() is gone: --lock-exact
#         from pte_offset_map_lock(), out of line there.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

k_log=$(mktemp)
k_err=$(mktemp)
K_MB=64
K_PAGES=$((K_MB * 256))
case $(uname -r) in
6.1.*) k_grab=try_grab_page k_gup_method=kprobe+kretprobe k_lock= ;;
6.*) k_grab=try_grab_folio k_gup_method=fentry+fexit k_lock=__pte_offset_map_lock ;;
*) k_grab=try_grab_folio k_gup_method=fentry+fexit k_lock=pte_offset_map_lock ;;
esac
# The batched series walks a page table (512 PTEs) per call.
if [ $WALK_BATCHED = 1 ]; then k_walk_calls=$((K_PAGES / 512)); else k_walk_calls=$K_PAGES; fi

$GUPSTAT --dry-run >"$k_log" 2>"$k_err"
grep -Eq "^$k_grab +fentry +refs per grab" "$k_log" &&
	ok "--dry-run: the refcount batch from $k_grab()" ||
	not_ok "--dry-run: no '$k_grab fentry' line: $(cat "$k_log")"
grep -Eq "^__get_user_pages +${k_gup_method/+/\\+} " "$k_log" &&
	ok "--dry-run: __get_user_pages via $k_gup_method" ||
	not_ok "--dry-run: __get_user_pages not via $k_gup_method: $(grep __get_user_pages "$k_log")"
if [ "$k_gup_method" = kprobe+kretprobe ]; then
	grep -q '(fentry/fexit refused (error 524, ENOTSUPP' "$k_log" &&
		grep -q '^gupstat: __get_user_pages: fentry/fexit refused (error 524, ENOTSUPP.*using kprobes$' "$k_err" &&
		ok "--dry-run: the attach refused, one line says so, the fallback shown" ||
		not_ok "--dry-run: fallback not said: $(cat "$k_err")"
fi
if [ -n "$k_lock" ]; then
	$GUPSTAT --dry-run --lock-exact >"$k_log" 2>"$k_err"
	grep -Eq "^$k_lock +fexit +exact PTE-lock acquire" "$k_log" &&
		ok "--dry-run --lock-exact: the hold timed from $k_lock()" ||
		not_ok "--dry-run --lock-exact: no '$k_lock fexit' line: $(cat "$k_log" "$k_err")"
else
	fails_with "--dry-run --lock-exact, no PTE-lock function" 1 \
		"^gupstat: --lock-exact: cannot trace __pte_offset_map_lock: not in this kernel" \
		$GUPSTAT --dry-run --lock-exact
fi

# `sudo gupstat` with no option, the whole system, around 64 MB of 4 kB
# pages read through process_vm_readv: every page is one walk call (one
# per page table on the batched kernel) and one grabbed ref. Beyond the workload's pins the walk counts only the
# argument pages of gupwork's exec (FOLL_GET, one page each). The wait
# for the attach runs no program: an exec in flight while the probes
# attach one by one would have walks counted without its GUP call.
k_fifo=$(mktemp -u)
mkfifo "$k_fifo"
exec {k_fd}<>"$k_fifo"
k_attached() {
	local i s
	for ((i = 0; i < 600; i++)); do
		s=$(<"$k_err")
		[[ $s == *"Hit Ctrl-C"* ]] && return 0
		read -r -t 0.1 -u $k_fd
	done
	return 1
}
$GUPSTAT -j >"$k_log" 2>"$k_err" &
k_gs=$!
if k_attached; then
	$GUPWORK --folio 4k --size $K_MB readv >/dev/null 2>&1 ||
		not_ok "gupwork readv failed on $(uname -r)"
	kill -INT $k_gs
	wait $k_gs
	expect_eq "plain gupstat: exit status" "$?" 0 "$k_err"
	if [ "$k_gup_method" = kprobe+kretprobe ]; then
		grep -q '^gupstat: __get_user_pages: fentry/fexit refused (error 524, ENOTSUPP.*using kprobes$' "$k_err" &&
			expect_eq "plain gupstat: __get_user_pages fell back at attach" \
				"$(hist "$k_log" 'gup_returned_pages{kind=pin}' method)" \
				kprobe+kretprobe ||
			not_ok "plain gupstat: no fallback line: $(cat "$k_err")"
	fi
	k_other=$(( $(hist "$k_log" 'gup_returned_pages{kind=get}' sum) + $(hist "$k_log" 'gup_returned_pages{kind=noref}' sum) ))
	expect_calls "plain gupstat: walk calls beyond exec's $k_other" \
		"$(( $(hist "$k_log" walk_pages count) - k_other ))" $k_walk_calls "$k_log"
	expect_eq "plain gupstat: pages walked beyond exec's" \
		"$(( $(hist "$k_log" walk_pages sum) - k_other ))" $K_PAGES "$k_log"
	expect_eq "plain gupstat: FOLL_PIN pages" "$(hist "$k_log" 'gup_returned_pages{kind=pin}' sum)" $K_PAGES
	expect_eq "plain gupstat: refs grabbed for the pins" "$(hist "$k_log" 'grab_refs{foll=pin}' sum)" $K_PAGES
	expect_eq "plain gupstat: one ref per grab" "$(bucket "$k_log" 'grab_refs{foll=pin}' 1)" $K_PAGES
	expect_eq "plain gupstat: grabs named after $k_grab()" \
		"$(hist "$k_log" 'grab_refs{foll=pin}' function)" \
		$k_grab
	expect_eq "plain gupstat: every page unpinned" "$(hist "$k_log" 'unpin_pages{function=unpin_user_pages}' sum)" $K_PAGES
else
	kill $k_gs 2>/dev/null
	not_ok "plain gupstat did not attach: $(cat "$k_err")"
fi

# Folio sizes: 4 kB and 2 MB on every kernel (above and in test_walk.sh);
# 64 kB only with per-size controls, refused in one line without them.
if have_mthp; then
	$GUPWORK --folio 64k --size 16 readv >"$k_log" 2>&1 &&
		grep -q 'folio size 64kB confirmed' "$k_log" &&
		ok "gupwork: 64 kB mTHP confirmed" || not_ok "gupwork 64k: $(cat "$k_log")"
else
	k_thp=$(cat /sys/kernel/mm/transparent_hugepage/enabled)
	fails_with "gupwork 64k without mTHP" 1 "no per-size THP controls" \
		$GUPWORK --folio 64k --size 16 readv
	$GUPWORK --folio 2m --size 16 readv >"$k_log" 2>&1 &&
		grep -q 'folio size 2048kB confirmed: anon_fault_alloc +8 ' "$k_log" &&
		ok "gupwork 2M through the top-level THP switch" || not_ok "gupwork 2m: $(cat "$k_log")"
	$GUPWORK --folio 4k --size 16 readv >"$k_log" 2>&1 &&
		grep -q 'folio size 4kB confirmed' "$k_log" &&
		ok "gupwork 4k through the top-level THP switch" || not_ok "gupwork 4k: $(cat "$k_log")"
	expect_eq "gupwork: top-level THP switch restored" \
		"$(cat /sys/kernel/mm/transparent_hugepage/enabled)" "$k_thp"
fi
exec {k_fd}>&-
rm -f "$k_log" "$k_err" "$k_fifo"
tap_done
