/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_UTIL_JSCAN_H
#define __GUPSTAT_UTIL_JSCAN_H

#include <stddef.h>

/*
 * What a JSON document may hold before a parser builds it in memory: a
 * parser takes hundreds of bytes per object, so a few megabytes of "{}"
 * would take gigabytes. The bytes are scanned first, in constant memory,
 * and the first limit passed is said in one line.
 */
struct jscan_limits {
	size_t containers;	/* objects and arrays, at most */
	size_t elements;	/* array elements and object members, at most */
	unsigned int depth;	/* nesting, at most */
};

/* 0, or -E2BIG with @err set to the limit passed and where. */
int jscan_check(const char *s, size_t len, const struct jscan_limits *l,
		char *err, size_t errlen);

#endif /* __GUPSTAT_UTIL_JSCAN_H */
