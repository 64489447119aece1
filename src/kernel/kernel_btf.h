/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_KERNEL_BTF_H
#define __GUPSTAT_KERNEL_KERNEL_BTF_H

#include <bpf/btf.h>

enum ret_kind {
	RET_VOID,
	RET_PTR,	/* a pointer, e.g. base 6.12's struct page * */
	RET_INT,	/* an integer or enum, e.g. the batched kernel's long */
	RET_OTHER,
};

struct btf *kernel_btf_load(void);
int kernel_btf_ret_kind(const struct btf *btf, const char *func);
int kernel_btf_arg_index(const struct btf *btf, const char *func,
			 const char *const *names);
int kernel_btf_enum_values(const struct btf *btf, const char *prefix,
			   char *buf, size_t len);
int kernel_btf_enum_value(const struct btf *btf, const char *name, __s64 *val);

#endif /* __GUPSTAT_KERNEL_KERNEL_BTF_H */
