// SPDX-License-Identifier: GPL-2.0
/*
 * walk-grabfail: a grab that fails part-way through a walk, on a kernel
 * with the grab-failure hook of kernel/patches/local (batched-traced):
 *
 *   walk-grabfail
 *
 * Writing N to /sys/kernel/debug/gup_fail_grab makes this task's grabs
 * (try_grab_folio() with FOLL_GET or FOLL_PIN) fail from its Nth on, as
 * a refcount overflow fails them. For 4 kB, 64 kB and 2 MB folios, 1 MB
 * (6 MB of 2 MB ones) looked up in one call through process_vm_readv()
 * and PIN_BASIC_TEST, failing at grab 1 and at grab 3, must return and
 * release exactly the pages of the grabs before the failing one: a
 * folio's pages per grab where the walk grabs a run (the batched
 * kernel), one where it grabs page by page (FOLLOW_REFS=1 says so).
 * The folio size is confirmed from the fault counters. One "pass:" or
 * "FAIL:" line per lookup, with the pages returned and the pin counters'
 * deltas; a "reached:" line for a folio size the kernel lacks. Exit 0, 1
 * on a failure, 77 with a "SKIP:" line where the kernel has no hook.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include "gup_test_abi.h"
#include "edge.h"
#include "folio_confirm.h"

#define FAIL_GRAB_PATH	"/sys/kernel/debug/gup_fail_grab"

static const unsigned int fail_at[] = { 1, 3 };

/* Arm the hook at grab @at of this task (0 disarms). */
static void arm(unsigned int at)
{
	char s[16];
	int fd = open(FAIL_GRAB_PATH, O_WRONLY | O_CLOEXEC);
	int len = snprintf(s, sizeof(s), "%u", at);

	if (fd < 0 || write(fd, s, len) != len) {
		fprintf(stderr, "walk-grabfail: %s: %s\n", FAIL_GRAB_PATH,
			strerror(errno));
		exit(1);
	}
	close(fd);
}

/* @nr pages of @kb kB private folios, written and confirmed. */
static char *map_size(unsigned long kb, unsigned long nr)
{
	struct folio_sizes fs;
	char *p;

	if (folio_discover(&fs, 0) || folio_select(&fs, kb)) {
		printf("reached: no %lu kB anonymous folios on this kernel\n", kb);
		return NULL;
	}
	folio_snapshot(&fs);
	p = map_aligned(nr * PAGE, kb * 1024, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS);
	tag_pages(p, 0, nr, 0);
	if (kb > 4 && folio_confirm(&fs, kb, nr * 4 / kb))
		fail("%lu kB: not faulted in as %lu kB folios", kb, kb);
	folio_restore(&fs);
	return p;
}

/*
 * One lookup of @nr pages at @p failing at grab @at: the pages it
 * returned (process_vm_readv()'s bytes, or the pins PIN_BASIC_TEST took,
 * which it releases by the count the walk returned) against @want.
 */
static void one(const char *how, unsigned long kb, char *p, unsigned long nr,
		unsigned int at, unsigned long want)
{
	long long acq = pins("nr_foll_pin_acquired");
	long long rel = pins("nr_foll_pin_released");
	long long got = 0;
	int err = 0;
	char *buf = malloc(nr * PAGE);
	struct iovec local = { buf, nr * PAGE }, remote = { p, nr * PAGE };
	struct gup_test g = {
		.addr = (uintptr_t)p, .size = nr * PAGE, .nr_pages_per_call = nr,
	};

	if (!buf)
		exit(1);
	arm(at);
	if (!strcmp(how, "readv")) {
		got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		got = got < 0 ? 0 : got / (long long)PAGE;
	} else if (ioctl(gup_fd, PIN_BASIC_TEST, &g)) {
		err = errno;
	}
	arm(0);
	acq = pins("nr_foll_pin_acquired") - acq;
	rel = pins("nr_foll_pin_released") - rel;
	/* PIN_BASIC_TEST reports no count: the pins it took are the walk's. */
	if (strcmp(how, "readv"))
		got = acq;
	if (err)
		fail("%s at grab %u: PIN_BASIC_TEST: %s", how, at, strerror(err));
	else if (got != (long long)want || acq != (long long)want || rel != acq)
		fail("%s of %lu pages of %lu kB folios, grab %u failing: %lld pages, pins taken %lld, dropped %lld; expected %lu of each",
		     how, nr, kb, at, got, acq, rel, want);
	else if (want && !strcmp(how, "readv") && memcmp(buf, p, want * PAGE))
		fail("%s of %lu kB folios at grab %u: read other pages than those mapped",
		     how, kb, at);
	else
		printf("pass: %s of %lu pages of %lu kB folios, grab %u failing: %lld pages, pins taken and dropped %lld\n",
		       how, nr, kb, at, got, acq);
	free(buf);
}

int main(void)
{
	static const unsigned long kbs[] = { 4, 64, 2048 };
	const char *refs = getenv("FOLLOW_REFS");
	unsigned long nr, per_grab;
	size_t i, j;
	char *p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(FAIL_GRAB_PATH, W_OK))
		skip("no " FAIL_GRAB_PATH ": a kernel without the grab-failure hook (kernel/patches/local)");
	edge_open_gup_test();
	for (i = 0; i < sizeof(kbs) / sizeof(kbs[0]); i++) {
		nr = kbs[i] == 2048 ? 1536 : 256;
		p = map_size(kbs[i], nr);
		if (!p)
			continue;
		per_grab = refs && !strcmp(refs, "1") ? 1 : kbs[i] / 4;
		for (j = 0; j < sizeof(fail_at) / sizeof(fail_at[0]); j++) {
			one("readv", kbs[i], p, nr, fail_at[j], (fail_at[j] - 1) * per_grab);
			one("PIN_BASIC_TEST", kbs[i], p, nr, fail_at[j],
			    (fail_at[j] - 1) * per_grab);
		}
		munmap(p, nr * PAGE);
	}
	return failures != 0;
}
