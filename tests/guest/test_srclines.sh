#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat report --vmlinux on a real trace: a process_vm_readv pin
# traced, then read with the booted kernel's own vmlinux (the host's
# kernel cache, which the guest sees read-only), found by the build ID
# the trace recorded. The innermost frames resolve to lines of mm/gup.c
# that are in the kernel's source (rebuilt from the cached source and
# the kernel's patches) inside the function they name; at least one
# frame is an inlined function, in the text, -j and folded stacks; a
# vmlinux of another kernel is refused in one line, the frames left as
# they were. On a kernel whose vmlinux is not in the cache (Debian's),
# the cases are skipped.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

NR_CASES=9
tdir=$(mktemp -d)
T=$tdir/t.gt
err=$tdir/err

# The running kernel's build ID: the GNU note of /sys/kernel/notes.
running_id() {
	local hex
	hex=$(od -An -tx1 -v /sys/kernel/notes | tr -d ' \n')
	hex=${hex#*03000000474e5500}
	echo "${hex:0:40}"
}

# The project's kernel cache, where the guest finds it: the host's.
kernels=""
for c in ${GUPSTAT_CACHE:-} "${HOME:-/root}/.cache/gupstat" /root/.cache/gupstat; do
	[ -d "$c/kernels" ] && { kernels=$c/kernels; cache=$c; break; }
done
id=$(running_id)
V="" other=""
for v in ${kernels:+"$kernels"/*/vmlinux}; do
	if readelf -n "$v" 2>/dev/null | grep -q "Build ID: $id\$"; then
		V=$v
	elif [ -z "$other" ]; then
		other=$v
	fi
done
if [ -z "$V" ] || [ ${#id} != 40 ]; then
	for ((i = 0; i < NR_CASES; i++)); do
		skip "no vmlinux with build ID ${id:-?} in the kernel cache (${kernels:-none})"
	done
	rm -rf "$tdir"
	tap_done
fi

# The kernel's mm/gup.c as built: the cached source, plus the series
# for a batched kernel (kernel/build applies it and reverts it after).
gup_source() {
	local src name out=$tdir/src p
	src=$(ls -d "$cache"/src/linux-source-* 2>/dev/null | head -1)
	name=$(basename "$(dirname "$V")")
	mkdir -p "$out/mm" && cp "$src/mm/gup.c" "$out/mm/gup.c" 2>/dev/null || return 1
	case $name in
	base-* | base) ;;
	batched-debug-* | batched-[0-9a-f]*)
		for p in $(grep -v '^#' kernel/patches/series); do
			patch -s -p1 -d "$out" <"kernel/patches/$p" >/dev/null 2>&1 || return 1
		done ;;
	*) return 1 ;;
	esac
	echo "$out/mm/gup.c"
}

# The last top-level function that starts at or before LINE of FILE: a
# definition at column 0, "type name(", as the kernel writes them.
func_at() {
	awk -v n="$2" 'NR > n { exit }
		/^[A-Za-z_].*[ *][A-Za-z_][A-Za-z_0-9]*\(/ && !/;[ \t]*$/ {
			s = $0; sub(/\(.*/, "", s); sub(/.*[ *]/, "", s); f = s }
		END { print f }' "$1"
}

name="trace -- readv, report --vmlinux"
if ! $GUPSTAT trace -o "$T" -- $GUPWORK --folio 4k --size 16 readv >/dev/null 2>"$err" ||
	! $GUPSTAT report -j -n 20 --vmlinux "$V" "$T" >"$tdir/j" 2>"$err"; then
	not_ok "$name: trace or report failed"
	diag "$err"
else
	ok "$name: $(basename "$(dirname "$V")") by build ID $id"
fi
expect_eq "$name: nothing on stderr" "$(head -c 300 "$err")" ""

# The innermost frame of the longest hold: mm/gup.c, a line in its source.
fn="" file="" line=""
read -r fn file line < <(jq -r '[.longest[].stack // [] | .[0]][0] |
	"\(.function) \(.file) \(.line)"' "$tdir/j" 2>/dev/null)
expect_eq "$name: the innermost frame is in mm/gup.c" "${file:-}" "mm/gup.c" "$tdir/j"
src=$(gup_source)
if [ -z "$src" ]; then
	skip "the source of $(basename "$(dirname "$V")") is not rebuilt here"
	skip "(same)"
else
	[ "${line:-0}" -gt 0 ] && [ "$line" -le "$(wc -l <"$src")" ] &&
		ok "$name: mm/gup.c:$line exists: $(sed -n "${line}p" "$src" | tr -s '\t ' ' ')" ||
		not_ok "$name: mm/gup.c:${line:-?} is past the file's end"
	expect_eq "$name: mm/gup.c:$line is inside $fn" "$(func_at "$src" "${line:-0}")" "$fn"
fi

inl=$(jq '[.longest[].stack // [] | .[] | select(.inlined == true)] | length' "$tdir/j")
[ "${inl:-0}" -gt 0 ] && ok "$name: $inl inlined frames, e.g. $(jq -r '[.longest[].stack // [] |
	.[] | select(.inlined == true)][0] | "\(.function) \(.file):\(.line)"' "$tdir/j")" ||
	not_ok "$name: no inlined frame"
$GUPSTAT report -n 3 --vmlinux "$V" "$T" >"$tdir/text" 2>"$err"
grep -qE '^ +[a-z_0-9]+ \(inlined\) [^ ]+:[0-9]+$' "$tdir/text" &&
	ok "$name: the text marks an inlined frame" ||
	{ not_ok "$name: no '(inlined)' frame in the text"; head -c 2000 "$tdir/text" | diag; }
$GUPSTAT report --folded - --vmlinux "$V" "$T" >"$tdir/folded" 2>"$err"
grep -q '_\[i\]' "$tdir/folded" && ! grep -q '+0x' "$tdir/folded" &&
	ok "$name: folded by function, inlined frames '_[i]'" ||
	{ not_ok "$name: folded stacks not by function with inlined frames"; head -5 "$tdir/folded" | diag; }

# Another kernel's vmlinux: refused by its build ID, frames as before.
if [ -n "$other" ]; then
	$GUPSTAT report -n 3 --vmlinux "$other" "$T" >"$tdir/text" 2>"$err"
	[ "$(wc -l <"$err")" = 1 ] && grep -q 'build ID' "$err" &&
		! grep -q '(inlined)' "$tdir/text" && grep -q 'follow_page_pte+0x' "$tdir/text" &&
		ok "$name: another kernel's vmlinux refused: $(cut -c1-150 "$err")" ||
		{ not_ok "$name: another kernel's vmlinux not refused in one line"; diag "$err"; }
else
	skip "no other kernel's vmlinux in the cache"
fi
rm -rf "$tdir"
tap_done
