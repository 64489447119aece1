#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every subcommand's command line, on the host: options are checked
# before anything attaches, so each refusal is the same here as in a
# guest. A usage error is one line on stderr, in one wording, and exit
# 2; --help, --usage and --version print to stdout and exit 0.
# Also run on the sanitized build: tests/asan/run.
. tests/host/lib.sh

# prints NAME PATTERN CMD...: exit 0, PATTERN on stdout, nothing on stderr.
prints() {
	local name=$1 pattern=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && grep -Eq -- "$pattern" "$tmp/out"; then
		ok "$name"
	else
		not_ok "$name: rc $rc, stdout: $(head -c 200 "$tmp/out"), stderr: $(head -c 200 "$tmp/err")"
	fi
}

if [ ! -x $G ]; then
	skip "no $G: run make first"
	tap_done
fi

version=$(sed -n 's/^#define GUPSTAT_VERSION\t"\(.*\)"$/\1/p' src/util/version.h)

# What every subcommand takes: help, usage, version, and the errors of
# any command line. "live" is also the bare tool.
for sub in "" live serve trace report validate compare; do
	name=gupstat${sub:+ $sub}
	prog=gupstat${sub:+ $sub}
	[ "$sub" = live ] && prog=gupstat
	prints "$name --help: usage on stdout" "^Usage: $prog \[OPTION\.\.\.\]" $G $sub --help
	prints "$name -h" "^Usage: $prog " $G $sub -h
	prints "$name --usage" "^Usage: $prog \[-[a-zA-Z]*hV\] " $G $sub --usage
	prints "$name --version" "^gupstat $version\$" $G $sub --version
	prints "$name -V" "^gupstat $version\$" $G $sub -V
	fails_with "$name: unknown option" 2 \
		"^$prog: unknown option '--frobnicate' \(try '$prog --help'\)\$" $G $sub --frobnicate
	fails_with "$name: unknown short option" 2 \
		"^$prog: unknown option '-y' \(try '$prog --help'\)\$" $G $sub -y
	fails_with "$name: a value for a flag" 2 \
		"^$prog: option '--help' takes no value \(try '$prog --help'\)\$" $G $sub --help=1
done

# live (the bare tool)
fails_with "gupstat: missing value" 2 \
	"^gupstat: option '-p' needs a value \(try 'gupstat --help'\)\$" $G -p
fails_with "gupstat: missing value, long" 2 \
	"^gupstat: option '--duration' needs a value \(try 'gupstat --help'\)\$" $G --duration
fails_with "gupstat: bad number" 2 "^gupstat: -p: not a number from 1 to 4194304: 'abc'\$" $G -p abc
fails_with "gupstat: negative PID" 2 "^gupstat: -p: not a number from 1 to 4194304: '-1'\$" $G -p -1
fails_with "gupstat: PID out of range" 2 \
	"^gupstat: -p: out of range \(1 to 4194304\): '4194305'\$" $G -p 4194305
fails_with "gupstat: a space before the number" 2 "^gupstat: -d: not a number from 1 to [0-9]+: ' 5'\$" \
	$G -d " 5"
fails_with "gupstat: hex for a number" 2 "^gupstat: -i: not a number from 1 to [0-9]+: '0x10'\$" \
	$G -i 0x10
fails_with "gupstat: interval 0" 2 "^gupstat: -i: out of range \(1 to [0-9]+\): '0'\$" $G -i 0
fails_with "gupstat: duration overflow" 2 \
	"^gupstat: --duration: not a number|^gupstat: -d: out of range \(1 to [0-9]+\): '99999999999'\$" \
	$G --duration=99999999999
fails_with "gupstat: -e r99999999999999999999" 2 \
	"^gupstat: -e: raw event code wider than 64 bits: 'r99999999999999999999'\$" \
	$G -e r99999999999999999999
fails_with "gupstat: -e r-1" 2 "^gupstat: -e: unknown perf event \(.*rNNNN\): 'r-1'\$" $G -e r-1
fails_with "gupstat: -e unknown" 2 "^gupstat: -e: unknown perf event \(.*\): 'no-such-event'\$" \
	$G -e no-such-event
fails_with "gupstat: ambiguous prefix" 2 "^gupstat: ambiguous option '--p' \(try 'gupstat --help'\)\$" \
	$G --p 1
fails_with "gupstat: -p with a COMMAND" 2 "^gupstat: -p and a COMMAND exclude each other\$" \
	$G -p 1 -- true
fails_with "gupstat: --dry-run with a COMMAND" 2 \
	"^gupstat: --dry-run and a COMMAND exclude each other\$" $G --dry-run -- true
fails_with "gupstat live: the same wording" 2 "^gupstat: -p: not a number from 1 to 4194304: 'x'\$" \
	$G live -p x
