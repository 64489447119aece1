#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Core dumps read the dying process through get_dump_page(), which is
# __get_user_pages() with FOLL_DUMP, one page per call: the batched walk
# must hand it the same pages as before. build/dumpwork crash builds
# mappings of known content at fixed addresses (4 kB, 64 kB and 2 MB
# folios, the zero and huge zero pages, holes, dropped, PROT_NONE and
# read-only pages, a memfd) and aborts; build/dumpwork digest checks
# every page of the core against what it wrote and which pages the
# kernel wrote or skipped, and prints a digest with no pid, time or
# register in it. One file of tests/kernel/suite; the digest goes to $KRESULTS/coredump.digest, for `cmp` between the
# base and batched kernels, when KRESULTS is set.
#
# Needs CONFIG_COREDUMP and CONFIG_ELF_CORE, THP and memfd (all in
# kernel/config/base.config), and /tmp on a file system that keeps holes
# (tmpfs in tools/vmrun's guest), so that the skipped pages show.
# dumpwork sets its own coredump_filter (0x33, the default; it relies on
# bits 0 and 1, anonymous private and shared memory).
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/kernel/lib.sh

DUMPWORK=${DUMPWORK:-$BUILD/dumpwork}
cdump_dir=$(mktemp -d)
cdump_t0=$SECONDS
cdump_pattern=$(cat /proc/sys/kernel/core_pattern)

# cdump_crash: run dumpwork crash under a core_pattern that points into
# our directory, with no core size limit, and put the pattern back.
cdump_crash() {
	local rc
	echo "$cdump_dir/core" >/proc/sys/kernel/core_pattern
	# The subshell's bash, not the suite's, reports "Aborted (core
	# dumped)", into the log.
	(ulimit -c unlimited && "$DUMPWORK" crash; exit $?) >"$cdump_dir/crash.log" 2>&1
	rc=$?
	echo "$cdump_pattern" >/proc/sys/kernel/core_pattern
	# 134: killed by SIGABRT (6), which only happens once every mapping
	# was built and its folio size confirmed.
	if [ "$rc" = 134 ]; then
		ok "coredump: dumpwork crash built its mappings and aborted"
		grep -e confirmed -e built "$cdump_dir/crash.log" | diag
	else
		not_ok "coredump: dumpwork crash exited $rc, want 134 (SIGABRT)"
		diag "$cdump_dir/crash.log"
	fi
}

# cdump_poke CORE ADDR BYTE: write BYTE (0-255) where the core holds ADDR.
cdump_poke() {
	local off
	off=$("$DUMPWORK" offset "$1" "$2") || return 1
	# shellcheck disable=SC2059
	printf "\\$(printf %03o "$3")" |
		dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}

# cdump_peek CORE ADDR: the byte the core holds for ADDR.
cdump_peek() {
	local off
	off=$("$DUMPWORK" offset "$1" "$2") || return 1
	od -An -tu1 -j "$off" -N1 "$1" | tr -d ' '
}

# cdump_refuses NAME FILE WANT...: digest must fail on FILE, with a line
# matching each WANT.
cdump_refuses() {
	local name=$1 file=$2 out want
	shift 2
	out=$("$DUMPWORK" digest "$file" 2>&1)
	if [ $? != 1 ]; then
		not_ok "coredump: digest did not catch $name (exit status not 1)"
		echo "$out" | tail -n 5 | diag
		return
	fi
	for want in "$@"; do
		if ! echo "$out" | grep -q "$want"; then
			not_ok "coredump: digest did not catch $name (no line matches '$want')"
			echo "$out" | tail -n 5 | diag
			return
		fi
	done
	ok "coredump: digest catches $name"
	echo "$out" | grep -e '^FAIL' -e '^dumpwork: ' | diag
}

# cdump_selftest CORE: the checks can fail. A truncated core and an ELF
# file that is not a core are refused; in the core itself, a flipped byte
# in a written page and, where the file system keeps holes, a zero
# written into a skipped page (the huge zero page: the same bytes, but as
# if the kernel had dumped it) are caught.
cdump_selftest() {
	local size b want=()
	grep -q '^dumpwork digest: .*holes kept$' "$cdump_dir/digest" &&
		want=("^FAIL thp-zero page 0 (0x600000a00000): dumped as data, want a hole")
	size=$(stat -c %s "$1")
	head -c $((size / 2)) "$1" >"$cdump_dir/truncated"
	cdump_refuses "a truncated core" "$cdump_dir/truncated" "truncated"
	cdump_refuses "an ELF file that is not a core" "$DUMPWORK" "not a core dump"
	if b=$(cdump_peek "$1" 0x600000000010) &&
	   cdump_poke "$1" 0x600000000010 $((255 - b)) &&
	   cdump_poke "$1" 0x600000a00000 0; then
		cdump_refuses "a flipped byte and a page dumped that was skipped" "$1" \
			"^FAIL small-4k page 0 (0x600000000000) +0x10: " "${want[@]}"
	else
		not_ok "coredump: cannot find the bytes to corrupt in the core"
	fi
}

cdump_run() {
	local cores core rc
	cdump_crash
	# "core", or "core.PID" where kernel.core_uses_pid is set.
	cores=("$cdump_dir"/core*)
	core=${cores[0]}
	if [ ! -s "$core" ]; then
		not_ok "coredump: no core in $cdump_dir (core_pattern '$cdump_pattern' restored)"
		return
	fi
	ok "coredump: core written ($(du -k "$core" | cut -f1) kB on disk of $(stat -c %s "$core") bytes)"
	"$DUMPWORK" digest "$core" >"$cdump_dir/digest" 2>"$cdump_dir/digest.err"
	rc=$?
	if [ -n "${KRESULTS:-}" ]; then
		cp "$cdump_dir/digest" "$KRESULTS/coredump.digest"
		# A failed check keeps the core for a closer look on the host.
		[ "$rc" = 0 ] || cp "$core" "$KRESULTS/coredump.core"
	fi
	if [ "$rc" = 0 ]; then
		ok "coredump: every page as dumpwork wrote it ($(tail -n1 "$cdump_dir/digest"))"
	else
		not_ok "coredump: digest exited $rc"
		grep -h -e '^FAIL' -e '^digest:' "$cdump_dir/digest" | diag
		diag "$cdump_dir/digest.err"
	fi
	cdump_selftest "$core"
}

cdump_run
echo "# coredump: $((SECONDS - cdump_t0)) s"
rm -rf "$cdump_dir"
tap_done
