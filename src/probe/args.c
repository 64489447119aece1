// SPDX-License-Identifier: GPL-2.0
/*
 * One table of the arguments every program reads, by position, checked
 * against the kernel's BTF before anything loads (attach.c), so that a
 * kernel whose prototype moved skips the probe instead of misreading
 * it. One table for the live view and validate: a function read by
 * both is read at the same positions.
 */
#include <stddef.h>
#include <string.h>
#include "probe/args.h"

struct func_args {
	const char *func;
	/* "" for a position no program reads; NULL-terminated */
	const char *const names[6];
};

static const struct func_args table[] = {
	{ "__get_user_pages", { "", "", "nr_pages", "gup_flags", "pages", NULL } },
	{ "__gup_longterm_locked", { "", "", "nr_pages", NULL } },
	/* 6.1's try_grab_folio() takes a page: refused there, by name. */
	{ "try_grab_folio", { "folio", "refs", "flags", NULL } },
	{ "try_grab_page", { "page", "flags", NULL } },
	{ "unpin_user_pages", { "pages", "npages", NULL } },
	{ "unpin_user_pages_dirty_lock", { "pages", "npages", NULL } },
	{ "gup_put_folio", { "folio", "refs", NULL } },
};

const char *const *probe_args(const char *func)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].func, func))
			return table[i].names;
	return NULL;
}
