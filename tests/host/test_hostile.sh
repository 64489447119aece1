#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat under a hostile process state, on this host: descriptors 0, 1
# and 2 closed (no output file ever becomes stdout), every catchable
# fatal signal mid-write (no temporary file left, the old files kept, the
# signal in the exit status), environment variables that break its
# libraries, few descriptors, and names and arguments with terminal
# escapes (printed as '?', never raw).
# Also run on the sanitized build: tests/asan/run.
. tests/host/lib.sh

if [ ! -x "$G" ]; then
	skip "no $G: run make first"
	tap_done
fi

TRACE=$PWD/tests/fuzz/corpus/valid-base.gt
cd "$tmp" || exit 2

results >A.json
results 6.13.0 >B.json

# A trace of 2^17 holds, long enough to write that a signal finds the
# temporary files there: the header and first record of the corpus
# file, the record repeated, no trailer (read as incomplete).
head -c 372 "$TRACE" >big.gt
head -c 468 "$TRACE" | tail -c 96 >rec
for _ in $(seq 17); do
	cat rec rec >rec2 && mv rec2 rec
done
cat rec >>big.gt
rm rec

# no_temp NAME: no temporary file (.NAME.XXXXXX) left in the scratch directory.
no_temp() {
	expect_eq "$1: nothing left behind" "$(find . -mindepth 1 -maxdepth 1 -name '.*' -printf '%f ')" ""
}

# is_svg NAME FILE: FILE is a whole SVG, and none of the text for stdout.
is_svg() {
	if xmllint --noout "$2" 2>/dev/null && ! grep -q '^base: \|^Trace ' "$2"; then
		ok "$1: $2 a whole SVG"
	else
		not_ok "$1: $2 is not a whole SVG: $(head -c 200 "$2")"
	fi
}

# printable NAME FILE: FILE holds printable ASCII and newlines only.
printable() {
	local bad

	bad=$(LC_ALL=C tr -d '\n -~' <"$2" | od -An -c | head -c 120)
	expect_eq "$1: only printable text" "$bad" ""
}

keep() {
	echo keep >"$1"
}

# --- 1. descriptors 0, 1 and 2 closed at start

# >&-: nothing took descriptor 1 (an output there would have taken the
# text, exit 0): the text that had nowhere to go is a failure, in one
# line, "Bad file descriptor", and a failed command puts no output in
# place, the old file kept.
keep keep.svg
(exec "$G" compare --plot keep.svg A.json B.json >&- 2>err)
expect_eq "compare --plot >&-: exit 1" "$?" 1
expect_eq "compare --plot >&-: one line" "$(cat err)" \
	"gupstat compare: cannot write to standard output: Bad file descriptor"
expect_eq "compare --plot >&-: keep.svg as it was" "$(cat keep.svg)" keep
no_temp "compare --plot >&-"

keep P.json
keep P.svg
(exec "$G" report --perfetto P.json --plot P.svg "$TRACE" >&- 2>err)
expect_eq "report --perfetto --plot >&-: exit 1" "$?" 1
expect_eq "report --perfetto --plot >&-: one line" "$(cat err)" \
	"gupstat report: cannot write to standard output: Bad file descriptor"
expect_eq "report --perfetto --plot >&-: P.json and P.svg as they were" "$(cat P.json P.svg)" \
	"keep
keep"
no_temp "report >&-"

# More text than stdio buffers: flushed while the exports are open, it
# went into the one that had taken descriptor 1 (P.json, before); now
# it fails to, and the exports stay as they were.
keep P.json
keep P.svg
(exec "$G" report -n 1000 --perfetto P.json --plot P.svg big.gt >&- 2>err)
expect_eq "report -n 1000 --perfetto --plot >&-: exit 1, Bad file descriptor" \
	"$?:$(grep -c 'Bad file descriptor' err)" 1:1
expect_eq "report -n 1000 --perfetto --plot >&-: P.json and P.svg as they were" \
	"$(cat P.json P.svg | tr '\n' ' ')" "keep keep "
no_temp "report -n 1000 >&-"

keep keep.svg
(exec "$G" report --plot keep.svg "$TRACE" >&- 2>/dev/null)
expect_eq "report --plot >&-: exit 1, keep.svg as it was" "$?:$(cat keep.svg)" 1:keep

