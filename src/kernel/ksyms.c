// SPDX-License-Identifier: GPL-2.0
/*
 * Symbolising kernel stacks. gupstat trace resolves its stacks when it
 * writes the file, on the machine and boot that produced them: a report
 * read elsewhere, or after a reboot (KASLR moves everything), still
 * names the right functions, and no address has to be kept.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/ksyms.h"
#include "util/msg.h"

struct ksym {
	__u64 addr;
	char *name;		/* "name" or "name [module]" */
};

struct ksyms {
	struct ksym *syms;
	size_t nr, cap;
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Text symbols only: a data symbol between two functions would misname. */
static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int ksyms_add(struct ksyms *ks, __u64 addr, const char *name, const char *mod)
{
	struct ksym *s;
	size_t len;

	if (ks->nr == ks->cap) {
		size_t cap = ks->cap ? ks->cap * 2 : 65536;

		s = realloc(ks->syms, cap * sizeof(*s));
		if (!s)
			return -ENOMEM;
		ks->syms = s;
		ks->cap = cap;
	}
	len = strlen(name) + (mod ? strlen(mod) + 1 : 0) + 1;
	s = &ks->syms[ks->nr];
	s->name = malloc(len);
	if (!s->name)
		return -ENOMEM;
	snprintf(s->name, len, mod ? "%s %s" : "%s", name, mod);
	s->addr = addr;
	ks->nr++;
	return 0;
}

int ksyms_each(const char *path, ksyms_fn fn, void *ctx)
{
	char line[512], name[256], mod[256], type;
	unsigned long long addr;
	FILE *f = fopen(path, "r");
	int n, ret = 0;

	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%llx %c %255s %255s", &addr, &type, name, mod);
		if (n >= 3)
			ret = fn(ctx, addr, type, name, n == 4 ? mod : NULL);
	}
	fclose(f);
	return ret;
}

/* Out of memory stops the walk: ksyms_load() says so. */
static int add_text(void *ctx, __u64 addr, char type, const char *name, const char *mod)
{
	if (!is_text(type) || !addr)
		return 0;
	return ksyms_add(ctx, addr, name, mod) ? 1 : 0;
}

struct ksyms *ksyms_load(const char *path)
{
	struct ksyms *ks = calloc(1, sizeof(*ks));
	int err;

	if (!ks)
		return NULL;
	err = ksyms_each(path, add_text, ks);
	if (err) {
		if (err < 0)
			p_err("cannot read %s: %s\n", path, strerror(-err));
		else
			p_err("out of memory reading %s\n", path);
		ksyms_free(ks);
		return NULL;
	}
	qsort(ks->syms, ks->nr, sizeof(*ks->syms), ksym_cmp);
	return ks;
}

void ksyms_free(struct ksyms *ks)
{
	size_t i;

	if (!ks)
		return;
	for (i = 0; i < ks->nr; i++)
		free(ks->syms[i].name);
	free(ks->syms);
	free(ks);
}

/* The last symbol at or below @addr, or NULL. */
static const struct ksym *ksyms_find(const struct ksyms *ks, __u64 addr)
{
	size_t lo = 0, hi = ks->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &ks->syms[lo - 1] : NULL;
}

const char *ksyms_name(const struct ksyms *ks, __u64 addr, char *buf, size_t len)
{
	const struct ksym *s = ks ? ksyms_find(ks, addr) : NULL;
	const char *mod;

	if (!s) {
		snprintf(buf, len, "[unknown]");
		return buf;
	}
	/* "name [module]" prints as "name+0x10 [module]". */
	mod = strchr(s->name, ' ');
	if (mod)
		snprintf(buf, len, "%.*s+0x%llx%s", (int)(mod - s->name), s->name,
			 (unsigned long long)(addr - s->addr), mod);
	else
		snprintf(buf, len, "%s+0x%llx", s->name, (unsigned long long)(addr - s->addr));
	return buf;
}

struct lookup {
	const char *const *names;
	__u64 *addrs;
	int nr;
};

/* A module's symbol is not the core kernel's. */
static int lookup_one(void *ctx, __u64 addr, char type, const char *name, const char *mod)
{
	struct lookup *l = ctx;
	int i;

	for (i = 0; !mod && i < l->nr; i++)
		if (!l->addrs[i] && !strcmp(name, l->names[i]))
			l->addrs[i] = addr;
	return 0;
}

int ksyms_lookup(const char *path, const char *const *names, __u64 *addrs, int nr)
{
	struct lookup l = { names, addrs, nr };

	memset(addrs, 0, nr * sizeof(*addrs));
	return ksyms_each(path, lookup_one, &l);
}

const char *ksyms_func(const struct ksyms *ks, __u64 addr)
{
	const struct ksym *s = ksyms_find(ks, addr);

	return s ? s->name : NULL;
}

__u64 ksyms_end(const struct ksyms *ks, __u64 addr)
{
	const struct ksym *s = ksyms_find(ks, addr);

	return s && s + 1 < ks->syms + ks->nr ? s[1].addr : 0;
}

size_t ksyms_nr(const struct ksyms *ks)
{
	return ks->nr;
}

const char *ksyms_at(const struct ksyms *ks, size_t i, __u64 *addr)
{
	*addr = ks->syms[i].addr;
	return ks->syms[i].name;
}
