/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_KSYMS_H
#define __GUPSTAT_KERNEL_KSYMS_H

#include <stddef.h>
#include <linux/types.h>

/*
 * The one reader of /proc/kallsyms (or a copy at @path): @fn is called
 * for each line with its address, type letter, name and module (NULL for
 * the core kernel) until it returns non-zero, which is returned; -errno
 * when @path cannot be opened.
 */
typedef int (*ksyms_fn)(void *ctx, __u64 addr, char type, const char *name, const char *mod);
int ksyms_each(const char *path, ksyms_fn fn, void *ctx);

/* Kernel text symbols from /proc/kallsyms, sorted by address. */
struct ksyms;

/* NULL with one line on stderr when @path cannot be read. */
struct ksyms *ksyms_load(const char *path);
void ksyms_free(struct ksyms *ks);
/*
 * "symbol+0xoffset" (with " [module]" for a module's symbol) into @buf,
 * or "[unknown]" when no symbol covers @addr. Never the address itself:
 * what a file keeps without --kernel-addrs reveals no kernel layout.
 */
const char *ksyms_name(const struct ksyms *ks, __u64 addr, char *buf, size_t len);

/* The name of the text symbol that covers @addr, without offset; NULL if none. */
const char *ksyms_func(const struct ksyms *ks, __u64 addr);
/* Where the symbol that covers @addr ends (the next one starts); 0 if unknown. */
__u64 ksyms_end(const struct ksyms *ks, __u64 addr);
/* The symbols in address order: @i from 0 to ksyms_nr() - 1. */
size_t ksyms_nr(const struct ksyms *ks);
const char *ksyms_at(const struct ksyms *ks, size_t i, __u64 *addr);

/*
 * The address of each of @nr names in @path (text or data, core kernel
 * only), 0 where it is missing or hidden (kptr_restrict). -errno when
 * @path cannot be read.
 */
int ksyms_lookup(const char *path, const char *const *names, __u64 *addrs, int nr);

#endif /* __GUPSTAT_KERNEL_KSYMS_H */
