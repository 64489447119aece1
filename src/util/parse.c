// SPDX-License-Identifier: GPL-2.0
/*
 * Typed, range-checked values for every subcommand's options: one
 * definition of what a number is, so that "-1", " 5" or "0x10" are
 * refused the same way everywhere.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/parse.h"

static int parse_digits(const char *s, const char *digits, int base, __u64 *v)
{
	unsigned long long x;

	if (!*s || s[strspn(s, digits)])
		return -EINVAL;
	errno = 0;
	x = strtoull(s, NULL, base);
	if (errno)
		return -ERANGE;
	*v = x;
	return 0;
}

int parse_u64(const char *s, __u64 min, __u64 max, __u64 *v)
{
	__u64 x;
	int err = parse_digits(s, "0123456789", 10, &x);

	if (err)
		return err;
	if (x < min || x > max)
		return -ERANGE;
	*v = x;
	return 0;
}

int parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *v)
{
	__u64 x;
	int err = parse_u64(s, min, max, &x);

	if (!err)
		*v = x;
	return err;
}

int parse_pid(const char *s, pid_t *pid)
{
	unsigned int x;
	int err = parse_uint(s, 1, PARSE_PID_MAX, &x);

	if (!err)
		*pid = x;
	return err;
}

int parse_seconds(const char *s, unsigned int *sec)
{
	return parse_uint(s, 1, PARSE_SECONDS_MAX, sec);
}

int parse_size(const char *s, __u64 min, __u64 max, __u64 *v)
{
	static const char units[] = "KMG";
	char num[24];
	const char *u;
	size_t n = strlen(s);
	unsigned int shift = 0;
	__u64 x;
	int err;

	u = n ? strchr(units, s[n - 1] & ~0x20) : NULL;
	if (u && *u) {
		shift = 10 * (u - units + 1);
		n--;
	}
	if (!n || strspn(s, "0123456789") != n)
		return -EINVAL;
	if (n >= sizeof(num))
		return -ERANGE;
	memcpy(num, s, n);
	num[n] = '\0';
	err = parse_u64(num, 0, ~0ULL >> shift, &x);
	if (err)
		return err;
	x <<= shift;
	if (x < min || x > max)
		return -ERANGE;
	*v = x;
	return 0;
}

int parse_hex_u64(const char *s, __u64 *v)
{
	return parse_digits(s, "0123456789abcdefABCDEF", 16, v);
}
