#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# tests/kernel/parity on made-up suite results: it reads the table of the
# architecture the kernels ran on, and fails on a regression, on a case
# that does not pass and is not in that table (one it gives as "pass or
# xfail" may measure either), on a binary that ran
# more cases on one kernel, and on results of two architectures.
. tests/host/lib.sh

# suite DIR ARCH LINE...: a results directory as tests/kernel/suite
# leaves it, each LINE "binary<TAB>case<TAB>result".
suite() {
	local d=$tmp/$1 arch=$2
	shift 2
	mkdir -p "$d"
	echo "$arch" >"$d/arch"
	printf '%s\n' "$@" >"$d/selftests.txt"
	echo 'digest 1' >"$d/coredump.digest"
}

cat >"$tmp/doc.md" <<'EOF'
<!-- base-not-passing x86_64 -->
| binary | case | result | why |
| --- | --- | --- | --- |
| cow | `x86 case` | skip | x86's reason |
<!-- end -->
<!-- base-not-passing aarch64 -->
| binary | case | result | why |
| --- | --- | --- | --- |
| cow | `arm case` | skip | arm64's reason |
| cow | `vary` | pass or xfail | varies run to run |
<!-- end -->
EOF

# parity BASE BATCHED: the number of failed TAP lines; the output in $tmp/out.
parity() {
	PARITY_DOC=$tmp/doc.md tests/kernel/parity "$tmp/$1" "$tmp/$2" >"$tmp/out" 2>&1
	grep -c '^not ok' "$tmp/out"
}

T=$'\t'
V="cow${T}vary${T}"
suite arm-base aarch64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}pass"
suite arm-batched aarch64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}xfail"
expect_eq "aarch64 results match the aarch64 table" "$(parity arm-base arm-batched)" 0 "$tmp/out"
grep -q 'explains for aarch64' "$tmp/out" && ok "the aarch64 table is the one read" ||
	not_ok "the aarch64 table is not the one read: $(tr '\n' ' ' <"$tmp/out")"

# A case the table gives as "pass or xfail" may measure either on each
# kernel, and nothing else.
suite vary-base aarch64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}xfail"
suite vary-batched aarch64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}pass"
expect_eq "a varying case: xfail on base, pass on batched" "$(parity vary-base vary-batched)" 0 "$tmp/out"
expect_eq "a varying case: pass on base, xfail on batched" "$(parity arm-base arm-batched)" 0 "$tmp/out"
suite vary-fail aarch64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}fail"
expect_eq "a varying case that fails on base is not as the table says" \
	"$(parity vary-fail arm-batched)" 1 "$tmp/out"
grep -q "^#   > cow${T}vary${T}fail" "$tmp/out" && ok "and it is the one named" ||
	not_ok "the failing varying case is not named: $(tr '\n' ' ' <"$tmp/out")"
expect_eq "a varying case that passes on base and fails on batched is a regression" \
	"$(parity arm-base vary-fail)" 1 "$tmp/out"

suite x86-base x86_64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}pass"
suite x86-batched x86_64 "gup_test${T}a${T}pass" "cow${T}arm case${T}skip" "${V}pass"
expect_eq "x86_64 results with arm64's skip fail against the x86_64 table" \
	"$(parity x86-base x86-batched)" 1 "$tmp/out"

suite reg-batched aarch64 "gup_test${T}a${T}fail" "cow${T}arm case${T}skip" "${V}pass"
expect_eq "a case base passes and batched fails is a regression" \
	"$(parity arm-base reg-batched)" 1 "$tmp/out"

suite extra-batched aarch64 "gup_test${T}a${T}pass" "gup_test${T}b${T}pass" "cow${T}arm case${T}skip" "${V}pass"
expect_eq "a case only batched runs fails the per-binary count" "$(parity arm-base extra-batched)" 1 "$tmp/out"

expect_eq "results of two architectures do not compare" \
	"$(parity arm-base x86-batched)" 1 "$tmp/out"

suite ppc-base ppc64le "gup_test${T}a${T}pass"
suite ppc-batched ppc64le "gup_test${T}a${T}pass"
expect_eq "an architecture with no table fails" "$(parity ppc-base ppc-batched)" 1 "$tmp/out"
grep -q 'no table of what does not pass on ppc64le' "$tmp/out" &&
	ok "and says which table is missing" || not_ok "no message for the missing table"

rm "$tmp/arm-base/arch"
parity arm-base arm-batched >/dev/null
grep -q '^not ok .*no architecture recorded' "$tmp/out" &&
	ok "results without an architecture fail, saying so" ||
	not_ok "results without an architecture: $(tr '\n' ' ' <"$tmp/out")"
tap_done