# A refused output under >&- keeps the old file, the refusal said.
keep keep.svg
(exec "$G" compare --plot keep.svg A.json missing.json >&- 2>err)
expect_eq "compare, missing input, >&-: exit 1, one line" "$?:$(wc -l <err)" 1:1
expect_eq "compare, missing input, >&-: keep.svg untouched" "$(cat keep.svg)" keep

# 2>&- and <&-: the outputs and stdout as ever.
for closed in '2>&-' '<&-'; do
	keep keep.svg
	eval '(exec "$G" compare --plot keep.svg A.json B.json >out '"$closed"')'
	expect_eq "compare --plot $closed: exit 0, the table on stdout" \
		"$?:$(grep -c '^base:  A.json' out)" 0:1
	is_svg "compare --plot $closed" keep.svg
	keep P.json
	eval '(exec "$G" report --perfetto P.json --plot P.svg "$TRACE" >out '"$closed"')'
	expect_eq "report --perfetto --plot $closed: exit 0, the text on stdout" \
		"$?:$(grep -c '^Trace ' out)" 0:1
	expect_eq "report --perfetto $closed: whole" "$(jq -r .metadata.holds P.json 2>&1)" 8
	no_temp "report, compare $closed"
done

# Every subcommand, each descriptor closed: what fails here (no BPF)
# fails as with them open, and no file it names is harmed.
keep old.json
for closed in '>&-' '2>&-' '<&-'; do
	for cmd in "-d 1" "live -d 1" "serve -d 1" "trace -d 1 -o new.gt" "validate unpin -o old.json"; do
		eval '(exec "$G" '"$cmd"' >/dev/null 2>/dev/null '"$closed"')'
		expect_eq "gupstat $cmd $closed: fails as on this host" "$?" 1
	done
	expect_eq "$closed: validate -o kept the old file, trace made none" \
		"$(cat old.json):$([ -e new.gt ] && echo 0 || echo 1)" keep:1
	eval '(exec "$G" --version >/dev/null 2>/dev/null '"$closed"')'
	rc=$?
	[ "$closed" = '>&-' ] && want=1 || want=0
	expect_eq "--version $closed: exit $want" "$rc" $want
done
no_temp "every subcommand, descriptors closed"

# --- 2. a fatal signal mid-write: nothing left, the old files kept,
# and the signal in the exit status (128 + its number)


# wait_for PATTERN: until a file matching PATTERN exists (5 s at most).
wait_for() {
	local _

	for _ in $(seq 500); do
		compgen -G "$1" >/dev/null && return 0
		sleep 0.01
	done
	return 1
}

# killed_by NAME SIG RC: RC is 128 + SIG, nothing left, the old files kept.
killed_by() {
	expect_eq "$1: exit status 128+SIG$2" "$3" $((128 + $(kill -l "$2")))
	expect_eq "$1: old files kept" "$(cat P.json P.svg | tr '\n' ' ')" "keep keep "
	no_temp "$1"
}

for sig in INT TERM HUP QUIT ALRM USR1 USR2 XCPU VTALRM PROF PWR RTMIN; do
	keep P.json
	keep P.svg
	# A background job of a script ignores INT and QUIT: not this one.
	env --default-signal "$G" report -n 100000 --perfetto P.json --plot P.svg big.gt \
		>/dev/null 2>&1 &
	pid=$!
	wait_for '.P.svg.*' || not_ok "report: no temporary file to signal"
	kill -s "$sig" $pid
	{ wait $pid; } 2>/dev/null
	killed_by "SIG$sig mid-write" "$sig" $?
done

# SIGPIPE: the text into a pipe whose reader is gone.
keep P.json
keep P.svg
"$G" report -n 100000 --perfetto P.json --plot P.svg big.gt 2>/dev/null | head -c 1 >/dev/null
killed_by "SIGPIPE, stdout read no more" PIPE "${PIPESTATUS[0]}"

# SIGXFSZ: an export past the file size limit (ulimit -f, 1 kB units).
keep P.json
keep P.svg
{ (ulimit -f 64; exec "$G" report --perfetto P.json --plot P.svg big.gt >/dev/null 2>&1); } 2>/dev/null
killed_by "SIGXFSZ, ulimit -f 64" XFSZ $?

