#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The source layout the docs promise: a directory per subcommand over
# src/probe, src/util and the file formats, no source file left at the top of src/ but main.c, and the
# maps (docs/layout.md, docs/bpf.md) naming every file.
. tests/host/lib.sh

for d in live serve trace report validate compare probe results tracefile gupsim kernel util; do
	[ -n "$(ls src/$d/*.c 2>/dev/null)" ] && ok "src/$d has sources" || not_ok "src/$d has no sources"
done
top=$(cd src && for f in *.c; do [ "$f" = main.c ] || printf './%s ' "$f"; done)
expect_eq "no source at the top of src/ but main.c" "$top" ""
# The shared layers stand below the subcommands: src/probe/ and src/util/
# include no subcommand's header, and src/util/ none of src/probe/.
up=$(grep -l '#include "\(live\|serve\|trace\|report\|validate\|compare\)/' src/util/* src/probe/* | tr '\n' ' ')
expect_eq "src/util and src/probe include no subcommand's header" "$up" ""
up=$(grep -l '#include "probe/' src/util/* | tr '\n' ' ')
expect_eq "src/util includes nothing of src/probe" "$up" ""
# docs/layout.md is the newcomer's map: every source file is on it.
missing=""
for f in src/*/*.c; do
	grep -q "\`$(basename "$f")\`\|\`${f}\`" docs/layout.md || missing="$missing $f"
done
expect_eq "every src/*/*.c named in docs/layout.md" "$missing" ""
# ... and every BPF object in docs/bpf.md.
missing=""
for f in bpf/*.bpf.c bpf/*/*.bpf.c; do
	grep -q "$(basename "$f")" docs/bpf.md || missing="$missing $f"
done
expect_eq "every bpf/*.bpf.c named in docs/bpf.md" "$missing" ""
tap_done
