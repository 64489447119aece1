// SPDX-License-Identifier: GPL-2.0
/*
 * Questions asked of the running kernel's BTF. Kernel differences are
 * decided here, from function prototypes, never from a version number.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "kernel_btf.h"

#define VMLINUX_BTF	"/sys/kernel/btf/vmlinux"

struct btf *kernel_btf_load(void)
{
	struct btf *btf;

	if (access(VMLINUX_BTF, R_OK)) {
		fprintf(stderr, "gupstat: kernel has no BTF (%s: %s); it needs CONFIG_DEBUG_INFO_BTF=y\n",
			VMLINUX_BTF, strerror(errno));
		return NULL;
	}
	btf = btf__load_vmlinux_btf();
	if (!btf)
		fprintf(stderr, "gupstat: cannot parse kernel BTF %s: %s\n",
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
 * "NAME=0xVALUE,..." for every enumerator starting with @prefix, into
 * @buf: how this kernel numbers e.g. its FOLL_* flags, for a trace file
 * to be decoded elsewhere. Returns the number found.
 */
int kernel_btf_enum_values(const struct btf *btf, const char *prefix,
			   char *buf, size_t len)
{
	size_t plen = strlen(prefix), used = 0;
	__u32 id, nr = btf__type_cnt(btf);
	int found = 0, i, n;

	buf[0] = '\0';
	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++) {
			const char *name = btf__name_by_offset(btf, e[i].name_off);

			if (strncmp(name, prefix, plen))
				continue;
			n = snprintf(buf + used, len - used, "%s%s=0x%x", found ? "," : "",
				     name, (unsigned int)e[i].val);
			if (n < 0 || (size_t)n >= len - used) {
				buf[used] = '\0';
				return found;
			}
			used += n;
			found++;
		}
	}
	return found;
}

/* The value of the enumerator @name, in any enum; -ENOENT if none has it. */
int kernel_btf_enum_value(const struct btf *btf, const char *name, __s64 *val)
{
	__u32 id, nr = btf__type_cnt(btf);
	int i;

	for (id = 1; id < nr; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_enum *e;

		if (!btf_is_enum(t))
			continue;
		e = btf_enum(t);
		for (i = 0; i < btf_vlen(t); i++)
			if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name)) {
				*val = e[i].val;
				return 0;
			}
	}
	return -ENOENT;
}
