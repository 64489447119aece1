/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_PARSE_H
#define __GUPSTAT_UTIL_PARSE_H

#include <sys/types.h>
#include <linux/types.h>

/* PID_MAX_LIMIT on 64-bit: no kernel's pid_max goes higher. */
#define PARSE_PID_MAX		4194304U
/* A year: long enough for any run, short enough for tenths of it to fit. */
#define PARSE_SECONDS_MAX	31536000U

/*
 * Typed values from the command line. Each takes the whole string and
 * decimal digits only, no sign, space or "0x" (strtoul() would take
 * "-1" as ULONG_MAX and " 5" as 5). Each returns 0, -EINVAL when @s is
 * not of the type at all, or -ERANGE when it is but lies outside the
 * range; @v is written only on success.
 */
int parse_u64(const char *s, __u64 min, __u64 max, __u64 *v);
int parse_uint(const char *s, unsigned int min, unsigned int max, unsigned int *v);
int parse_pid(const char *s, pid_t *pid);		/* 1 to PARSE_PID_MAX */
int parse_seconds(const char *s, unsigned int *sec);	/* 1 to PARSE_SECONDS_MAX */
/* Bytes: digits and an optional K, M or G (powers of 1024). */
int parse_size(const char *s, __u64 min, __u64 max, __u64 *v);
/* Hex digits only (no "0x"), as many as fit 64 bits. */
int parse_hex_u64(const char *s, __u64 *v);

#endif /* __GUPSTAT_UTIL_PARSE_H */