fails_with "gupstat: unknown subcommand" 2 \
	"^gupstat: unknown subcommand 'frob' \(try 'gupstat help'\); a COMMAND to run goes after '--', as in 'gupstat -- frob'\$" \
	$G frob
# A COMMAND comes after "--" only: bcc's and perf's bare words are not one.
for sub in "" serve trace; do
	prog=gupstat${sub:+ $sub}
	fails_with "$prog: a bare word after an option is no COMMAND" 2 \
		"^$prog: unexpected argument 'ls': a COMMAND to run goes after '--', as in '$prog \[OPTION\]\.\.\. -- ls'\$" \
		$G $sub -k ls -l
done
fails_with "gupstat: a bare word after INTERVAL" 2 "^gupstat: unexpected argument 'true': " $G 1 true
fails_with "gupstat: a third number" 2 \
	"^gupstat: unexpected argument '3': INTERVAL and COUNT at most \(try 'gupstat --help'\)\$" $G 1 2 3
fails_with "gupstat: INTERVAL 0" 2 "^gupstat: INTERVAL: not a number from 1 to [0-9]+: '0'\$" $G 0
fails_with "gupstat: COUNT 0" 2 "^gupstat: COUNT: not a number from 1 to [0-9]+: '0'\$" $G 1 0
fails_with "gupstat: INTERVAL not a number" 2 "^gupstat: INTERVAL: not a number from 1 to [0-9]+: '1s'\$" \
	$G 1s
fails_with "gupstat: -i and INTERVAL" 2 "^gupstat: -i and INTERVAL exclude each other\$" $G -i 1 2
fails_with "gupstat: --clear with -j" 2 "^gupstat: --clear and -j exclude each other\$" $G --clear -j
prints "gupstat --help: the usage says INTERVAL COUNT and -- COMMAND" \
	"^Usage: gupstat \[OPTION\.\.\.\] \[INTERVAL \[COUNT\]\] \[-- COMMAND \[ARG\]\.\.\.\]\$" $G --help

# The subcommands: --help lists each of main.c's, and help SUB is SUB --help.
$G --help >"$tmp/help" 2>&1
missing=""
for sub in $(sed -nE 's/^[[:space:]]*\{ "([a-z][a-z0-9-]*)", cmd_.*/\1/p' src/main.c); do
	grep -Eq "^  $sub +[a-z]" "$tmp/help" || missing="$missing $sub"
done
expect_eq "gupstat --help lists every subcommand" "$missing" "" "$tmp/help"
$G help >"$tmp/help2" 2>&1
expect_eq "gupstat help is gupstat --help" "$?:$(cmp "$tmp/help" "$tmp/help2" 2>&1)" "0:"
for sub in serve report; do
	$G help $sub >"$tmp/help2" 2>&1
	rc=$?
	$G $sub --help >"$tmp/help" 2>&1
	expect_eq "gupstat help $sub is gupstat $sub --help" "$rc:$(cmp "$tmp/help" "$tmp/help2" 2>&1)" "0:"
done
fails_with "gupstat help: an unknown subcommand" 2 \
	"^gupstat help: unknown subcommand 'frob' \(try 'gupstat help'\)\$" $G help frob
fails_with "gupstat help: two subcommands" 2 \
	"^gupstat help: unexpected argument 'trace' \(try 'gupstat help'\)\$" $G help serve trace

# trace
T="gupstat trace"
fails_with "trace: missing value" 2 "^$T: option '-o' needs a value \(try '$T --help'\)\$" $G trace -o
fails_with "trace: no -o" 2 "^$T: no output file \(-o FILE\) \(try '$T --help'\)\$" $G trace -d 1
fails_with "trace: bad number" 2 "^$T: --min-ns: not a number from 0 to 18446744073709551615: '-5'\$" \
	$G trace -o "$tmp/t.gt" --min-ns -5
fails_with "trace: out of range" 2 \
	"^$T: --stack-min-ns: out of range \(0 to 18446744073709551615\): '18446744073709551616'\$" \
	$G trace -o "$tmp/t.gt" --stack-min-ns 18446744073709551616
fails_with "trace: bad size" 2 "^$T: -b: not a size from 4K to 1G \(like 256K or 16M\): 'lots'\$" \
	$G trace -o "$tmp/t.gt" -b lots
fails_with "trace: size out of range" 2 "^$T: -b: out of range \(4K to 1G\): '2G'\$" \
	$G trace -o "$tmp/t.gt" -b 2G
fails_with "trace: bad PID" 2 "^$T: -p: out of range \(1 to 4194304\): '0'\$" \
	$G trace -o "$tmp/t.gt" -p 0
fails_with "trace --no-stacks --stack-min-ns 100" 2 \
	"^$T: --no-stacks and --stack-min-ns exclude each other\$" \
	$G trace -o "$tmp/t.gt" --no-stacks --stack-min-ns 100
