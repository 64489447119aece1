#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# docs/layout.md's recipe for a new probe with one histogram, followed as
# written on a copy of the tree: tests/data/recipe-probe.patch (a made-up
# probe of gup_scratch_fn(), one time histogram) touches the four files
# the recipe names; the copy builds with -Werror (the BPF object and its
# skeleton with it), `make catalog` writes the rest, and then the unit
# tests and the host tests of the catalogue, the layout, the man pages,
# the NDJSON and the dashboard (whose stand-in for serve must export
# every family) pass with no table of theirs edited by hand and no
# file's count of cases moved. The guest suites are not run on it: the
# made-up function exists in no kernel.
. tests/host/lib.sh
. tests/lib/cases.sh

patch=tests/data/recipe-probe.patch
files=$(sed -n 's@^+++ b/@@p' "$patch" | sort | tr '\n' ' ')
expect_eq "the patch touches the four files of the recipe" "$files" \
	"bpf/scratch.bpf.c include/gupstat.h src/probe/catalog.c src/probe/probes.h "

if ! git ls-files --error-unmatch Makefile >/dev/null 2>&1; then
	skip "a copy of the tree" "not a git checkout: git ls-files names the tree"
	tap_done
	exit
fi
t=$tmp/tree
mkdir -p "$t/build"
git ls-files -z | tar --null -T - -cf - | tar -C "$t" -xf -
# The build's objects, so that the copy rebuilds only what the patch
# changes (the host part runs after make check's build).
cp -a build/src build/bpf build/*.skel.h build/*.bpf.o "$t/build/" 2>/dev/null
(cd "$t" && git apply -p1 "$OLDPWD/$patch") 2>"$tmp/err"
grep -q H_SCRATCH_NS "$t/include/gupstat.h" && ok "the patch applies" ||
	{ not_ok "the patch applies"; diag "$tmp/err"; }
(cd "$t" && make -s -j2 all unit-tests catalog) >"$tmp/make" 2>&1
expect_eq "the copy builds, and make catalog writes the rest" "$?" 0 "$tmp/make"
changed=$(cd "$t" && for f in docs/bpf.md docs/serve.md man/gupstat-serve.8.scd \
		docs/schemas/live.schema.json; do
	cmp -s "$f" "$OLDPWD/$f" || printf '%s ' "$f"
done)
expect_eq "make catalog wrote every restatement" "$changed" \
	"docs/bpf.md docs/serve.md man/gupstat-serve.8.scd docs/schemas/live.schema.json "
grep -q '`gupstat_scratch_seconds`' "$t/docs/serve.md" &&
grep -q '"scratch_ns"' "$t/docs/schemas/live.schema.json" &&
grep -q '`scratch.bpf.c`' "$t/docs/bpf.md" &&
	ok "the new family, name and program are in them" ||
	not_ok "the new family, name and program are in them"
(cd "$t" && "$t/build/gupstat" --help >/dev/null && build/catalog-gen | grep -q '"H_SCRATCH_NS"')
expect_eq "the copy's gupstat runs and its catalogue has the row" "$?" 0
(cd "$t" && find build/tests -name 'test_*' -type f -executable -print0 |
	xargs -0 tests/lib/harness unit) >"$tmp/unit" 2>&1
rc=$?
grep -E '^(not ok|Dubious|Failed)|^build' "$tmp/unit" >"$tmp/unit.not-ok"
expect_eq "the copy's unit tests pass" "$rc" 0 "$tmp/unit.not-ok"
(cd "$t" && tests/lib/harness host tests/host/test_catalog.sh tests/host/test_layout.sh \
	tests/host/test_man.sh tests/host/test_json.sh tests/host/test_contrib.sh) >"$tmp/host" 2>&1
rc=$?
grep -E '^(not ok|Dubious|Failed)|^tests' "$tmp/host" >"$tmp/host.not-ok"
expect_eq "the copy's catalogue, layout, man, NDJSON and dashboard host tests pass" "$rc" 0 \
	"$tmp/host.not-ok"
# ... and no file's count of cases moves: tests/cases needs no edit.
moved=$(for part in unit host; do
	cases_of "$tmp/$part" | while read -r f n; do
		want=$(awk -v p="$part" -v f="$f" '$1 == p && $2 == f { print $3 }' tests/cases)
		[ "$n" = "$want" ] || printf '%s %s->%s ' "$f" "$want" "$n"
	done
done)
expect_eq "no test file's count of cases moves (tests/cases)" "$moved" ""
tap_done
