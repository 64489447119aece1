#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The files gupstat writes and reads, on this host (root): a failed
# command leaves every file as it was and nothing behind; a symlink, a
# device, an input or a full disk as the output is one line and exit 1;
# so is a FIFO, a device, a huge, empty or malformed input; and so is a
# standard output that does not take what is printed. trace and validate
# fail here (no kprobes, no GUP_TEST): after they opened their output.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh

G=$PWD/build/gupstat
TRACE=$PWD/tests/fuzz/corpus/valid-base.gt
d=$(mktemp -d /tmp/gupstat-files-XXXXXX)
full=$d/full
cleanup() {
	mountpoint -q "$full" && umount "$full"
	rm -rf "$d"
}
trap cleanup EXIT

# intact NAME FILE TEXT: FILE still holds exactly TEXT.
intact() {
	expect_eq "$1: $2 untouched" "$(cat "$2" 2>&1)" "$3"
}

# no_temp NAME: no temporary file left in the scratch directory.
no_temp() {
	expect_eq "$1: nothing left behind" "$(cd "$d" && ls -A | grep '^\.' | tr '\n' ' ')" ""
}

mode_of() { stat -c %a "$1"; }

# A results file as gupstat validate writes it: one run, one repeat.
series='"pin_ns":[1000],"unpin_ns":[2000],"pin_counter":[],"unpin_counter":[]'
results() {
	printf '{"format":"gupstat-validate-unpin","version":1,'
	printf '"kernel":{"release":"%s","version":"#1","walk":"page"},' "${1:-6.12.0}"
	printf '"attach":"fentry","counter":{"event":null,"reason":"none"},'
	printf '"cpu":0,"repeats":1,"evict_bytes":1048576,"runs":[{"folio":"4k",'
	printf '"size_mb":%s,"pages":256,"folios":256,' "${2:-1}"
	printf '"census":{"pin_calls":1,"pin_pages":256,"grabs":256,"grab_refs":256,'
	printf '"unpin_calls":1,"unpin_pages":256,"puts":256,"put_refs":256},'
	printf '"warm":{%s},"cold":{%s}}]}\n' "$series" "$series"
}
results >"$d/a.json"

# --- a failed trace or validate keeps the file it was to replace

echo results >"$d/old"
chmod 644 "$d/old"
ln "$d/old" "$d/other-name"
"$G" trace -o "$d/old" >/dev/null 2>"$d/err"
expect_eq "trace -o, attach fails: exit status" "$?" 1
intact "failed trace -o" "$d/old" results
intact "failed trace -o, hard link" "$d/other-name" results
expect_eq "failed trace -o: the link's mode" "$(mode_of "$d/other-name")" 644
no_temp "failed trace -o"

fails_with "validate -o, no GUP_TEST" 1 "gup_test" "$G" validate unpin -o "$d/old"
intact "failed validate -o" "$d/old" results
no_temp "failed validate -o"

"$G" trace -o "$d/new" >/dev/null 2>&1
expect_eq "failed trace -o: no new file" "$(ls "$d/new" 2>/dev/null)" ""

before=$(stat -c %a /proc/version)
fails_with "trace -o /proc/version" 1 "cannot write /proc/version" "$G" trace -o /proc/version
expect_eq "trace -o /proc/version: mode unchanged" "$(stat -c %a /proc/version)" "$before"

# A scratch null device stands for /dev/null: the real one is never risked.
mknod "$d/null" c 1 3 && chmod 666 "$d/null"
"$G" trace -o "$d/null" >/dev/null 2>&1
expect_eq "trace -o NULL-DEVICE: still the device, mode 666" \
	"$(stat -c '%F %a' "$d/null")" "character special file 666"
