#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The files gupstat writes and reads, on this host (root): a failed
# command leaves every file as it was and nothing behind; a symlink, a
# device, an input or a full disk as the output is one line and exit 1;
# so is a FIFO, a device, a huge, empty or malformed input; and so is a
# standard output that does not take what is printed, which also keeps
# every file the command would have replaced as it was. trace and validate
# fail here (no kprobes, no GUP_TEST): after they opened their output.
# Also run on the sanitized build: tests/asan/run.
. tests/host/lib.sh

TRACE=$PWD/tests/fuzz/corpus/valid-base.gt
full=$tmp/full
cleanup() {
	mountpoint -q "$full" && umount "$full"
	rm -rf "$tmp"
}

# intact NAME FILE TEXT: FILE still holds exactly TEXT.
intact() {
	expect_eq "$1: $2 untouched" "$(cat "$2" 2>&1)" "$3"
}

# no_temp NAME: no temporary file left in the scratch directory.
no_temp() {
	expect_eq "$1: nothing left behind" "$(cd "$tmp" && find . -mindepth 1 -maxdepth 1 -name '.*' -printf '%f ')" ""
}

mode_of() { stat -c %a "$1"; }

results >"$tmp/a.json"

# --- a failed validate keeps the file it was to replace; a trace is
# written in place from its start, so it refuses an existing file

echo results >"$tmp/old"
chmod 644 "$tmp/old"
ln "$tmp/old" "$tmp/other-name"
fails_with "trace -o an existing file" 1 \
	"cannot write $tmp/old: it exists \(a trace is written in place from its start and never replaces a file" \
	"$G" trace -o "$tmp/old"
intact "refused trace -o" "$tmp/old" results
intact "refused trace -o, hard link" "$tmp/other-name" results
expect_eq "refused trace -o: the link's mode" "$(mode_of "$tmp/other-name")" 644
no_temp "refused trace -o"

fails_with "validate -o, no GUP_TEST" 1 "gup_test" "$G" validate unpin -o "$tmp/old"
intact "failed validate -o" "$tmp/old" results
no_temp "failed validate -o"

"$G" trace -o "$tmp/new" >/dev/null 2>&1
expect_eq "failed trace -o: no new file" "$(ls "$tmp/new" 2>/dev/null)" ""

before=$(stat -c %a /proc/version)
fails_with "trace -o /proc/version" 1 "cannot write /proc/version" "$G" trace -o /proc/version
expect_eq "trace -o /proc/version: mode unchanged" "$(stat -c %a /proc/version)" "$before"

# A scratch null device stands for /dev/null: the real one is never risked.
mknod "$tmp/null" c 1 3 && chmod 666 "$tmp/null"
"$G" trace -o "$tmp/null" >/dev/null 2>&1
expect_eq "trace -o NULL-DEVICE: still the device, mode 666" \
	"$(stat -c '%F %a' "$tmp/null")" "character special file 666"
fails_with "validate -o NULL-DEVICE" 1 "gup_test" "$G" validate unpin -o "$tmp/null"
expect_eq "validate -o NULL-DEVICE: still the device" "$(stat -c %F "$tmp/null")" "character special file"
mknod "$tmp/zero" c 1 5
fails_with "trace -o another device" 1 "cannot write .*zero: a device" "$G" trace -o "$tmp/zero"
expect_eq "trace -o another device: left alone" "$(stat -c %F "$tmp/zero")" "character special file"
rm -f "$tmp/null" "$tmp/zero"

# --- symlinks, directories, inputs

echo target >"$tmp/target"
ln -s "$tmp/target" "$tmp/link"
fails_with "validate -o SYMLINK" 1 "cannot write .*link: a symbolic link" "$G" validate unpin -o "$tmp/link"
intact "validate -o SYMLINK" "$tmp/target" target
fails_with "compare --plot SYMLINK" 1 "cannot write .*link: a symbolic link" \
	"$G" compare "$tmp/a.json" "$tmp/a.json" --plot "$tmp/link"
