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
