// SPDX-License-Identifier: GPL-2.0
/* The typed option values: what a number, a PID and a size are. */
#include <errno.h>
#include "tap.h"
#include "util/parse.h"

int main(void)
{
	unsigned int u = 0;
	pid_t pid = 0;
	__u64 v = 0;

	CHECK(parse_u64("0", 0, 10, &v) == 0 && v == 0, "0");
	CHECK(parse_u64("18446744073709551615", 0, ~0ULL, &v) == 0 && v == ~0ULL, "u64 max");
	CHECK(parse_u64("18446744073709551616", 0, ~0ULL, &v) == -ERANGE, "u64 max + 1");
	CHECK(parse_u64("", 0, 10, &v) == -EINVAL, "empty");
	CHECK(parse_u64("-1", 0, ~0ULL, &v) == -EINVAL, "a sign");
	CHECK(parse_u64("+1", 0, ~0ULL, &v) == -EINVAL, "a plus sign");
	CHECK(parse_u64(" 5", 0, 10, &v) == -EINVAL, "a leading space");
	CHECK(parse_u64("5 ", 0, 10, &v) == -EINVAL, "a trailing space");
	CHECK(parse_u64("0x10", 0, ~0ULL, &v) == -EINVAL, "hex");
	CHECK((v = 7, parse_u64("11", 0, 10, &v) == -ERANGE && v == 7), "over the range, not written");
	CHECK(parse_uint("3", 4, 10, &u) == -ERANGE, "under the range");
	CHECK(parse_uint("4294967296", 0, ~0U, &u) == -ERANGE, "uint overflow");
	CHECK(parse_pid("1", &pid) == 0 && pid == 1, "PID 1");
	CHECK(parse_pid("4194304", &pid) == 0 && pid == 4194304, "PID_MAX_LIMIT");
	CHECK(parse_pid("0", &pid) == -ERANGE, "PID 0");
	CHECK(parse_pid("4194305", &pid) == -ERANGE, "over PID_MAX_LIMIT");
	CHECK(parse_pid("99999999", &pid) == -ERANGE && parse_pid("9x", &pid) == -EINVAL,
	      "digits too large: out of range; not digits: not a number");
	CHECK(parse_seconds("31536000", &u) == 0 && u == 31536000, "a year");
	CHECK(parse_seconds("0", &u) == -ERANGE, "no seconds");
	CHECK(parse_size("4K", 0, ~0ULL, &v) == 0 && v == 4096, "4K");
	CHECK(parse_size("3m", 0, ~0ULL, &v) == 0 && v == 3 << 20, "3m");
	CHECK(parse_size("2G", 0, ~0ULL, &v) == 0 && v == 2ULL << 30, "2G");
	CHECK(parse_size("17", 0, ~0ULL, &v) == 0 && v == 17, "bytes");
	CHECK(parse_size("17179869184G", 0, ~0ULL, &v) == -ERANGE, "G overflowing 64 bits");
	CHECK(parse_size("1KB", 0, ~0ULL, &v) == -EINVAL, "a unit and more");
	CHECK(parse_size("1T", 0, ~0ULL, &v) == -EINVAL, "no T");
	CHECK(parse_size("-1K", 0, ~0ULL, &v) == -EINVAL, "a negative size");
	CHECK(parse_size("K", 0, ~0ULL, &v) == -EINVAL, "a unit alone");
	CHECK(parse_size("8K", 0, 4096, &v) == -ERANGE, "over the range");
	CHECK(parse_hex_u64("01c4", &v) == 0 && v == 0x1c4, "hex");
	CHECK(parse_hex_u64("ffffffffffffffff", &v) == 0 && v == ~0ULL, "hex u64 max");
	CHECK(parse_hex_u64("10000000000000000", &v) == -ERANGE, "hex over 64 bits");
	CHECK(parse_hex_u64("0x10", &v) == -EINVAL, "no 0x");
	CHECK(parse_hex_u64("-1", &v) == -EINVAL, "no sign");
	CHECK(parse_hex_u64("", &v) == -EINVAL, "empty hex");
	return check_done();
}