# A signal ignored at start (nohup) stays ignored: the run completes.
keep P.json
(trap '' HUP; exec "$G" report -n 100000 --perfetto P.json big.gt >/dev/null 2>&1) &
pid=$!
wait_for '.P.json.*' && kill -s HUP $pid
wait $pid
expect_eq "SIGHUP ignored at start: still ignored, written" \
	"$?:$(jq -r .metadata.holds P.json 2>&1)" 0:131072

# compare: SIGTERM while its text waits on a full pipe (this shell holds
# it open, unread). The plot is whole or as it was, never a part.
keep keep.svg
mkfifo pipe
exec 3<>pipe
head -c 65536 /dev/zero >&3
env --default-signal "$G" compare --plot keep.svg A.json B.json >pipe 2>/dev/null &
pid=$!
sleep 0.5
kill -s TERM $pid
{ wait $pid; } 2>/dev/null
expect_eq "compare --plot, SIGTERM while stdout blocks: exit 128+SIGTERM" "$?" 143
if [ "$(cat keep.svg)" = keep ] || xmllint --noout keep.svg 2>/dev/null; then
	ok "compare --plot, SIGTERM: keep.svg as it was or whole"
else
	not_ok "compare --plot, SIGTERM: keep.svg is neither: $(head -c 100 keep.svg)"
fi
exec 3>&-
rm pipe
no_temp "compare --plot, SIGTERM"

# --- 3. the environment, and few descriptors

# ARGP_HELP_FMT broke --help: rmargin=0 looped for ever, opt-doc-col=1000
# died of SIGSEGV. Cleared: --help as without it, for every subcommand.
"$G" --help >plain 2>&1
for fmt in rmargin=0 rmargin=1 short-opt-col=200 opt-doc-col=1000 long-opt-col=1000; do
	for sub in "" report compare trace; do
		timeout 10 env ARGP_HELP_FMT=$fmt "$G" $sub --help >out 2>&1
		rc=$?
		[ -z "$sub" ] && want=$(cat plain) || want=$("$G" $sub --help 2>&1)
		expect_eq "ARGP_HELP_FMT=$fmt gupstat $sub --help: exit 0, as without it" \
			"$rc:$([ "$(cat out)" = "$want" ] && echo same)" 0:same
	done
done

# POSIXLY_CORRECT would make options after an operand operands.
POSIXLY_CORRECT=1 "$G" report "$TRACE" -n 1 >out 2>err
expect_eq "POSIXLY_CORRECT: report FILE -n 1 as without it" \
	"$?:$(grep -c '^ #' out):$(wc -c <err)" 0:1:0
POSIXLY_CORRECT=1 "$G" compare A.json B.json --plot c.svg >/dev/null 2>&1
expect_eq "POSIXLY_CORRECT: compare A B --plot F as without it" "$?:$(xmllint --noout c.svg 2>&1)" 0:

# An allocator that cannot allocate: one line, not silence. The
# sanitized build (tests/asan/run) has ASan's allocator, which glibc's
# MALLOC_ variables do not reach.
if ASAN_OPTIONS=help=1 "$G" --version 2>&1 | grep -q AddressSanitizer; then
	skip "MALLOC_TOP_PAD_ huge: compare: ASan's allocator ignores it"
	skip "MALLOC_TOP_PAD_ huge: --help: ASan's allocator ignores it"
else
	fails_with "MALLOC_TOP_PAD_ huge: compare" 2 "cannot parse the options: Cannot allocate memory" \
		env MALLOC_TOP_PAD_=99999999999999 "$G" compare A.json B.json
	fails_with "MALLOC_TOP_PAD_ huge: --help" 2 "cannot parse the options: Cannot allocate memory" \
		env MALLOC_TOP_PAD_=99999999999999 "$G" --help
fi

# A locale, a time zone and libbpf's variable change nothing here.
"$G" compare A.json B.json >plain 2>&1
for v in LC_ALL=de_DE.UTF-8 LANG=tr_TR.UTF-8 LANGUAGE=fr TZ=Pacific/Kiritimati LIBBPF_LOG_LEVEL=debug; do
	env "$v" "$G" compare A.json B.json >out 2>&1
	expect_eq "$v: compare's output as without it" "$?:$(cmp -s plain out && echo same)" 0:same
