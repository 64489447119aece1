// SPDX-License-Identifier: GPL-2.0
/*
 * walk-edge: the slow-path GUP walk where a batched walk can go wrong,
 * one case per run:
 *
 *   walk-edge place|softdirty|uffd-wp|dirty|migrate|huge1g
 *
 * Every case first shows that the set-up it needs is really there
 * ("reached:" lines, from pagemap, kpageflags, maps, smaps and vmstat),
 * then pins through the GUP_TEST ioctls and process_vm_readv/writev()
 * and checks each page against what it must be ("FAIL:" lines), and
 * prints "digest:" lines that must be the same on every kernel. Exit 0,
 * 1 on a failure, 2 on bad usage, 77 with a "SKIP:" line where the
 * kernel or the boot lacks what the case needs.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "gup_test_abi.h"
#include "edge.h"
#include "folio_confirm.h"
#include "kernel/pagemap.h"

static void select_size(struct folio_sizes *fs, unsigned long kb, int shmem)
{
	if (folio_discover(fs, shmem) || folio_select(fs, kb)) {
		char why[96];

		snprintf(why, sizeof(why), "no %lu kB %s folios on this kernel",
			 kb, shmem ? "shmem" : "anonymous");
		skip(why);
	}
}

/*
 * @nr pages of @kb kB folios, faulted in and confirmed from the fault
 * counters: private ones tagged page by page (write faults), @shmem ones
 * only read (clean folios, writable PTEs).
 */
