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
# docs/layout.md is the newcomer's map: every source file is on it.
missing=""
for f in src/*/*.c; do
	grep -q "\`$(basename "$f")\`\|\`${f#src/}\`\|\`${f}\`" docs/layout.md || missing="$missing $f"
done
expect_eq "every src/*/*.c named in docs/layout.md" "$missing" ""
# ... and every BPF object in docs/bpf.md.
missing=""
for f in bpf/*.bpf.c bpf/*/*.bpf.c; do
	grep -q "$(basename "$f")" docs/bpf.md || missing="$missing $f"
done
expect_eq "every bpf/*.bpf.c named in docs/bpf.md" "$missing" ""
tap_done
