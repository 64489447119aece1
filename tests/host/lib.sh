# SPDX-License-Identifier: GPL-2.0
# What every host test file starts with: TAP, the gupstat just built, and
# a scratch directory that goes at exit (a file may redefine cleanup()
# to undo more, calling rm -rf "$tmp" itself). GUPSTAT names another
# binary to test (absolute, or relative to the source tree): make
# check's asan part runs these files again on build/asan/gupstat.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/lib/tap.sh

G=${GUPSTAT:-build/gupstat}
[[ $G == /* ]] || G=$PWD/$G
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gupstat-test.XXXXXX")
cleanup() {
	rm -rf "$tmp"
}
trap cleanup EXIT

# results [RELEASE [SIZE_MB]]: a results file as gupstat validate writes
# it, one run of one repeat, for compare's tests.
results_series='"pin_ns":[1000],"unpin_ns":[2000],"pin_counter":[],"unpin_counter":[]'
results() {
	printf '{"format":"gupstat-validate-unpin","version":1,'
	printf '"kernel":{"release":"%s","version":"#1","walk":"page"},' "${1:-6.12.0}"
	printf '"attach":"fentry","counter":{"event":null,"reason":"none"},'
	printf '"cpu":0,"repeats":1,"evict_bytes":1048576,"runs":[{"folio":"4k",'
	printf '"size_mb":%s,"pages":256,"folios":256,' "${2:-1}"
	printf '"census":{"pin_calls":1,"pin_pages":256,"grabs":256,"grab_refs":256,'
	printf '"unpin_calls":1,"unpin_pages":256,"puts":256,"put_refs":256},'
	printf '"warm":{%s},"cold":{%s}}]}\n' "$results_series" "$results_series"
}

# schemas_named ROOT GUPSTAT: each schema report's and compare's --help
# name, as a file under ROOT, where install put it ("missing" if not).
schemas_named() {
	local sub path

	for sub in report compare; do
		path=$("$2" $sub --help | tr -d '\n' | grep -o '(/[^ )]*\.schema\.json)' | tr -d '()' |
			head -n1)
		if [ -n "$path" ] && cmp -s "$1$path" "docs/schemas/$sub.schema.json"; then
			echo "$sub: $path"
		else
			echo "$sub: missing '$path'"
		fi
	done
}