intact "compare --plot SYMLINK" "$tmp/target" target
fails_with "report --perfetto SYMLINK" 1 "a symbolic link" "$G" report --perfetto "$tmp/link" "$TRACE"
intact "report --perfetto SYMLINK" "$tmp/target" target
fails_with "report --plot DIRECTORY" 1 "cannot write .*: a directory" "$G" report --plot "$tmp" "$TRACE"

cp "$TRACE" "$tmp/x.gt"
fails_with "report --perfetto INPUT INPUT" 1 "cannot write .*x.gt: it is also the input" \
	"$G" report --perfetto "$tmp/x.gt" "$tmp/x.gt"
expect_eq "report --perfetto INPUT INPUT: the input untouched" "$(cmp "$TRACE" "$tmp/x.gt" && echo same)" same
ln "$tmp/x.gt" "$tmp/alias.gt"
fails_with "report --plot HARD-LINK-OF-INPUT" 1 "it is also the input" \
	"$G" report --plot "$tmp/alias.gt" "$tmp/x.gt"
cp "$tmp/a.json" "$tmp/b.json"
fails_with "compare --plot INPUT" 1 "it is also the input" "$G" compare "$tmp/a.json" "$tmp/b.json" --plot "$tmp/b.json"
expect_eq "compare --plot INPUT: the input untouched" "$(cmp "$tmp/a.json" "$tmp/b.json" && echo same)" same
no_temp "refused outputs"

# --- what is written replaces the file whole, 0600

echo old >"$tmp/p.json"
chmod 644 "$tmp/p.json"
"$G" report --perfetto "$tmp/p.json" --plot "$tmp/p.svg" "$TRACE" >/dev/null 2>"$tmp/err"
expect_eq "report --perfetto --plot: written" "$?:$(jq -r .metadata.holds "$tmp/p.json")" 0:8
expect_eq "report exports: 0600" "$(mode_of "$tmp/p.json") $(mode_of "$tmp/p.svg")" "600 600"
"$G" compare "$tmp/a.json" "$tmp/b.json" --plot "$tmp/c.svg" >/dev/null 2>&1
expect_eq "compare --plot: an SVG" "$(xmllint --noout "$tmp/c.svg" 2>&1 && grep -c '<title>median' "$tmp/c.svg")" 4
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
		"$G" compare "$tmp/a.json" "$tmp/b.json" --plot "$full/c.svg"
	intact "compare --plot, disk full" "$full/c.svg" old
	expect_eq "disk full: nothing left behind" "$(ls -A "$full" | tr '\n' ' ')" "c.svg fill p.json "
	umount "$full"
else
	skip "disk full: cannot mount a tmpfs"
fi

# --- inputs: checked before any read that could block

mkfifo "$tmp/fifo"
fails_with "report FIFO" 1 "fifo: a FIFO" timeout 10 "$G" report "$tmp/fifo"
fails_with "compare FIFO" 1 "fifo: a FIFO" timeout 10 "$G" compare "$tmp/fifo" "$tmp/a.json"
fails_with "compare /dev/zero" 1 "/dev/zero: a device" timeout 10 "$G" compare /dev/zero "$tmp/a.json"
truncate -s 10G "$tmp/sparse"
fails_with "compare 10 GB sparse file" 1 "larger than a results file can be \(64 MB" \
	timeout 10 "$G" compare "$tmp/sparse" "$tmp/a.json"
# A trace has no size cap (report streams it): zeros are refused for what they are.
fails_with "report 10 GB sparse file" 1 "not a gupstat trace file \(bad magic\)" timeout 10 "$G" report "$tmp/sparse"
rm -f "$tmp/sparse"
: >"$tmp/empty"
fails_with "compare empty file" 1 "empty: empty$" "$G" compare "$tmp/empty" "$tmp/a.json"
mv "$tmp/empty" "$tmp/empty.json"
fails_with "compare empty file" 1 "empty.json: empty$" "$G" compare "$tmp/empty.json" "$tmp/a.json"
fails_with "report empty file" 1 "empty.json: empty$" "$G" report "$tmp/empty.json"

# --- the results reader: exact types, one document, safe strings

results 6.12.0 4294967312 >"$tmp/wide.json"
fails_with "compare: size_mb beyond 32 bits" 1 "'size_mb': 4294967312 is out of range" \
	"$G" compare "$tmp/wide.json" "$tmp/a.json"