static char *map_folios(const char *what, unsigned long kb, unsigned long nr,
			int shmem)
{
	struct folio_sizes fs;
	volatile char sink;
	unsigned long i;
	char *p;

	select_size(&fs, kb, shmem);
	folio_snapshot(&fs);
	p = map_aligned(nr * PAGE, kb * 1024, PROT_READ | PROT_WRITE,
			(shmem ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS);
	for (i = 0; shmem && i < nr; i++)
		sink = p[i * PAGE];
	(void)sink;
	if (!shmem)
		tag_pages(p, 0, nr, 0);
	if (kb > 4 && folio_confirm(&fs, kb, nr * 4 / kb))
		fail("%s: not faulted in as %lu kB folios", what, kb);
	folio_restore(&fs);
	return p;
}

/* pfns of @nr pages from @p: one folio, contiguous, head first. */
static int one_folio(char *p, unsigned long nr, uint64_t *pfn0)
{
	uint64_t pfn = pagemap_pfn(p);
	unsigned long i;

	*pfn0 = pfn;
	if (!pfn || !pagemap_flag(pagemap_kpageflags(pfn), KPF_COMPOUND_HEAD))
		return 0;
	for (i = 1; i < nr; i++)
		if (pagemap_pfn(p + i * PAGE) != pfn + i ||
		    !pagemap_flag(pagemap_kpageflags(pfn + i), KPF_COMPOUND_TAIL))
			return 0;
	return 1;
}


/* Is there a /proc/self/maps line starting at @p: a VMA boundary. */
static int vma_starts_at(const void *p)
{
	char line[512];
	unsigned long start;
	int found = 0;
	FILE *f = fopen("/proc/self/maps", "re");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-", &start) == 1 && start == (uintptr_t)p)
			found = 1;
	if (f)
		fclose(f);
	return found;
}

/* Move @len bytes at @src to @dst: the PTEs move, the folio stays. */
static void move(char *src, char *dst, size_t len)
{
	if (mremap(src, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, dst) != dst) {
		perror("walk-edge: mremap");
		exit(1);
	}
}

#define PLACE_RUN	64	/* whole folios, one across the PMD boundary */
#define PLACE_HALVES	8	/* 64 kB chunks of two half folios each */
#define PLACE_STRADDLE	32	/* the run's folio across the boundary */
#define PLACE_SPLIT	10	/* the run's folio an mprotect() splits */

static const unsigned long place_lens[] = { 1, 15, 16, 17, 513 };

/*
 * Pins of every length at every page offset inside the folio at @f,
 * clamped into the @total pages at @base.
 */
static void place_pins(const char *name, char *base, unsigned long total,
		       unsigned long f)
{
	char what[96];
	unsigned long off, l, first, nr;

	for (off = 0; off < 16; off++) {
		for (l = 0; l < sizeof(place_lens) / sizeof(place_lens[0]); l++) {
			nr = place_lens[l];
			first = f * 16 + off;
			if (first + nr > total)
				first = total - nr;
			snprintf(what, sizeof(what), "%s: %lu pages at +%lu",
				 name, nr, first);
			pin_check(what, base + first * PAGE, nr, 0);
			vm_rw_check(what, base + first * PAGE, nr, 1);
		}
	}
}

/*
 * 64 kB folios moved by mremap() so that one straddles a PMD boundary,
 * one is split by mprotect() into two VMAs, and 64 kB chunks hold the
 * second halves of two folios (a pfn gap inside what looks like a run).
 */
static int case_place(void)
{
	const unsigned long nsrc = PLACE_RUN + PLACE_HALVES * 2;
	const unsigned long total = (PLACE_RUN + PLACE_HALVES) * 16;
	char *src = map_folios("place", 64, nsrc * 16, 0), *win, *run, *half;
	uint64_t pfn;
	unsigned long i;

	/* The run ends PLACE_RUN - PLACE_STRADDLE folios past the boundary. */
	win = map_aligned(8 * MB, PMD_SIZE, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE);
	run = win + 4 * MB - KB64 / 2 - PLACE_STRADDLE * KB64;
	for (i = 0; i < PLACE_RUN; i++)
		move(src + i * KB64, run + i * KB64, KB64);
	half = run + PLACE_RUN * KB64;
	for (i = 0; i < PLACE_HALVES; i++) {
		char *a = src + (PLACE_RUN + 2 * i) * KB64;

		/* Two second halves: never one pfn run, whatever the allocator. */
		move(a + KB64 / 2, half + i * KB64, KB64 / 2);
		move(a + KB64 + KB64 / 2, half + i * KB64 + KB64 / 2, KB64 / 2);
	}
	if (mprotect(run + PLACE_SPLIT * KB64 + KB64 / 2, KB64, PROT_READ)) {
		perror("walk-edge: mprotect");
		return 1;
	}

	if (one_folio(run + PLACE_STRADDLE * KB64, 16, &pfn) &&
	    ((uintptr_t)(run + PLACE_STRADDLE * KB64 + KB64 / 2) & (PMD_SIZE - 1)) == 0)
		printf("reached: one 64 kB folio (pfn %#llx-%#llx) mapped across the PMD boundary at %p\n",
		       (unsigned long long)pfn, (unsigned long long)pfn + 15,
		       run + PLACE_STRADDLE * KB64 + KB64 / 2);
	else
		fail("place: the folio across the PMD boundary is not one folio");
	if (one_folio(run + PLACE_SPLIT * KB64, 16, &pfn) &&
	    vma_starts_at(run + PLACE_SPLIT * KB64 + KB64 / 2))
		printf("reached: one 64 kB folio split between two VMAs at %p (mprotect)\n",
		       run + PLACE_SPLIT * KB64 + KB64 / 2);
	else
		fail("place: no VMA boundary inside the split folio");
	for (i = 0; i < PLACE_HALVES; i++) {
		char *c = half + i * KB64;

		if (pagemap_pfn(c + 8 * PAGE) == pagemap_pfn(c + 7 * PAGE) + 1 ||
		    !pagemap_flag(pagemap_kpageflags(pagemap_pfn(c + 7 * PAGE)), KPF_COMPOUND_TAIL))
			break;
	}
	if (i == PLACE_HALVES)
		printf("reached: %d chunks of two half folios, a pfn gap in each\n",
		       PLACE_HALVES);
	else
		fail("place: chunk %lu is not two halves of different folios", i);

	place_pins("place: across the PMD boundary", run, total, PLACE_STRADDLE);
	place_pins("place: across a VMA split", run, total, PLACE_SPLIT);
	place_pins("place: two half folios", run, total, PLACE_RUN);
	printf("digest: place %016llx\n", (unsigned long long)digest);
	return failures != 0;
}

/* Soft-dirty bits of @nr pages as a bitmap digest, and how many are set. */
static unsigned long soft_dirty(char *p, unsigned long nr, int add)
{
	unsigned long i, set = 0;

	for (i = 0; i < nr; i++) {
		int sd = !!(pagemap_entry(p + i * PAGE) & PM_SOFT_DIRTY);

		set += sd;
		if (add)
			digest_add(i << 1 | sd);
	}
	return set;
}

static int clear_refs_soft_dirty(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
	int ok = fd >= 0 && write(fd, "4", 1) == 1;

	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/*
 * Soft-dirty tracking write-protects every PTE; writing every other page
 * leaves each folio's PTEs alternating, so a batch must end at every
 * change. A write lookup makes every page soft-dirty (each protected PTE
 * takes its write fault); what a read lookup leaves must match base.
 */
static void softdirty_round(enum lookup by, char *p, unsigned long nr)
{
	unsigned long i, set;

	if (clear_refs_soft_dirty())
		skip("no /proc/self/clear_refs soft-dirty (CONFIG_MEM_SOFT_DIRTY)");
	if (soft_dirty(p, nr, 0))
		fail("softdirty: %lu pages still soft-dirty after clear_refs",
		     soft_dirty(p, nr, 0));
	for (i = 0; i < nr; i += 2)
		p[i * PAGE + 8] = 1;
	if (soft_dirty(p, nr, 0) != nr / 2)
		fail("softdirty: writing every other page left %lu of %lu soft-dirty",
		     soft_dirty(p, nr, 0), nr);
	lookup("softdirty", by, p, nr);
	set = soft_dirty(p, nr, 1);
	printf("reached: %lu of %lu pages soft-dirty, every other one, in %lu 64 kB folios; after %s: %lu\n",
	       nr / 2, nr, nr / 16, lookup_name[by], set);
	if (by == PIN_WRITE && set != nr)
		fail("softdirty: after a write pin %lu of %lu pages soft-dirty", set, nr);
}

static int case_softdirty(void)
{
	const unsigned long nr = 16 * 32;
	char *p = map_folios("softdirty", 64, nr, 0);

	softdirty_round(PIN_READ, p, nr);
	softdirty_round(GUP_READ, p, nr);
	softdirty_round(VM_READV, p, nr);
	softdirty_round(PIN_WRITE, p, nr);
	printf("digest: softdirty %016llx\n", (unsigned long long)digest);
	return failures != 0;
}

struct uffd_ctx {
	int fd;
	char *base;
	unsigned long nr;
	unsigned long faults;
	unsigned char *hit;	/* per page: how many wp faults it raised */
	int stop;
};

static int wp_range(int fd, char *p, unsigned long len, int protect)
{
	struct uffdio_writeprotect wp = {
		.range = { .start = (uintptr_t)p, .len = len },
		.mode = protect ? UFFDIO_WRITEPROTECT_MODE_WP : 0,
	};

	return ioctl(fd, UFFDIO_WRITEPROTECT, &wp);
}

/* Resolves each write-protect fault by lifting the protection of its page. */
static void *uffd_handler(void *arg)
{
	struct uffd_ctx *u = arg;
	struct pollfd pfd = { .fd = u->fd, .events = POLLIN };
	struct uffd_msg msg;

	while (!__atomic_load_n(&u->stop, __ATOMIC_SEQ_CST)) {
		unsigned long idx;

		if (poll(&pfd, 1, 50) <= 0 || read(u->fd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT ||
		    !(msg.arg.pagefault.flags & UFFD_PAGEFAULT_FLAG_WP))
			continue;
		idx = ((uintptr_t)msg.arg.pagefault.address - (uintptr_t)u->base) / PAGE;
		if (idx < u->nr)
			u->hit[idx]++;
		u->faults++;
		wp_range(u->fd, u->base + idx * PAGE, PAGE, 0);
	}
	return NULL;
}

static int uffd_open(char *p, unsigned long len)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)p, .len = len },
		.mode = UFFDIO_REGISTER_MODE_WP,
	};
	int fd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);

	if (fd < 0 || ioctl(fd, UFFDIO_API, &api) || ioctl(fd, UFFDIO_REGISTER, &reg))
		skip("no userfaultfd write-protect on anonymous memory");
	return fd;
}

