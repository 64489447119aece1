#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# What restates the catalogue (docs/bpf.md's and docs/serve.md's tables,
# gupstat-serve(8)'s list, the NDJSON schema's names) is what
# tools/catalog/update writes from it; and the check fails, naming the
# file, on a copy where a generated line went stale.
. tests/host/lib.sh

gen=build/catalog-gen
files="docs/bpf.md docs/serve.md man/gupstat-serve.8.scd docs/schemas/live.schema.json"
out=$(tools/catalog/update --check "$gen" 2>&1)
expect_eq "every generated part is the catalogue's (make catalog)" "$?:$out" "0:"

# A copy of the tree's generated files, one line of each made stale.
mkdir -p "$tmp/tools/catalog" "$tmp/docs/schemas" "$tmp/man" "$tmp/bpf"
cp bpf/*.bpf.c "$tmp/bpf/"
cp tools/catalog/update "$tmp/tools/catalog/"
for f in $files; do
	cp "$f" "$tmp/$f"
done
sed -i 's/| `gupstat_put_refs` |/| `gupstat_old_refs` |/' "$tmp/docs/serve.md"
sed -i 's/"put_refs",/"old_refs",/; s/"gup_longterm_calls": {/"gup_longterm_pins": {/' \
	"$tmp/docs/schemas/live.schema.json"
sums() { (cd "$tmp" && cat $files | md5sum | cut -c1-12); }
before=$(sums)
out=$("$tmp/tools/catalog/update" --check "$PWD/$gen" 2>&1)
rc=$?
expect_eq "a stale table fails the check" "$rc" 1
expect_eq "--check writes nothing" "$(sums)" "$before"
grep -q '^docs/serve.md: not what the catalogue makes it' <<<"$out" &&
grep -q '^docs/schemas/live.schema.json: not what' <<<"$out" &&
grep -q '^-| `gupstat_old_refs`' <<<"$out" && grep -q '^+ *"gup_longterm_calls": {' <<<"$out" &&
	ok "the check names each stale file, with a diff (a counter's key too)" ||
	{ not_ok "the check names each stale file, with a diff (a counter's key too)"; diag <<<"$out"; }
"$tmp/tools/catalog/update" "$PWD/$gen" >/dev/null
bad=""
for f in $files; do
	cmp -s "$f" "$tmp/$f" || bad="$bad $f"
done
expect_eq "make catalog writes them back as they were" "$bad" ""
# Only what is between a pair of markers is written: a file that lost
# one, or has a pair twice, is refused by name and left as it is.
sed -i '/catalog:begin hists/d' "$tmp/docs/bpf.md"
sed -n '/catalog:begin counters/,/catalog:end/p' "$tmp/docs/serve.md" >>"$tmp/docs/serve.md"
before=$(sums)
out=$("$tmp/tools/catalog/update" "$PWD/$gen" 2>&1)
expect_eq "files without a single pair of markers are refused by name" "$?:$out" \
	"1:catalog/update: docs/bpf.md: no single 'catalog:begin hists:' ... 'catalog:end' pair of markers
catalog/update: docs/serve.md: no single 'catalog:begin counters:' ... 'catalog:end' pair of markers"
expect_eq "and left as they were" "$(sums)" "$before"
fails_with "a generator that cannot run is one line" 2 "^catalog/update: .*/nonexistent" \
	"$tmp/tools/catalog/update" --check "$tmp/nonexistent"
tap_done
