/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_FOLL_H
#define __GUPSTAT_KERNEL_FOLL_H

#include <stdbool.h>
#include <stddef.h>
#include <bpf/btf.h>

/* The FOLL_* bits the BPF programs test, as the running kernel numbers them. */
struct foll_bits {
	__u32 pin, get, longterm;
	bool from_btf;		/* false: the #define values (FOLL_* not in BTF) */
};

void foll_bits(const struct btf *btf, struct foll_bits *b);
int foll_describe(const struct btf *btf, char *buf, size_t len);

#endif /* __GUPSTAT_KERNEL_FOLL_H */
