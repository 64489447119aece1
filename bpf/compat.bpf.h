/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel differences the BPF programs bridge, one place for all of them.
 * User space decides which shape applies from the kernel's BTF (never a
 * version number) and tells the programs through read-only data.
 */
#ifndef __GUPSTAT_COMPAT_BPF_H
#define __GUPSTAT_COMPAT_BPF_H

#include "gupstat.h"

#define MAX_ERRNO	4095

/*
 * follow_page_pte() return value.
 *
 * 6.12 (mm/gup.c): "static struct page *follow_page_pte(vma, address,
 * pmd, flags, pgmap)": one page, NULL when a fault is needed, or an
 * ERR_PTR.
 *
 * "batch lookups in follow_page_mask()" (kernel/patches/): "static long
 * follow_page_pte(...)": the number of pages looked up, 0 when a fault is
 * needed, or -errno.
 *
 * Returns the pages looked up; *res says what kind of return it was.
 */
static __always_inline long walk_ret_pages(__u64 ret, bool returns_count,
					   enum walk_result *res)
{
	long v = (long)ret;

	if (v == 0) {
		*res = WALK_NEED_FAULT;
		return 0;
	}
	if (v < 0 && v >= -MAX_ERRNO) {
		switch (-v) {
		case 31:	/* EMLINK */
			*res = WALK_EMLINK;
			break;
		case 17:	/* EEXIST */
			*res = WALK_EEXIST;
			break;
		case 14:	/* EFAULT */
			*res = WALK_EFAULT;
			break;
		default:
			*res = WALK_EOTHER;
		}
		return 0;
	}
	*res = WALK_PAGES;
	return returns_count ? v : 1;
}

#endif /* __GUPSTAT_COMPAT_BPF_H */
