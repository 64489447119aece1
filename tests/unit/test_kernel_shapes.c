// SPDX-License-Identifier: GPL-2.0
/*
 * What gupstat decides per kernel from BTF, against synthetic BTF shaped
 * like 6.1 and 6.12: how FOLL_* are numbered (enum values, or 6.1's
 * #defines when BTF has none), and a probe whose prototype moved is
 * skipped with the reason rather than read at the wrong positions.
 */
#include <string.h>
#include "probe/attach.h"
#include "grab_btf.h"
#include "tap.h"
#include "kernel/foll.h"

/* 6.12: FOLL_* are enumerators; try_grab_folio(folio, refs, flags). */
static struct btf *like_612(void)
{
	struct btf *btf = btf__new_empty();

	btf__add_enum(btf, "foll_flags", 4);
	btf__add_enum_value(btf, "FOLL_GET", 2);
	btf__add_enum_value(btf, "FOLL_LONGTERM", 256);
	btf__add_enum(btf, "", 4);
	btf__add_enum_value(btf, "FOLL_PIN", 524288);
	grab_btf_add(btf, "folio");
	return btf;
}

/* 6.1: no FOLL_* in BTF; try_grab_folio(page, refs, flags) is the fast path's. */
static struct btf *like_61(void)
{
	struct btf *btf = btf__new_empty();

	grab_btf_add(btf, "page");
	return btf;
}

static void check_foll(void)
{
	struct btf *a = like_612(), *b = like_61();
	struct foll_bits f;
	char buf[512];

	foll_bits(a, &f);
	CHECK(f.from_btf && f.pin == 0x80000 && f.get == 0x2 && f.longterm == 0x100,
	      "6.12: FOLL_PIN/GET/LONGTERM from BTF (0x%x 0x%x 0x%x)", f.pin, f.get, f.longterm);
	foll_bits(b, &f);
	CHECK(!f.from_btf && f.pin == 0x40000 && f.get == 0x4 && f.longterm == 0x10000,
	      "6.1: the #define values (0x%x 0x%x 0x%x)", f.pin, f.get, f.longterm);
	foll_describe(b, buf, sizeof(buf));
	CHECK(strstr(buf, "FOLL_TOUCH=0x2,") && strstr(buf, "FOLL_PIN=0x40000"),
	      "6.1: a trace file gets the #define table: %.60s...", buf);
	foll_describe(a, buf, sizeof(buf));
	CHECK(strstr(buf, "FOLL_PIN=0x80000") && !strstr(buf, "FOLL_TOUCH"),
	      "6.12: a trace file gets BTF's values: %s", buf);
	btf__free(a);
	btf__free(b);
}

/*
 * The programs read try_grab_folio(folio, refs, flags); on 6.1's
 * prototype the probe must be skipped with the reason, before any
 * attach is tried (so this runs without BPF, as a host test).
 */
static void check_args(void)
{
	static const char *const want[] = { "folio", "refs", "flags", NULL };
	struct btf *a = like_612(), *b = like_61();
	struct probe p = { .func = "try_grab_folio", .args = want, .wanted = true };

	probe_select(&p, b, SELECT_KPROBE);
	CHECK(p.method == ATTACH_NONE && p.skip_reason &&
	      !strcmp(p.skip_reason, "prototype differs: argument 1 is 'page' here, the programs read 'folio'"),
	      "6.1 prototype: skipped, '%s'", p.skip_reason ? p.skip_reason : "(none)");
	/* -O2 split it: only try_grab_folio.part.0 in kallsyms. Said so. */
	snprintf(p.clone, sizeof(p.clone), "try_grab_folio.part.0");
	probe_select(&p, a, SELECT_DEFAULT);
	CHECK(p.method == ATTACH_NONE && p.skip_reason &&
	      strstr(p.skip_reason, "only its compiler clone try_grab_folio.part.0 is in kallsyms"),
	      "a clone alone in kallsyms: skipped, '%s'", p.skip_reason ? p.skip_reason : "(none)");
	/* Accepted: attached by kprobe, or refused for the kernel's want of kprobes. */
	p.in_kallsyms = true;
	probe_select(&p, a, SELECT_KPROBE);
	CHECK(p.method == ATTACH_KPROBE || p.kernel_refused,
	      "6.12 prototype: accepted (%s)", p.method == ATTACH_KPROBE ? "kprobe with -k" :
	      p.skip_reason);
	btf__free(a);
	btf__free(b);
}

int main(void)
{
	check_foll();
	check_args();
	return check_done();
}
