/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_BTF_H
#define __GUPSTAT_KERNEL_BTF_H

#include <bpf/btf.h>

enum ret_kind {
	RET_VOID,
	RET_PTR,	/* a pointer, e.g. base 6.12's struct page * */
	RET_INT,	/* an integer or enum, e.g. the batched kernel's long */
	RET_OTHER,
};

struct btf *kernel_btf_load(void);
int kernel_btf_ret_kind(const struct btf *btf, const char *func);

#endif /* __GUPSTAT_KERNEL_BTF_H */
