// SPDX-License-Identifier: GPL-2.0
/*
 * Prototype detection against synthetic BTF shaped like each kernel's
 * follow_page_pte(): base 6.12 returns struct page *, the batched walk long.
 */
#include <errno.h>
#include "tap.h"
#include "kernel/kernel_btf.h"

static struct btf *kernel_like(bool batched)
{
	struct btf *btf = btf__new_empty();
	int lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	int page = btf__add_struct(btf, "page", 64);
	int ptr = btf__add_ptr(btf, page);
	int ret = batched ? btf__add_typedef(btf, "walk_ret_t", lng) : ptr;
	int proto = btf__add_func_proto(btf, ret);

	btf__add_func_param(btf, "address", lng);
	btf__add_func(btf, "follow_page_pte", BTF_FUNC_STATIC, proto);
	proto = btf__add_func_proto(btf, 0);
	btf__add_func(btf, "unpin_user_pages", BTF_FUNC_GLOBAL, proto);
	return btf;
}

int main(void)
{
	struct btf *base = kernel_like(false), *batched = kernel_like(true);

	CHECK(kernel_btf_ret_kind(base, "follow_page_pte") == RET_PTR,
	      "base: struct page * is a pointer return");
	CHECK(kernel_btf_ret_kind(batched, "follow_page_pte") == RET_INT,
	      "batched: a (typedef'd) long is a count return");
	CHECK(kernel_btf_ret_kind(base, "unpin_user_pages") == RET_VOID,
	      "void return");
	CHECK(kernel_btf_ret_kind(base, "gup_fill_pages") == -ENOENT,
	      "a function the kernel lacks is -ENOENT");
	btf__free(base);
	btf__free(batched);
	return check_done();
}