done

# Few descriptors: 3 is the dynamic loader's failure, before gupstat;
# 4 is enough for compare; report with two exports needs 6 (the trace
# stays open while it is streamed, beside the two temporary files) and
# says so in one line with one fewer.
(ulimit -n 4; exec "$G" compare --plot c4.svg A.json B.json) >/dev/null 2>err
expect_eq "ulimit -n 4: compare --plot works" "$?:$(wc -c <err):$(xmllint --noout c4.svg 2>&1)" 0:0:
keep P.json
keep P.svg
fails_with "ulimit -n 5: report --perfetto --plot" 1 "cannot write P.svg: cannot create a file in \. \(Too many open files\)" \
	bash -c 'ulimit -n 5; exec "$0" report --perfetto P.json --plot P.svg "$1"' "$G" "$TRACE"
expect_eq "ulimit -n 5: the old exports kept" "$(cat P.json P.svg | tr '\n' ' ')" "keep keep "
no_temp "ulimit -n 5"
(ulimit -n 6; exec "$G" report --perfetto P.json --plot P.svg "$TRACE") >/dev/null 2>&1
expect_eq "ulimit -n 6: report --perfetto --plot works" "$?:$(jq -r .metadata.holds P.json)" 0:8
(ulimit -n 3; exec "$G" --version) >/dev/null 2>err
expect_eq "ulimit -n 3: the loader's own line, exit 127 (any dynamic program's)" \
	"$?:$(grep -c 'error while loading shared libraries' err)" 127:1
S=${G%/gupstat}/static/gupstat
if [ -x "$S" ]; then
	fails_with "ulimit -n 3: the static gupstat, compare" 1 "gupstat compare: A.json: Too many open files" \
		bash -c 'ulimit -n 3; exec "$0" compare A.json B.json' "$S"
else
	skip "no $S: make build/static/gupstat"
fi

# --- 4. names and arguments with terminal escapes: '?' in their place

esc=$'\e]0;pwned\a\e[31m'
c1=$'\xc2\x9b31m\x9b\x7f'
cp "$TRACE" "$esc.gt"
cp A.json "$esc$c1.json"
"$G" report -n 1 "$esc.gt" >out 2>err
expect_eq "report ESCAPES.gt: exit 0" "$?" 0
printable "report ESCAPES.gt: stdout" out
expect_eq "report ESCAPES.gt: the name as '?'" "$(head -1 out | cut -d: -f1)" "Trace ?]0;pwned??[31m.gt"
"$G" compare "$esc$c1.json" B.json >out 2>err
expect_eq "compare ESCAPES.json: exit 0" "$?" 0
printable "compare ESCAPES.json: stdout" out
expect_eq "compare C1 and DEL: each byte '?'" "$(head -1 out | cut -d: -f2)" "  ?]0;pwned??[31m??31m??.json"

# Each message that echoes a name or an argument.
set -f	# the names hold '[': no globbing of the lists below
for args in "-p ${esc}5" "-d 5"$'\a' "-c $esc" "-e $esc" "report $esc" "report -n ${esc} $esc.gt" \
	"report --perfetto $esc/x.json $esc.gt" "compare $esc B.json" "compare A.json B.json --plot $esc/x.svg" \
	"trace -o $esc/x.gt" "validate unpin --cpu $esc" "serve --listen $esc" "${esc}nosuchcommand" \
	"--${esc}bogus" "report --perfetto $esc.gt $esc.gt"; do
	eval "set -- $(printf '%q ' $args)"
	"$G" "$@" >out 2>err </dev/null
	rc=$?
	expect_eq "gupstat $(printf '%q' "$*" | head -c 60): fails, one line" "$([ $rc != 0 ] && echo failed):$(wc -l <err)" failed:1
	printable "gupstat $(printf '%q' "$*" | head -c 60): stderr" err
done
set +f
for arg in "-p" "-d"; do
	"$G" $arg $'5\n''gupstat: forged line' >out 2>err
	expect_eq "gupstat $arg with a newline: still one line" "$(wc -l <err)" 1
done

tap_done
