#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# gupstat validate unpin in the guest: the census
# must show what this kernel's walk does (one grab per page on base, one
# per folio on the batched kernel), every sample must be there, and the
# THP settings must be as they were. With a results directory the JSON
# is kept for tests/validate-kernels, which compares the two kernels.
set -u
cd "$(dirname "$0")/../.." || exit 2
. tests/guest/lib.sh

# A kernel without CONFIG_GUP_TEST (Debian's) is refused in one line.
if ! have_gup_test; then
	fails_with "validate without CONFIG_GUP_TEST" 1 "needs CONFIG_GUP_TEST" \
		$GUPSTAT validate unpin -s 4 -r 1 -o /tmp/v-none.json
	[ ! -e /tmp/v-none.json ] && ok "validate without GUP_TEST: no results file left" ||
		not_ok "validate without GUP_TEST left /tmp/v-none.json"
	tap_done
fi

v_json=$(mktemp --suffix=.json)
v_log=$(mktemp)
thp_state() { cat /sys/kernel/mm/transparent_hugepage/hugepages-*/enabled | md5sum; }
thp_before=$(thp_state)

if $GUPSTAT validate unpin -s 4,16 -r 3 -o "$v_json" >"$v_log" 2>&1; then
	ok "validate unpin -s 4,16 -r 3 ran"
else
	not_ok "validate unpin failed:"
	diag "$v_log"
fi
expect_eq "validate: THP settings restored" "$(thp_state)" "$thp_before"
expect_eq "validate: runs" "$(jq '.runs | length' "$v_json")" 6
case $(uname -r) in
*-gupstat-batched*) v_walk=count ;;
*) v_walk=page ;;
esac
expect_eq "validate: walk shape from BTF" "$(jq -r .kernel.walk "$v_json")" "$v_walk"

# Every run: pages and folios as asked, one pin and one unpin call of
# every page, one put per folio, grabs per the walk, all samples present.
v_bad=$(jq -r --arg walk "$v_walk" --argjson n 3 '
	def fpages: {"4k": 1, "64k": 16, "2m": 512}[.folio];
	.runs[] | . as $r | [
		(if .pages != .size_mb * 256 then "pages" else empty end),
		(if .folios * fpages != .pages then "folios" else empty end),
		(if .census.pin_calls != 1 or .census.pin_pages != .pages then "pin census" else empty end),
		(if .census.unpin_calls != 1 or .census.unpin_pages != .pages then "unpin census" else empty end),
		(if .census.puts != .folios or .census.put_refs != .pages then "puts" else empty end),
		(if .folio == "2m" then empty
		 elif $walk == "page" and .census.grabs != .pages then "grabs (base: one per page)"
		 elif $walk == "count" and .census.grabs != .folios then "grabs (batched: one per folio)"
		 else empty end),
		(.warm, .cold, .cold_pin | .pin_ns, .unpin_ns | if length != $n or any(. <= 0) then "samples" else empty end)
	] | select(length > 0) | "\($r.folio) \($r.size_mb) MB: \(join(", "))"' "$v_json")
expect_eq "validate: census and samples of every run" "${v_bad:-none bad}" "none bad"

# The counter path, with a software event every machine has.
if $GUPSTAT validate unpin -s 4 -f 64k -r 2 -e cpu-clock -o "$v_json.clock" >"$v_log" 2>&1; then
	expect_eq "validate -e cpu-clock: a counter per unpin" \
		"$(jq -r '[.counter.event, (.runs[0].warm.unpin_counter | length),
			   (.runs[0].cold.unpin_counter | all(. > 0))] | join(" ")' "$v_json.clock")" \
		"cpu-clock 2 true"
else
	not_ok "validate -e cpu-clock failed:"
	diag "$v_log"
fi

# The kprobe fallback: the same census through kprobes and kretprobes.
if $GUPSTAT validate unpin -s 4 -f 64k -r 1 -k -o "$v_json.kp" >"$v_log" 2>&1; then
	expect_eq "validate -k: attach, pages, puts" \
		"$(jq -r '[.attach, .runs[0].census.pin_pages, .runs[0].census.puts,
			   (.runs[0].warm.unpin_ns[0] > 0)] | join(" ")' "$v_json.kp")" "kprobe 1024 64 true"
else
	not_ok "validate -k failed:"
	diag "$v_log"
fi

# compare against itself: nothing changes, so the slowdown claim fails.
if $GUPSTAT compare "$v_json" "$v_json" --plot "$v_json.svg" >"$v_log" 2>&1; then
	expect_eq "compare self: no slowdown at the largest size" \
		"$(grep -c '^  DOES NOT HOLD  unpin_user_pages() is slower' "$v_log")" 3
	expect_eq "compare self: plot has 24 bars" \
		"$(grep -c "<rect x=.*<title>median" "$v_json.svg")" 24
else
	not_ok "compare self failed: $(head -c 300 "$v_log")"
fi

fails_with "validate: unknown claim" 2 "unknown claim 'speed'" $GUPSTAT validate speed
fails_with "validate: sizes out of order" 2 "sizes must ascend" $GUPSTAT validate unpin -s 64,16
fails_with "validate: unknown folio" 2 "folio sizes are" $GUPSTAT validate unpin -f 8k
fails_with "validate: unknown event" 2 "unknown perf event" $GUPSTAT validate unpin -e no-such-event
fails_with "validate: not root" 1 "need root" setpriv --reuid=65534 --regid=65534 \
	--clear-groups --inh-caps=-all $GUPSTAT validate unpin
fails_with "validate: unwritable output" 1 "cannot write" $GUPSTAT validate unpin -o /proc/no/such
# --sim outside the cache model: no log, or a log nobody writes.
fails_with "validate: --sim without its directory" 1 "--sim: cannot read .*gupsim.log" \
	$GUPSTAT validate unpin -s 4 -r 1 -e none --sim /nonexistent
sim_dir=$(mktemp -d)
: >"$sim_dir/gupsim.log"
fails_with "validate: --sim with no cache model" 1 "no cache model answered" \
	$GUPSTAT validate unpin -f 4k -s 4 -r 1 -e none --sim "$sim_dir"
rm -rf "$sim_dir"
fails_with "validate: no GUP_TEST" 1 "CONFIG_GUP_TEST" unshare -m sh -c \
	"umount -l /sys/kernel/debug && exec $GUPSTAT validate unpin -s 4 -r 1"
head -c 300 "$v_json" >"$v_json.cut"
fails_with "compare: truncated file" 1 "not a readable JSON" $GUPSTAT compare "$v_json.cut" "$v_json"
jq '.runs[0].warm.unpin_ns[0] = "x"' "$v_json" >"$v_json.bad"
fails_with "compare: wrong type" 1 "bad or missing 'unpin_ns'" $GUPSTAT compare "$v_json" "$v_json.bad"
fails_with "compare: one file" 2 "need two results files" $GUPSTAT compare "$v_json"

[ -n "${GUEST_RESULTS:-}" ] && cp "$v_json" "$GUEST_RESULTS/validate.json"
rm -f "$v_json" "$v_json".* "$v_log"
tap_done
