/* SPDX-License-Identifier: GPL-2.0 */
/* Synthetic kernel BTF for the unit tests: the slow path's grab. */
#ifndef __GUPSTAT_TEST_GRAB_BTF_H
#define __GUPSTAT_TEST_GRAB_BTF_H

#include <bpf/btf.h>

/*
 * try_grab_folio(struct @first *@first, int refs, int flags): "folio" as
 * on 6.12, "page" as on 6.1, where it is the fast path's.
 */
static inline void grab_btf_add(struct btf *btf, const char *first)
{
	int i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int ptr = btf__add_ptr(btf, btf__add_struct(btf, first, 64));
	int proto = btf__add_func_proto(btf, i32);

	btf__add_func_param(btf, first, ptr);
	btf__add_func_param(btf, "refs", i32);
	btf__add_func_param(btf, "flags", i32);
	btf__add_func(btf, "try_grab_folio", BTF_FUNC_GLOBAL, proto);
}

#endif /* __GUPSTAT_TEST_GRAB_BTF_H */