fails_with "trace --no-stacks --kernel-addrs" 2 \
	"^$T: --no-stacks and --kernel-addrs exclude each other\$" \
	$G trace -o "$tmp/t.gt" --kernel-addrs --no-stacks
fails_with "trace: -p with a COMMAND" 2 "^$T: -p and a COMMAND exclude each other\$" \
	$G trace -o "$tmp/t.gt" -p 1 -- true
# -c is checked first, as by the live view: one line, exit 1, no file.
fails_with "trace -c: missing path" 1 "^$T: -c $tmp/nope: No such file or directory\$" \
	$G trace -o "$tmp/t.gt" -c "$tmp/nope"
: >"$tmp/file"
fails_with "trace -c: a file" 1 "^$T: -c $tmp/file: not a cgroup v2 directory\$" \
	$G trace -o "$tmp/t.gt" -c "$tmp/file"
fails_with "trace -c: a directory not in cgroup2" 1 "^$T: -c $tmp: not a cgroup v2 directory\$" \
	$G trace -o "$tmp/t.gt" -c "$tmp"
[ ! -e "$tmp/t.gt" ] && ok "trace: no file left by a refused command line" ||
	not_ok "trace: a refused command line created $tmp/t.gt"
# On this host nothing attaches: that is a runtime failure, 1, not 2.
$G trace -o "$tmp/t.gt" -d 1 >/dev/null 2>"$tmp/err"
rc=$?
if [ -e /sys/kernel/btf/vmlinux ] && [ "$rc" = 0 ]; then
	skip "trace attaches on this host"
else
	expect_eq "trace: a failed attach exits 1" "$rc" 1 "$tmp/err"
	[ ! -e "$tmp/t.gt" ] && ok "trace: a failed attach leaves no file" ||
		not_ok "trace: a failed attach left $tmp/t.gt"
fi

# serve: the address is checked before anything else happens.
S="gupstat serve"
fails_with "serve: malformed address" 2 \
	"^$S: --listen: not ADDR:PORT \(like 127\.0\.0\.1:10435 or \[::1\]:10435\): 'foo'\$" $G serve --listen foo
fails_with "serve: IPv6 without a port" 2 "^$S: --listen: not ADDR:PORT .*: '\[::1\]'\$" \
	$G serve --listen '[::1]'
fails_with "serve: port out of range" 2 "^$S: --listen: not a port from 1 to 65535: '127\.0\.0\.1:65536'\$" \
	$G serve --listen 127.0.0.1:65536
fails_with "serve: a host name" 2 \
	"^$S: --listen: not a numeric IPv4 address, \[IPv6\] address or localhost: 'example\.org:80'\$" \
	$G serve --listen example.org:80
fails_with "serve: all addresses without --allow-remote" 2 \
	"^$S: --listen 0\.0\.0\.0:9435 is not a loopback address: add --allow-remote to serve other hosts\$" \
	$G serve --listen 0.0.0.0:9435
fails_with "serve: IPv6 any without --allow-remote" 2 "is not a loopback address" \
	$G serve --listen '[::]:9435'
fails_with "serve: --max-series 0" 2 "^$S: --max-series: out of range \(1 to 4096\): '0'\$" \
	$G serve --max-series 0
fails_with "serve: --max-procs, its old name" 2 "^$S: --max-series: out of range \(1 to 4096\): '4097'\$" \
	$G serve --max-procs 4097
fails_with "serve: --series-idle 0" 2 "^$S: --series-idle: " $G serve --series-idle 0
fails_with "serve: --buckets-ns reversed" 2 "^$S: --buckets-ns: MIN is above MAX: '1000:10'\$" \
	$G serve --buckets-ns 1000:10
fails_with "serve: --buckets-ns empty" 2 "^$S: --buckets-ns: an empty range: MIN equals MAX: '64:64'\$" \
	$G serve --buckets-ns 64:64
fails_with "serve: --buckets-ns out of range" 2 \
	"^$S: --buckets-ns: each bound from 1 to 1099511627776 \(2\^40 ns, 18 minutes\): '0:1000'\$" \
	$G serve --buckets-ns 0:1000
fails_with "serve: --buckets-ns not a range" 2 "^$S: --buckets-ns: not MIN:MAX nanoseconds: '64'\$" \
	$G serve --buckets-ns 64
fails_with "serve: -p with a COMMAND" 2 "^$S: -p and a COMMAND exclude each other\$" \
	$G serve -p 1 -- true
# A port in use is said first, alone, before anything else is tried.
python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(30)' >"$tmp/port" &
holder=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
port=$(cat "$tmp/port")
fails_with "serve: a port in use" 1 "^$S: cannot listen on 127\.0\.0\.1:$port: Address already in use\$" \
	$G serve --listen "127.0.0.1:$port"