/*
 * The second half of each 64 kB folio write-protected by userfaultfd: a
 * write through process_vm_writev() must raise one fault per protected
 * page, none for the others, and land on every page.
 */
static int case_uffd_wp(void)
{
	const unsigned long nr = 16 * 8;
	struct uffd_ctx u = { .nr = nr };
	struct iovec local, remote;
	pthread_t th;
	unsigned long i, marked = 0;
	char *p = map_folios("uffd-wp", 64, nr, 0), *buf;

	u.fd = uffd_open(p, nr * PAGE);
	u.base = p;
	u.hit = calloc(nr, 1);
	for (i = 0; i < nr; i += 16)
		wp_range(u.fd, p + (i + 8) * PAGE, 8 * PAGE, 1);
	for (i = 0; i < nr; i++)
		marked += !!(pagemap_entry(p + i * PAGE) & PM_UFFD_WP);
	printf("reached: %lu of %lu pages uffd-wp, the second half of each 64 kB folio\n",
	       marked, nr);
	if (marked != nr / 2)
		fail("uffd-wp: %lu pages marked, expected %lu", marked, nr / 2);

	buf = malloc(nr * PAGE);
	memcpy(buf, p, nr * PAGE);
	tag_pages(buf, 0, nr, 1);
	local = (struct iovec){ buf, nr * PAGE };
	remote = (struct iovec){ p, nr * PAGE };
	pthread_create(&th, NULL, uffd_handler, &u);
	if (process_vm_writev(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)(nr * PAGE))
		fail("uffd-wp: process_vm_writev: %s", strerror(errno));
	__atomic_store_n(&u.stop, 1, __ATOMIC_SEQ_CST);
	pthread_join(th, NULL);

	printf("reached: %lu write-protect faults raised by the GUP write\n", u.faults);
	for (i = 0; i < nr; i++) {
		int want = (i % 16) >= 8;

		digest_add(i << 8 | u.hit[i]);
		if (u.hit[i] != want)
			fail("uffd-wp: page %lu raised %u faults, expected %d", i, u.hit[i], want);
		if (memcmp(buf + i * PAGE, p + i * PAGE, PAGE))
			fail("uffd-wp: page %lu does not hold what was written", i);
	}
	printf("digest: uffd-wp %016llx\n", (unsigned long long)digest);
	return failures != 0;
}

