#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The source layout the docs promise: a directory per subcommand over
# the shared layers (docs/layout.md), each including only the layers
# below it; no source file at the top of src/ but main.c; the maps
# (docs/layout.md, docs/bpf.md) naming every file.
. tests/host/lib.sh

for d in live serve trace report validate compare probe results tracefile gupsim kernel util; do
	[ -n "$(ls src/$d/*.c 2>/dev/null)" ] && ok "src/$d has sources" || not_ok "src/$d has no sources"
done
top=$(cd src && for f in *.c; do [ "$f" = main.c ] || printf './%s ' "$f"; done)
expect_eq "no source at the top of src/ but main.c" "$top" ""
# Each layer includes only what stands below it (docs/layout.md): the
# project's headers a file in src/DIR includes, by their directory.
SUBCMDS="live serve trace report validate compare"
includes() {
	sed -n 's@^#include "\([a-z_]*\)/[^"]*".*@\1@p' "$@" | sort -u | tr '\n' ' '
}
# below DIR ALLOWED...: every project header src/DIR includes is in its
# own directory or one of ALLOWED (full paths, so that util/ cannot be
# matched by a name that merely ends in it).
below() {
	local d=$1 bad="" i
	shift
	for i in $(includes src/"$d"/*.[ch]); do
		[[ " $d $* " == *" $i "* ]] || bad="$bad $i/"
	done
	expect_eq "src/$d/ includes only${*:+ $*}" "$bad" ""
}
below util
below kernel util
below gupsim kernel util
below tracefile util
below results util
below probe kernel util
for d in $SUBCMDS; do
	below "$d" probe tracefile results gupsim kernel util
done
# The headers BPF and the file formats share (include/) are not layers:
# util/ takes none of those either, bar none.
up=$(grep -l '#include "\(gupstat\|gupsim\|gup_test\)' src/util/* | tr '\n' ' ')
expect_eq "src/util includes none of include/'s BPF or model records" "$up" ""
# ... nor libbpf's or the kernel's UAPI headers, but for linux/types.h.
up=$(grep -H '#include <\(bpf\|linux\)/' src/util/* | grep -v '<linux/types.h>' | cut -d: -f1 | sort -u |
	tr '\n' ' ')
expect_eq "src/util includes no libbpf or kernel header but linux/types.h" "$up" ""
# docs/layout.md is the newcomer's map: every source file is on it.
missing=""
for f in src/*/*.c; do
	b=$(basename "$f")
	# A name two folders share (options.c, plot.c) is named with its folder.
	if [ "$(find src -mindepth 2 -name "$b" | wc -l)" -gt 1 ]; then
		grep -q "\`${f#src/}\`\|\`${f}\`" docs/layout.md || missing="$missing $f"
	else
		grep -q "\`$b\`\|\`${f#src/}\`\|\`${f}\`" docs/layout.md || missing="$missing $f"
	fi
done
expect_eq "every src/*/*.c named in docs/layout.md" "$missing" ""
# ... and every BPF object in docs/bpf.md.
missing=""
for f in bpf/*.bpf.c bpf/*/*.bpf.c; do
	grep -q "$(basename "$f")" docs/bpf.md || missing="$missing $f"
done
expect_eq "every bpf/*.bpf.c named in docs/bpf.md" "$missing" ""
# docs/ is prose and schemas: recorded runs live in results/, indexed by
# results/README.md, and test inputs in tests/data/.
other=$(find docs -type f | sort |
	grep -v '^docs/[^/]*\.md$' | grep -v '^docs/schemas/[^/]*\.json$' | tr '\n' ' ')
expect_eq "docs/ holds only *.md and schemas/*.json" "$other" ""
out=$(/usr/bin/python3 tests/lib/check-links.py docs/*.md README.md results/README.md 2>&1 | tr '\n' ';')
expect_eq "every relative link in docs/*.md, README.md and results/README.md resolves" "$out" ""
mkdir -p "$tmp/links/sub"
printf '# Top\n\n## A heading, with `code`?\n\n[ok](#a-heading-with-code) [ok](sub/b.md#b) [url](https://x/y#z)\n[gone](sub/c.md) [bad](sub/b.md#c) `[code](nowhere.md)`\n\n    [indented](nowhere.md)\n' \
	>"$tmp/links/a.md"
printf '# B\n' >"$tmp/links/sub/b.md"
out=$(/usr/bin/python3 tests/lib/check-links.py "$tmp/links/a.md" 2>&1)
rc=$?
out=$(sed "s|$tmp/links/||" <<<"$out" | tr '\n' ';')
expect_eq "the link check finds a missing file and a missing heading, nothing else" "$rc:$out" \
	"1:a.md: sub/c.md (no such file);a.md: sub/b.md#c (no such heading);"
missing=""
while IFS= read -r f; do
	grep -qF "\`${f#results/}\`" results/README.md || missing="$missing ${f#results/}"
done < <(find results -type f ! -path results/README.md | sort)
expect_eq "results/README.md names every file under results/" "$missing" ""
long=$(awk -F' \\| ' '/^\|/ { for (i = 1; i <= NF; i++) if (length($i) > 300) print FILENAME ":" FNR }' \
	docs/benchmarks.md docs/trace.md docs/testing.md results/README.md | tr '\n' ' ')
expect_eq "no table cell over 300 characters in benchmarks.md, trace.md, testing.md, results/README.md" "$long" ""
readers=$(grep -rlE '(^|[^-_/[:alnum:]])results/(validate|bench|trace-plots)' tests tools debian Makefile |
	grep -v '^tests/host/test_layout.sh$' | tr '\n' ' ')
expect_eq "no test or tool reads results/ (their inputs are in tests/data/)" "$readers" ""
tap_done