fails_with "validate -o NULL-DEVICE" 1 "gup_test" "$G" validate unpin -o "$d/null"
expect_eq "validate -o NULL-DEVICE: still the device" "$(stat -c %F "$d/null")" "character special file"
mknod "$d/zero" c 1 5
fails_with "trace -o another device" 1 "cannot write .*zero: a device" "$G" trace -o "$d/zero"
expect_eq "trace -o another device: left alone" "$(stat -c %F "$d/zero")" "character special file"
rm -f "$d/null" "$d/zero"

# --- symlinks, directories, inputs

echo target >"$d/target"
ln -s "$d/target" "$d/link"
fails_with "validate -o SYMLINK" 1 "cannot write .*link: a symbolic link" "$G" validate unpin -o "$d/link"
intact "validate -o SYMLINK" "$d/target" target
fails_with "compare --plot SYMLINK" 1 "cannot write .*link: a symbolic link" \
	"$G" compare "$d/a.json" "$d/a.json" --plot "$d/link"
intact "compare --plot SYMLINK" "$d/target" target
fails_with "report --perfetto SYMLINK" 1 "a symbolic link" "$G" report --perfetto "$d/link" "$TRACE"
intact "report --perfetto SYMLINK" "$d/target" target
fails_with "report --plot DIRECTORY" 1 "cannot write .*: a directory" "$G" report --plot "$d" "$TRACE"

cp "$TRACE" "$d/x.gt"
fails_with "report --perfetto INPUT INPUT" 1 "cannot write .*x.gt: it is also the input" \
	"$G" report --perfetto "$d/x.gt" "$d/x.gt"
expect_eq "report --perfetto INPUT INPUT: the input untouched" "$(cmp "$TRACE" "$d/x.gt" && echo same)" same
ln "$d/x.gt" "$d/alias.gt"
fails_with "report --plot HARD-LINK-OF-INPUT" 1 "it is also the input" \
	"$G" report --plot "$d/alias.gt" "$d/x.gt"
cp "$d/a.json" "$d/b.json"
fails_with "compare --plot INPUT" 1 "it is also the input" "$G" compare "$d/a.json" "$d/b.json" --plot "$d/b.json"
expect_eq "compare --plot INPUT: the input untouched" "$(cmp "$d/a.json" "$d/b.json" && echo same)" same
no_temp "refused outputs"

# --- what is written replaces the file whole, 0600

echo old >"$d/p.json"
chmod 644 "$d/p.json"
"$G" report --perfetto "$d/p.json" --plot "$d/p.svg" "$TRACE" >/dev/null 2>"$d/err"
expect_eq "report --perfetto --plot: written" "$?:$(jq -r .otherData.holds "$d/p.json")" 0:8
expect_eq "report exports: 0600" "$(mode_of "$d/p.json") $(mode_of "$d/p.svg")" "600 600"
"$G" compare "$d/a.json" "$d/b.json" --plot "$d/c.svg" >/dev/null 2>&1
expect_eq "compare --plot: an SVG" "$(xmllint --noout "$d/c.svg" 2>&1 && grep -c '<title>median' "$d/c.svg")" 4
no_temp "written outputs"

# --- a full disk: the old file stays, the reason is said

mkdir "$full"
if mount -t tmpfs -o size=64k gupstat-test "$full"; then
	echo old >"$full/p.json"
	echo old >"$full/c.svg"
	dd if=/dev/zero of="$full/fill" bs=4k 2>/dev/null
	fails_with "report --perfetto, disk full" 1 "cannot write .*p.json: No space left on device" \
		"$G" report --perfetto "$full/p.json" "$TRACE"
	intact "report --perfetto, disk full" "$full/p.json" old
	fails_with "compare --plot, disk full" 1 "cannot write .*c.svg: No space left on device" \
		"$G" compare "$d/a.json" "$d/b.json" --plot "$full/c.svg"
	intact "compare --plot, disk full" "$full/c.svg" old
	expect_eq "disk full: nothing left behind" "$(ls -A "$full" | tr '\n' ' ')" "c.svg fill p.json "
	umount "$full"