/* How many of the @nr_folios 64 kB folios at @p have PG_dirty. */
static unsigned long dirty_folios(char *p, unsigned long nr_folios)
{
	unsigned long f, n = 0;

	for (f = 0; f < nr_folios; f++) {
		uint64_t pfn = pagemap_pfn(p + f * KB64);

		n += pfn && pagemap_flag(pagemap_kpageflags(pfn), KPF_DIRTY);
	}
	return n;
}

/*
 * Shared 64 kB shmem folios, read-faulted: writable PTEs, clean folios.
 * A FOLL_WRITE lookup with FOLL_TOUCH (get_user_pages(), the _remote()
 * variants) must mark each folio it reaches dirty, as follow_page_pte()
 * does, or data written through it could be dropped by reclaim;
 * pin_user_pages() does not touch, and leaves that to the unpin. The
 * lookup covers folios 1 to 4 from an odd page.
 */
static void dirty_round(enum lookup by)
{
	const unsigned long nr_folios = 8, first = 16 + 3, nr = 4 * 16 - 6;
	char *p = map_folios("dirty", 64, nr_folios * 16, 1);
	unsigned long f, clean;

	clean = nr_folios - dirty_folios(p, nr_folios);
	if (clean != nr_folios)
		skip("shmem folios are dirty when read-faulted on this kernel");
	lookup("dirty", by, p + first * PAGE, nr);
	printf("reached: %s of folios 1-4: %lu of %lu read-faulted clean shmem folios dirty after\n",
	       lookup_name[by], dirty_folios(p, nr_folios), nr_folios);
	for (f = 0; f < nr_folios; f++) {
		uint64_t pfn = pagemap_pfn(p + f * KB64);
		int want = by != PIN_WRITE && f >= 1 && f <= 4;
		int is = pfn && pagemap_flag(pagemap_kpageflags(pfn), KPF_DIRTY);

		digest_add(f << 1 | is);
		if (is != want)
			fail("dirty: folio %lu %s after %s of folios 1-4",
			     f, is ? "dirty" : "clean", lookup_name[by]);
	}
	munmap(p, nr_folios * KB64);
}

static int case_dirty(void)
{
	dirty_round(GUP_WRITE);
	dirty_round(VM_WRITEV);
	dirty_round(PIN_WRITE);
	printf("digest: dirty %016llx\n", (unsigned long long)digest);
	return failures != 0;
}

/* How many of @nr pages at @p lie in ZONE_MOVABLE [@lo, @hi). */
static unsigned long in_movable(char *p, unsigned long nr, uint64_t lo, uint64_t hi)
{
	unsigned long i, n = 0;

	for (i = 0; i < nr; i++) {
		uint64_t pfn = pagemap_pfn(p + i * PAGE);

		n += pfn >= lo && pfn < hi;
	}
	return n;
}

/*
 * FOLL_LONGTERM may not leave a pin in ZONE_MOVABLE: the walk collects
 * such folios, drops what it took, migrates them and walks again, so
 * every page is pinned twice and ends outside the zone, its content
 * intact. The guest boots with movablecore= so that memory lands there.
 */
static void migrate_size(unsigned long kb, uint64_t lo, uint64_t hi)
{
	const unsigned long nr = 8 * MB / PAGE;
	char *p = map_folios("migrate", kb, nr, 0);
	unsigned long before, after;
	char what[64];

	before = in_movable(p, nr, lo, hi);
	if (before != nr)
		fail("migrate: %lu kB: only %lu of %lu pages in ZONE_MOVABLE", kb, before, nr);
	snprintf(what, sizeof(what), "migrate: %lu kB long-term pin", kb);
	expect_rounds = 2;
	pin_check(what, p, nr, 0);
	expect_rounds = 1;
	after = in_movable(p, nr, lo, hi);
	printf("reached: %lu kB folios: %lu of %lu pages in ZONE_MOVABLE before the pin, %lu after; each page pinned %lld times\n",
	       kb, before, nr, after, pin_rounds);
	if (after)
		fail("migrate: %lu kB: %lu pages still in ZONE_MOVABLE after a long-term pin",
		     kb, after);
	digest_add(before);
	digest_add(after);
	digest_add(pin_rounds);
	munmap(p, nr * PAGE);
}

