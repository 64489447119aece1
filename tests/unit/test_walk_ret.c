// SPDX-License-Identifier: GPL-2.0
/*
 * The follow_page_pte() return decoding that runs in BPF, compiled for
 * the host: both kernels' shapes, every error class.
 */
#include <stdbool.h>
#include <linux/types.h>
#include "../../bpf/compat.bpf.h"
#include "tap.h"

static void expect(__u64 ret, bool count, long pages, enum walk_result res,
		   const char *what)
{
	enum walk_result got;
	long n = walk_ret_pages(ret, count, &got);

	CHECK(n == pages && got == res, "%s: pages %ld (want %ld), result %d (want %d)",
	      what, n, pages, got, res);
}

int main(void)
{
	/* Base 6.12: struct page *. */
	expect(0xffffea0000123400ULL, false, 1, WALK_PAGES, "base: a struct page");
	expect(0, false, 0, WALK_NEED_FAULT, "base: NULL means fault needed");
	expect((__u64)-31, false, 0, WALK_EMLINK, "base: ERR_PTR(-EMLINK)");
	expect((__u64)-17, false, 0, WALK_EEXIST, "base: ERR_PTR(-EEXIST)");
	expect((__u64)-14, false, 0, WALK_EFAULT, "base: ERR_PTR(-EFAULT)");
	expect((__u64)-12, false, 0, WALK_EOTHER, "base: ERR_PTR(-ENOMEM)");
	expect((__u64)-4095, false, 0, WALK_EOTHER, "base: lowest ERR_PTR");
	expect((__u64)-4096, false, 1, WALK_PAGES, "base: just below ERR_PTR range is a pointer");

	/* Batched: a count of pages. */
	expect(1, true, 1, WALK_PAGES, "batched: one page");
	expect(16, true, 16, WALK_PAGES, "batched: a 64 kB folio run");
	expect(512, true, 512, WALK_PAGES, "batched: a whole page table");
	expect(0, true, 0, WALK_NEED_FAULT, "batched: 0 means fault needed");
	expect((__u64)-31, true, 0, WALK_EMLINK, "batched: -EMLINK");
	return check_done();
}