results 6.12.0 99999999999999999999 >"$tmp/huge.json"
fails_with "compare: size_mb beyond 64 bits" 1 "'size_mb'" "$G" compare "$tmp/huge.json" "$tmp/a.json"
{ results; echo garbage; } >"$tmp/trail.json"
fails_with "compare: data after the document" 1 "more data after the document" \
	"$G" compare "$tmp/trail.json" "$tmp/a.json"
{ results; results; } >"$tmp/two.json"
fails_with "compare: two documents" 1 "more data after the document" "$G" compare "$tmp/two.json" "$tmp/a.json"
head -c 100 "$tmp/a.json" >"$tmp/cut.json"
fails_with "compare: a cut file" 1 "not a readable JSON file \(it ends inside" "$G" compare "$tmp/cut.json" "$tmp/a.json"
results '6.12\u001b[31mRED\u0007' >"$tmp/esc.json"
out=$("$G" compare "$tmp/esc.json" "$tmp/a.json" 2>&1)
expect_eq "compare: escapes from a file are not printed raw" \
	"$(printf '%s' "$out" | LC_ALL=C grep -c $'[\x01-\x08\x0b-\x1f\x7f]')" 0
expect_eq "compare: ... but shown as ?" "$(printf '%s\n' "$out" | grep -c '6.12?\[31mRED?')" 1
"$G" compare "$tmp/esc.json" "$tmp/a.json" --plot "$tmp/esc.svg" >/dev/null 2>&1
expect_eq "compare --plot: the SVG stays XML" "$(xmllint --noout "$tmp/esc.svg" 2>&1 && echo valid)" valid

# --- standard output that does not take what is printed

fails_with "report >/dev/full" 1 "gupstat report: cannot write to standard output: No space left" \
	sh -c "exec '$G' report '$TRACE' >/dev/full"
fails_with "compare >/dev/full" 1 "gupstat compare: cannot write to standard output" \
	sh -c "exec '$G' compare '$tmp/a.json' '$tmp/a.json' >/dev/full"
for cmd in "--help" "trace --help" "report --help" "validate unpin --help" "compare --help"; do
	fails_with "gupstat $cmd >/dev/full" 1 "cannot write to standard output" \
		sh -c "exec '$G' $cmd >/dev/full"
done
"$G" compare "$tmp/a.json" "$tmp/a.json" >/dev/null
expect_eq "compare >/dev/null: fine" "$?" 0

# --- a command whose standard output failed puts no file in place: each
# output is renamed over its target only once the whole command succeeded

# stdout_fails NAME OUT ARGS...: with stdout closed and on /dev/full,
# gupstat ARGS fails and OUT keeps its old bytes; then, stdout fine, OUT
# is replaced.
stdout_fails() {
	local name=$1 out=$2 how
	shift 2
	for how in '>&-' '>/dev/full'; do
		echo old >"$out"
		cp "$out" "$tmp/orig"
		fails_with "$name $how" 1 "cannot write to standard output" \
			sh -c "exec \"\$@\" $how" sh "$G" "$@"
		expect_eq "$name $how: $out as it was" "$(cmp "$tmp/orig" "$out" && echo same)" same
	done
	"$G" "$@" >/dev/null 2>&1
	expect_eq "$name, stdout fine: written" "$?:$(cmp -s "$tmp/orig" "$out" || echo replaced)" 0:replaced
	rm -f "$tmp/orig"
}
stdout_fails "report --perfetto" "$tmp/p.json" report --perfetto "$tmp/p.json" "$TRACE"
stdout_fails "report --plot" "$tmp/p.svg" report --plot "$tmp/p.svg" "$TRACE"
stdout_fails "report --folded" "$tmp/p.folded" report --folded "$tmp/p.folded" "$TRACE"
stdout_fails "report -j --perfetto" "$tmp/p.json" report -j --perfetto "$tmp/p.json" "$TRACE"
stdout_fails "compare --plot" "$tmp/c.svg" compare "$tmp/a.json" "$tmp/b.json" --plot "$tmp/c.svg"

no_temp "at the end"
tap_done