static int case_migrate(void)
{
	uint64_t lo, hi;

	if (!pagemap_movable_zone(&lo, &hi))
		skip("no ZONE_MOVABLE: boot with movablecore=");
	migrate_size(4, lo, hi);
	migrate_size(64, lo, hi);
	migrate_size(2048, lo, hi);
	printf("digest: migrate %016llx\n", (unsigned long long)digest);
	return failures != 0;
}

/* The KernelPageSize smaps gives the mapping at @p, in kB. */
static unsigned long smaps_page_kb(const void *p)
{
	char line[512];
	unsigned long start, end, kb = 0;
	int in = 0;
	FILE *f = fopen("/proc/self/smaps", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			in = (uintptr_t)p >= start && (uintptr_t)p < end;
		else if (in && sscanf(line, "KernelPageSize: %lu kB", &kb) == 1)
			break;
	}
	if (f)
		fclose(f);
	return kb;
}

#ifndef MAP_HUGE_1GB
#define MAP_HUGE_1GB	(30 << 26)
#endif

/*
 * A 1 GB hugetlb page: follow_huge_pud(), where one call may return up
 * to 262144 pages. Pins at offsets around its ends and middle, of lengths
 * up to 4096 pages, read back page by page; then the GUP_TEST lookups of
 * all of it in one call.
 */
static int case_huge1g(void)
{
	static const unsigned long offs[] = { 0, 1, 511, 512, 131071, 262144 - 4096 };
	static const unsigned long lens[] = { 1, 17, 513, 4096 };
	const unsigned long nr = PUD_SIZE / PAGE;
	struct gup_test g = { 0 };
	char what[96];
	unsigned long o, l;
	char *p;

	p = mmap(NULL, PUD_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_HUGE_1GB, -1, 0);
	if (p == MAP_FAILED)
		skip("no free 1 GB hugetlb page: boot with hugepagesz=1G hugepages=1");
	tag_pages(p, 0, nr, 0);
	printf("reached: %lu pages mapped by one PUD (smaps KernelPageSize %lu kB)\n",
	       nr, smaps_page_kb(p));
	if (smaps_page_kb(p) != PUD_SIZE / 1024)
		fail("huge1g: the mapping is not 1 GB pages");
	for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++) {
		for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			unsigned long first = offs[o];

			if (first + lens[l] > nr)
				first = nr - lens[l];
			snprintf(what, sizeof(what), "huge1g: %lu pages at +%lu", lens[l], first);
			pin_check(what, p + first * PAGE, lens[l], l & 1);
		}
	}
	g.addr = (uintptr_t)p;
	g.size = PUD_SIZE;
	g.nr_pages_per_call = nr;
	if (ioctl(gup_fd, PIN_BASIC_TEST, &g) || g.size != PUD_SIZE)
		fail("huge1g: PIN_BASIC_TEST of all 262144 pages in one call: %s, %llu bytes",
		     strerror(errno), (unsigned long long)g.size);
	digest_add(g.size);
	g.size = PUD_SIZE;
	if (ioctl(gup_fd, GUP_BASIC_TEST, &g) || g.size != PUD_SIZE)
		fail("huge1g: GUP_BASIC_TEST of all 262144 pages in one call: %s, %llu bytes",
		     strerror(errno), (unsigned long long)g.size);
	digest_add(g.size);
	digest_add(smaps_page_kb(p));
	printf("digest: huge1g %016llx\n", (unsigned long long)digest);
	munmap(p, PUD_SIZE);
	return failures != 0;
}

static const struct {
	const char *name;
	int (*run)(void);
} cases[] = {
	{ "place", case_place },
	{ "softdirty", case_softdirty },
	{ "uffd-wp", case_uffd_wp },
	{ "dirty", case_dirty },
	{ "migrate", case_migrate },
	{ "huge1g", case_huge1g },
};

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc == 2 && i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(argv[1], cases[i].name))
			continue;
		edge_open_gup_test();
		return cases[i].run();
	}
	fprintf(stderr, "usage: walk-edge place|softdirty|uffd-wp|dirty|migrate|huge1g\n");
	return 2;
}
