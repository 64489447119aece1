// SPDX-License-Identifier: GPL-2.0
/*
 * Questions asked of the running kernel's BTF. Kernel differences are
 * decided here, from function prototypes, never from a version number.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "kernel/kernel_btf.h"
#include "util/msg.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

struct btf *kernel_btf_load(void)
{
	struct btf *btf;

	if (access(VMLINUX_BTF, R_OK)) {
		p_err("kernel has no BTF (%s: %s); it needs CONFIG_DEBUG_INFO_BTF=y\n",
		      VMLINUX_BTF, strerror(errno));
		return NULL;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf)
		p_err("cannot parse kernel BTF %s: %s\n",
		      VMLINUX_BTF, strerror(errno));
	return btf;
}

/*
 * Classify the return type of @func. Returns an enum ret_kind, or -ENOENT
 * when the kernel has no such function in its BTF (absent or inlined).
 */
int kernel_btf_ret_kind(const struct btf *btf, const char *func)
{
	const struct btf_type *t;
	__s32 id;

	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0)
		return -ENOENT;
	t = btf__type_by_id(btf, id);
	t = btf__type_by_id(btf, t->type);	/* the FUNC_PROTO */
	if (!t || !btf_is_func_proto(t))
		return RET_OTHER;
	if (!t->type)
		return RET_VOID;
	t = btf__type_by_id(btf, t->type);
	while (btf_is_mod(t) || btf_is_typedef(t))
		t = btf__type_by_id(btf, t->type);
	if (btf_is_ptr(t))
		return RET_PTR;
	if (btf_is_int(t) || btf_is_enum(t))
		return RET_INT;
	return RET_OTHER;
}

/*
 * The position (from 0) of @func's first parameter named one of @names
 * (NULL-terminated), or -1 when it has none or the function is absent.
 * Parameters move between kernels; their names stay.
 */
int kernel_btf_arg_index(const struct btf *btf, const char *func,
			 const char *const *names)
{
	const struct btf_param *p;
	const struct btf_type *t;
	const char *const *n;
	__s32 id;
	int i;

	id = btf__find_by_name_kind(btf, func, BTF_KIND_FUNC);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (!t || !btf_is_func_proto(t))
		return -1;
	p = btf_params(t);
	for (i = 0; i < btf_vlen(t); i++)
		for (n = names; *n; n++)
			if (!strcmp(btf__name_by_offset(btf, p[i].name_off), *n))
				return i;
	return -1;
}

/*
 * Call @fn for every enumerator of every enum until it returns non-zero;
 * returns that value, or 0.
 */
static int for_each_enumerator(const struct btf *btf,
			       int (*fn)(const char *name, __s64 val, void *ctx),
			       void *ctx)
{
	__u32 id, nr = btf__type_cnt(btf);
	int i, ret;

	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++) {
			ret = fn(btf__name_by_offset(btf, e[i].name_off), e[i].val, ctx);
			if (ret)
				return ret;
		}
	}
	return 0;
}

struct enum_list {
	const char *prefix;
	char *buf;
	size_t len, used;
	int found;
};

static int list_one(const char *name, __s64 val, void *ctx)
{
	struct enum_list *l = ctx;
	int n;

	if (strncmp(name, l->prefix, strlen(l->prefix)))
		return 0;
	n = snprintf(l->buf + l->used, l->len - l->used, "%s%s=0x%x",
		     l->found ? "," : "", name, (unsigned int)val);
	if (n < 0 || (size_t)n >= l->len - l->used) {
		l->buf[l->used] = '\0';
		return 1;	/* full: keep what fitted */
	}
	l->used += n;
	l->found++;
	return 0;
}

/*
 * "NAME=0xVALUE,..." for every enumerator starting with @prefix, into
 * @buf: how this kernel numbers e.g. its FOLL_* flags, for a trace file
 * to be decoded elsewhere. Returns the number found.
 */
int kernel_btf_enum_values(const struct btf *btf, const char *prefix,
			   char *buf, size_t len)
{
	struct enum_list l = { .prefix = prefix, .buf = buf, .len = len };

	buf[0] = '\0';
	for_each_enumerator(btf, list_one, &l);
	return l.found;
}

struct enum_find {
	const char *name;
	__s64 val;
};

static int find_one(const char *name, __s64 val, void *ctx)
{
	struct enum_find *f = ctx;

	if (strcmp(name, f->name))
		return 0;
	f->val = val;
	return 1;
}

/* The value of the enumerator @name, in any enum; -ENOENT if none has it. */
int kernel_btf_enum_value(const struct btf *btf, const char *name, __s64 *val)
{
	struct enum_find f = { .name = name };

	if (!for_each_enumerator(btf, find_one, &f))
		return -ENOENT;
	*val = f.val;
	return 0;
}
