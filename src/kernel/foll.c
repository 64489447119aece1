// SPDX-License-Identifier: GPL-2.0
/*
 * How the running kernel numbers its FOLL_* flags. Where they are an enum
 * (include/linux/mm_types.h and mm/internal.h) BTF has every value. Where
 * they are still #defines in include/linux/mm.h (Debian 12's 6.1, say)
 * BTF has none of them, and the values are those #defines: they did not
 * move while FOLL_* were macros. Which case applies is decided by BTF
 * (is FOLL_PIN an enumerator?), never by a version number.
 */
#include <stdio.h>
#include <string.h>
#include "kernel/foll.h"
#include "kernel/kernel_btf.h"

struct foll_def {
	const char *name;
	__u32 val;
};

/* include/linux/mm.h, as long as FOLL_* were #defines. */
static const struct foll_def foll_defines[] = {
	{ "FOLL_WRITE", 0x01 }, { "FOLL_TOUCH", 0x02 }, { "FOLL_GET", 0x04 },
	{ "FOLL_DUMP", 0x08 }, { "FOLL_FORCE", 0x10 }, { "FOLL_NOWAIT", 0x20 },
	{ "FOLL_NOFAULT", 0x80 }, { "FOLL_HWPOISON", 0x100 },
	{ "FOLL_MIGRATION", 0x400 }, { "FOLL_TRIED", 0x800 },
	{ "FOLL_REMOTE", 0x2000 }, { "FOLL_ANON", 0x8000 },
	{ "FOLL_LONGTERM", 0x10000 }, { "FOLL_SPLIT_PMD", 0x20000 },
	{ "FOLL_PIN", 0x40000 }, { "FOLL_FAST_ONLY", 0x80000 },
};

#define NR_DEFINES	(sizeof(foll_defines) / sizeof(foll_defines[0]))

static bool foll_in_btf(const struct btf *btf)
{
	__s64 v;

	return !kernel_btf_enum_value(btf, "FOLL_PIN", &v);
}

static __u32 define_of(const char *name)
{
	size_t i;

	for (i = 0; i < NR_DEFINES; i++)
		if (!strcmp(foll_defines[i].name, name))
			return foll_defines[i].val;
	return 0;
}

static __u32 value_of(const struct btf *btf, bool in_btf, const char *name)
{
	__s64 v;

	if (!in_btf)
		return define_of(name);
	return kernel_btf_enum_value(btf, name, &v) ? 0 : (__u32)v;
}

void foll_bits(const struct btf *btf, struct foll_bits *b)
{
	b->from_btf = foll_in_btf(btf);
	b->pin = value_of(btf, b->from_btf, "FOLL_PIN");
	b->get = value_of(btf, b->from_btf, "FOLL_GET");
	b->longterm = value_of(btf, b->from_btf, "FOLL_LONGTERM");
}

/* "NAME=0xVALUE,..." for a trace file, decoded elsewhere. */
int foll_describe(const struct btf *btf, char *buf, size_t len)
{
	size_t i, used = 0;
	int n;

	if (foll_in_btf(btf))
		return kernel_btf_enum_values(btf, "FOLL_", buf, len);
	buf[0] = '\0';
	for (i = 0; i < NR_DEFINES; i++) {
		n = snprintf(buf + used, len - used, "%s%s=0x%x", i ? "," : "",
			     foll_defines[i].name, foll_defines[i].val);
		if (n < 0 || (size_t)n >= len - used) {
			buf[used] = '\0';
			return i;
		}
		used += n;
	}
	return NR_DEFINES;
}