kill $holder
wait $holder 2>/dev/null
# A loopback address that is not 127.0.0.1 is taken: what fails next is
# this host's refusal to trace, in one line, exit 1.
$G serve --listen '[::1]:10435' -d 1 >/dev/null 2>"$tmp/err"
rc=$?
if [ $rc = 0 ]; then
	skip "serve attaches on this host"
else
	expect_eq "serve: [::1] taken, then one line and exit 1 where nothing attaches" \
		"$rc:$(wc -l <"$tmp/err")" "1:1" "$tmp/err"
fi

# report
R="gupstat report"
fails_with "report: no file" 2 "^$R: no trace file given \(try '$R --help'\)\$" $G report
fails_with "report: two files" 2 "^$R: one trace file at a time: 'b.gt' \(try '$R --help'\)\$" \
	$G report a.gt b.gt
fails_with "report: missing value" 2 "^$R: option '--plot' needs a value \(try '$R --help'\)\$" \
	$G report a.gt --plot
fails_with "report: bad number" 2 "^$R: -n: not a number from 0 to 100000: 'ten'\$" $G report -n ten a.gt
fails_with "report: out of range" 2 "^$R: -n: out of range \(0 to 100000\): '100001'\$" \
	$G report -n 100001 a.gt
fails_with "report: --plot and --perfetto one file" 2 "^$R: --plot: the file --perfetto writes: 'o'\$" \
	$G report --plot o --perfetto o a.gt
fails_with "report: -j takes no value" 2 "^$R: option '--json' takes no value \(try '$R --help'\)\$" \
	$G report --json=1 a.gt
fails_with "report: -j and --folded - both on stdout" 2 \
	"^$R: -j and --folded - both write to standard output \(try '$R --help'\)\$" \
	$G report -j --folded - a.gt
fails_with "report: no such file is a runtime error" 1 "^$R: $tmp/none.gt: No such file" \
	$G report "$tmp/none.gt"

# validate unpin
V="gupstat validate"
fails_with "validate: no claim" 2 "^$V: no claim given; the claims: unpin \(try '$V --help'\)\$" \
	$G validate
fails_with "validate: unknown claim" 2 "^$V: unknown claim 'speed'; the claims: unpin \(try '$V --help'\)\$" \
	$G validate speed
fails_with "validate: extra argument" 2 "^$V: unexpected argument 'more' \(try '$V --help'\)\$" \
	$G validate unpin more
fails_with "validate: missing value" 2 "^$V: option '-r' needs a value \(try '$V --help'\)\$" \
	$G validate unpin -r
fails_with "validate: bad number" 2 "^$V: -r: not a number from 1 to 1000: 'x'\$" $G validate unpin -r x
fails_with "validate: out of range" 2 "^$V: -r: out of range \(1 to 1000\): '1001'\$" \
	$G validate unpin -r 1001
fails_with "validate: CPU out of range" 2 "^$V: --cpu: out of range \(0 to [0-9]+\): '99999'\$" \
	$G validate unpin --cpu 99999
fails_with "validate: sizes out of order" 2 "^$V: -s: sizes must ascend: '64,16'\$" \
	$G validate unpin -s 64,16
fails_with "validate: unknown folio" 2 "^$V: -f: folio sizes are 4k, 64k and 2m: '8k'\$" \
	$G validate unpin -f 8k
fails_with "validate: -e r99999999999999999999" 2 \
	"^$V: -e: raw event code wider than 64 bits: 'r99999999999999999999'\$" \
	$G validate unpin -e r99999999999999999999
fails_with "validate: -e r-1" 2 "^$V: -e: unknown perf event \(.*\): 'r-1'\$" $G validate unpin -e r-1
prints "validate unpin --help" "^Usage: $V \[OPTION\.\.\.\] unpin" $G validate unpin --help

# compare
C="gupstat compare"
fails_with "compare: one file" 2 "^$C: need two results files, BASE.json OTHER.json \(try '$C --help'\)\$" \
	$G compare a.json
fails_with "compare: three files" 2 "^$C: unexpected argument 'c.json' \(try '$C --help'\)\$" \
	$G compare a.json b.json c.json
fails_with "compare: missing value" 2 "^$C: option '--plot' needs a value \(try '$C --help'\)\$" \
	$G compare a.json b.json --plot
fails_with "compare: -j takes no value" 2 "^$C: option '--json' takes no value \(try '$C --help'\)\$" \
	$G compare --json=yes a.json b.json
fails_with "compare: no such file is a runtime error" 1 "none.json" \
	$G compare "$tmp/none.json" "$tmp/none.json"

# No message anywhere in argp's or getopt's own words.
bad=$(grep -rlE 'Try `|Try .--help|invalid option --|unrecognized option' src/ || true)
expect_eq "no getopt or argp wording in src/" "$bad" ""
tap_done
