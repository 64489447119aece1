// SPDX-License-Identifier: GPL-2.0
/* A JSON document's size in containers, elements and depth (jscan.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include "util/jscan.h"

struct scan {
	size_t containers, separators;
	unsigned int depth;
};

/* Past a limit: which, and where. */
static int over(const struct scan *c, const struct jscan_limits *l, size_t at,
		char *err, size_t errlen)
{
	if (c->depth > l->depth)
		snprintf(err, errlen, "nested more than %u deep, at byte %zu", l->depth, at);
	else if (c->containers > l->containers)
		snprintf(err, errlen, "more than %zu objects and arrays, at byte %zu",
			 l->containers, at);
	else if (c->separators + c->containers > l->elements)
		snprintf(err, errlen, "more than %zu elements, at byte %zu", l->elements, at);
	else
		return 0;
	return -E2BIG;
}

int jscan_check(const char *s, size_t len, const struct jscan_limits *l,
		char *err, size_t errlen)
{
	struct scan c = {};
	bool in_string = false;
	size_t i;
	int ret;

	for (i = 0; i < len; i++) {
		if (in_string) {
			if (s[i] == '\\')
				i++;	/* whatever is escaped is no quote */
			else if (s[i] == '"')
				in_string = false;
			continue;
		}
		switch (s[i]) {
		case '"':
			in_string = true;
			continue;
		case '[':
		case '{':
			c.containers++;
			c.depth++;
			break;
		case ']':
		case '}':
			/* Unbalanced is the parser's to say. */
			if (c.depth)
				c.depth--;
			continue;
		case ',':
			/* Each comma is one more element: a bound, not a count. */
			c.separators++;
			break;
		default:
			continue;
		}
		ret = over(&c, l, i, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}