else
	skip "disk full: cannot mount a tmpfs"
fi

# --- inputs: checked before any read that could block

mkfifo "$d/fifo"
fails_with "report FIFO" 1 "fifo: a FIFO" timeout 10 "$G" report "$d/fifo"
fails_with "compare FIFO" 1 "fifo: a FIFO" timeout 10 "$G" compare "$d/fifo" "$d/a.json"
fails_with "compare /dev/zero" 1 "/dev/zero: a device" timeout 10 "$G" compare /dev/zero "$d/a.json"
truncate -s 10G "$d/sparse"
fails_with "compare 10 GB sparse file" 1 "larger than a results file can be \(256 MB" \
	timeout 10 "$G" compare "$d/sparse" "$d/a.json"
fails_with "report 10 GB sparse file" 1 "larger than a trace file can be" timeout 10 "$G" report "$d/sparse"
rm -f "$d/sparse"
: >"$d/empty"
fails_with "compare empty file" 1 "empty: empty$" "$G" compare "$d/empty" "$d/a.json"
mv "$d/empty" "$d/empty.json"
fails_with "compare empty file" 1 "empty.json: empty$" "$G" compare "$d/empty.json" "$d/a.json"
fails_with "report empty file" 1 "empty.json: empty$" "$G" report "$d/empty.json"

# --- the results reader: exact types, one document, safe strings

results 6.12.0 4294967312 >"$d/wide.json"
fails_with "compare: size_mb beyond 32 bits" 1 "'size_mb': 4294967312 is out of range" \
	"$G" compare "$d/wide.json" "$d/a.json"
results 6.12.0 99999999999999999999 >"$d/huge.json"
fails_with "compare: size_mb beyond 64 bits" 1 "'size_mb'" "$G" compare "$d/huge.json" "$d/a.json"
{ results; echo garbage; } >"$d/trail.json"
fails_with "compare: data after the document" 1 "more data after the document" \
	"$G" compare "$d/trail.json" "$d/a.json"
{ results; results; } >"$d/two.json"
fails_with "compare: two documents" 1 "more data after the document" "$G" compare "$d/two.json" "$d/a.json"
head -c 100 "$d/a.json" >"$d/cut.json"
fails_with "compare: a cut file" 1 "not a readable JSON file \(it ends inside" "$G" compare "$d/cut.json" "$d/a.json"
results '6.12\u001b[31mRED\u0007' >"$d/esc.json"
out=$("$G" compare "$d/esc.json" "$d/a.json" 2>&1)
expect_eq "compare: escapes from a file are not printed raw" \
	"$(printf '%s' "$out" | LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]')" 0
expect_eq "compare: ... but shown as ?" "$(printf '%s\n' "$out" | grep -c '6.12?\[31mRED?')" 1
"$G" compare "$d/esc.json" "$d/a.json" --plot "$d/esc.svg" >/dev/null 2>&1
expect_eq "compare --plot: the SVG stays XML" "$(xmllint --noout "$d/esc.svg" 2>&1 && echo valid)" valid

# --- standard output that does not take what is printed

fails_with "report >/dev/full" 1 "gupstat report: cannot write to standard output: No space left" \
	sh -c "exec '$G' report '$TRACE' >/dev/full"
fails_with "compare >/dev/full" 1 "gupstat compare: cannot write to standard output" \
	sh -c "exec '$G' compare '$d/a.json' '$d/a.json' >/dev/full"
for cmd in "--help" "trace --help" "report --help" "validate unpin --help" "compare --help"; do
	fails_with "gupstat $cmd >/dev/full" 1 "cannot write to standard output" \
		sh -c "exec '$G' $cmd >/dev/full"
done
"$G" compare "$d/a.json" "$d/a.json" >/dev/null
expect_eq "compare >/dev/null: fine" "$?" 0

no_temp "at the end"
tap_done
