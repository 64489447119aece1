// SPDX-License-Identifier: GPL-2.0
/*
 * dumpwork: a process image of known content, for checking that core
 * dumps (get_dump_page(), i.e. __get_user_pages() with FOLL_DUMP) read
 * the same memory on two kernels.
 *
 *   dumpwork crash               build the mappings, then die of SIGABRT
 *   dumpwork digest CORE         hash and check what the core holds there
 *   dumpwork offset CORE VADDR   the file offset that holds VADDR
 *
 * crash maps, at fixed addresses (so that dumps from two kernels compare
 * by address), the mappings of plan[] below: 4 kB, 64 kB and 2 MB
 * anonymous folios, the zero page and the huge zero page, holes never
 * touched, pages dropped again, PROT_NONE and read-only pages, a memfd,
 * and gaps between them all. Every written page holds a pattern that is a
 * function of its address alone.
 *
 * digest prints, for each PT_LOAD segment of the fixed area, its address,
 * sizes, flags, an FNV-1a hash of its bytes and which of its pages the
 * kernel wrote and which it skipped (left as holes in the file), then
 * checks every page against the plan. Nothing in the output depends on
 * the pid, time or registers: two kernels that dump the same memory the
 * same way print the same lines, and `cmp` of the outputs is the test.
 *
 * Exit status: 0, 1 on a failed check or a bad core file, 2 on misuse;
 * crash only returns (1) if it could not build its mappings.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "folio_confirm.h"

#define PAGE		4096UL
#define KB		1024UL
#define MB		(1024 * KB)
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The fixed area: 96 TiB, far below where x86-64 puts the stack and
 * mmap()s (just under 128 TiB, randomized by at most 1 TiB or so) and far
 * above a static binary and its brk heap (4 MiB plus at most 32 MiB).
 * MAP_FIXED_NOREPLACE fails rather than clobber anything that is there.
 */
#define AREA_BASE	0x600000000000UL
#define AREA_SIZE	(16 * MB)
#define AREA_END	(AREA_BASE + AREA_SIZE)

/* Cap on printed failures; all of them are counted. */
#define MAX_FAIL_LINES	20

/* What crash does to a page before it dies. */
enum fill {
	F_NONE,		/* never touched */
	F_DATA,		/* written with the pattern */
	F_ZERO,		/* read only: maps the (huge) zero page */
	F_DROP,		/* written, then MADV_DONTNEED */
};

/* Its protection at the end: the mapping's, or changed by mprotect(). */
enum prot {
	PR_MAP,
	PR_NONE,
	PR_RO,
};

/*
 * Pages [first, first + nr) of a mapping; a later span overrides an
 * earlier one, and one with nr == 0 ends the list.
 */
struct span {
	unsigned int first, nr;
	enum fill fill;
	enum prot prot;
};

struct mapping {
	const char *name;
	unsigned long off, size;	/* offset in the area, bytes */
	unsigned long folio_kb;		/* anonymous folio size; 0: a memfd */
	int prot;			/* PROT_* of the whole mapping */
	const struct span *spans;	/* NULL: every page untouched */
};

struct page_plan {
	enum fill fill;
	enum prot prot;
};

/*
 * 4 kB folios: holes of untouched pages inside, zero-page reads, dropped
 * pages, and a PROT_NONE pair (one written before the mprotect(), one
 * never touched). The last page is a hole at the VMA end.
 */
static const struct span small_spans[] = {
	{ 0, 64, F_DATA, PR_MAP },
	{ 5, 3, F_NONE, PR_MAP },
	{ 20, 1, F_NONE, PR_MAP },
	{ 30, 2, F_ZERO, PR_MAP },
	{ 40, 2, F_DROP, PR_MAP },
	{ 50, 1, F_DATA, PR_NONE },
	{ 51, 1, F_NONE, PR_NONE },
	{ 63, 1, F_NONE, PR_MAP },
	{}
};

/*
 * 64 kB mTHP (16 pages a folio): an untouched folio-sized hole, a slot
 * with only a zero-page read in it, a page dropped out of a folio (a PTE
 * mapped large folio with a hole) and the first page of a folio made
 * PROT_NONE (one folio across two VMAs).
 */
static const struct span mthp_spans[] = {
	{ 0, 256, F_DATA, PR_MAP },
	{ 48, 16, F_NONE, PR_MAP },
	{ 112, 16, F_NONE, PR_MAP },
	{ 114, 1, F_ZERO, PR_MAP },
	{ 165, 1, F_DROP, PR_MAP },
	{ 192, 1, F_DATA, PR_NONE },
	{}
};

/*
 * A PMD-mapped 2 MB THP, then the 512 kB that the VMA has beyond it: too
 * little for a THP, so 4 kB pages, with holes and a zero-page read, in
 * the same VMA as the THP.
 */
static const struct span thp_tail_spans[] = {
	{ 0, 640, F_DATA, PR_MAP },
	{ 520, 10, F_NONE, PR_MAP },
	{ 600, 1, F_ZERO, PR_MAP },
	{ 639, 1, F_NONE, PR_MAP },
	{}
};

/*
 * A partially populated THP: written whole, then split into PTEs by a
 * PROT_NONE page and a read-only run (five VMAs over one folio), with
 * two ranges dropped out of it. The protections come before the drops,
 * so that at no time does one VMA hold a PTE-mapped 2 MB range that
 * khugepaged could collapse back (filling the holes).
 */
static const struct span thp_split_spans[] = {
	{ 0, 512, F_DATA, PR_MAP },
	{ 64, 64, F_DROP, PR_MAP },
	{ 256, 1, F_DATA, PR_NONE },
	{ 300, 8, F_DATA, PR_RO },
	{ 511, 1, F_DROP, PR_MAP },
	{}
};

/* A 2 MB range only read: the huge zero page, which dumps skip. */
static const struct span thp_zero_spans[] = {
	{ 0, 512, F_ZERO, PR_MAP },
	{}
};

/* Written, then made read-only whole: with a hole and a zero-page read. */
static const struct span ro_spans[] = {
	{ 0, 16, F_DATA, PR_MAP },
	{ 7, 1, F_NONE, PR_MAP },
	{ 12, 1, F_ZERO, PR_MAP },
	{}
};

/* A shared memfd (shmem): pages never written are holes in the file. */
static const struct span memfd_spans[] = {
	{ 0, 64, F_DATA, PR_MAP },
	{ 16, 16, F_NONE, PR_MAP },
	{ 63, 1, F_NONE, PR_MAP },
	{}
};

#define RW	(PROT_READ | PROT_WRITE)

/*
 * In address order, with a gap before each (no two VMAs can merge). No
 * mapping but the THP ones spans an aligned 2 MB range, so khugepaged,
 * which runs again once the knobs are restored, has nothing to collapse:
 * the THP ranges are PMD mapped or split over several VMAs.
 */
static const struct mapping plan[] = {
	{ "small-4k", 0x000000, 256 * KB, 4, RW, small_spans },
	{ "mthp-64k", 0x080000, 1 * MB, 64, RW, mthp_spans },
	{ "thp-tail", 0x200000, 2560 * KB, 2048, RW, thp_tail_spans },
	{ "thp-split", 0x600000, 2 * MB, 2048, RW, thp_split_spans },
	{ "thp-zero", 0xa00000, 2 * MB, 2048, RW, thp_zero_spans },
	{ "ro-4k", 0xe00000, 64 * KB, 4, PROT_READ, ro_spans },
	{ "memfd", 0xe20000, 256 * KB, 0, RW, memfd_spans },
	{ "untouched", 0xe80000, 64 * KB, 4, RW, NULL },
};

static unsigned long nr_pages(const struct mapping *m)
{
	return m->size / PAGE;
}

static unsigned long page_addr(const struct mapping *m, unsigned long i)
{
	return AREA_BASE + m->off + i * PAGE;
}

static struct page_plan page_plan(const struct mapping *m, unsigned long i)
{
	struct page_plan p = { F_NONE, PR_MAP };
	const struct span *s;

	for (s = m->spans; s && s->nr; s++) {
		if (i >= s->first && i < s->first + s->nr) {
			p.fill = s->fill;
			p.prot = s->prot;
		}
	}
	return p;
}

static int page_prot(const struct mapping *m, unsigned long i)
{
	switch (page_plan(m, i).prot) {
	case PR_NONE:
		return PROT_NONE;
	case PR_RO:
		return PROT_READ;
	default:
		return m->prot;
	}
}

/*
 * The content of a written page: each 64-bit word is its own address
 * times an odd constant, so every word of the area differs and a page
 * dumped at the wrong address, or a stale or shifted one, is caught.
 */
static uint64_t pattern(uint64_t addr)
{
	return addr * 0x9e3779b97f4a7c15ULL ^ 0x6b726f77706d7564ULL;
}

/* ---- crash ---- */

static int map_one(const struct mapping *m)
{
	void *want = (void *)(AREA_BASE + m->off), *p;
	int flags = MAP_FIXED_NOREPLACE, fd = -1;

	if (m->folio_kb) {
		flags |= MAP_PRIVATE | MAP_ANONYMOUS;
	} else {
		/* Unlinked shmem: dumped under coredump_filter bit 1. */
		fd = memfd_create("dumpwork", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, m->size))
			return -errno;
		flags |= MAP_SHARED;
	}
	p = mmap(want, m->size, RW, flags, fd, 0);
	if (fd >= 0)
		close(fd);
	if (p == MAP_FAILED)
		return -errno;
	/* Kernels before 4.17 take MAP_FIXED_NOREPLACE as a mere hint. */
	if (p != want) {
		munmap(p, m->size);
		return -EEXIST;
	}
	return 0;
}

static void write_page(unsigned long addr)
{
	uint64_t *w = (uint64_t *)addr;
	unsigned long i;

	for (i = 0; i < PAGE / sizeof(*w); i++)
		w[i] = pattern(addr + i * sizeof(*w));
}

/*
 * Fault every page as planned, in address order, with plain stores and
 * loads: not MADV_POPULATE_*, which is GUP, the code under test.
 */
static void fill_pages(const struct mapping *m)
{
	unsigned long i;

	for (i = 0; i < nr_pages(m); i++) {
		enum fill f = page_plan(m, i).fill;

		if (f == F_DATA || f == F_DROP)
			write_page(page_addr(m, i));
		else if (f == F_ZERO)
			(void)*(volatile char *)page_addr(m, i);
	}
}

/* The end of the run of pages from @i on that share @key's value. */
static unsigned long run_end(const struct mapping *m, unsigned long i,
			     int (*key)(const struct mapping *, unsigned long))
{
	unsigned long j = i + 1;

	while (j < nr_pages(m) && key(m, j) == key(m, i))
		j++;
	return j;
}

static int is_drop(const struct mapping *m, unsigned long i)
{
	return page_plan(m, i).fill == F_DROP;
}

/* mprotect() per run of one protection, then MADV_DONTNEED per drop run. */
static int finish_pages(const struct mapping *m)
{
	unsigned long i, j;

	for (i = 0; i < nr_pages(m); i = j) {
		j = run_end(m, i, page_prot);
		if (page_prot(m, i) != RW &&
		    mprotect((void *)page_addr(m, i), (j - i) * PAGE, page_prot(m, i)))
			return -errno;
	}
	for (i = 0; i < nr_pages(m); i = j) {
		j = run_end(m, i, is_drop);
		if (is_drop(m, i) &&
		    madvise((void *)page_addr(m, i), (j - i) * PAGE, MADV_DONTNEED))
			return -errno;
	}
	return 0;
}

/*
 * The folios of @m's size that its writes must have allocated: one per
 * folio-aligned slot inside the mapping with a written page in it. The
 * partial slots at the ends (thp-tail's last 512 kB) get 4 kB pages.
 */
static unsigned long long expected_folios(const struct mapping *m)
{
	unsigned long per = m->folio_kb * KB / PAGE, slot, i;
	unsigned long long n = 0;

	if (m->folio_kb <= 4)
		return 0;
	for (slot = 0; (slot + 1) * per <= nr_pages(m); slot++) {
		for (i = slot * per; i < (slot + 1) * per; i++) {
			enum fill f = page_plan(m, i).fill;

			if (f == F_DATA || f == F_DROP) {
				n++;
				break;
			}
		}
	}
	return n;
}

/*
 * One mapping: choose its folio size, fault it in, confirm from
 * anon_fault_alloc (and no fallback, no other size) that the writes got
 * that size, then protect and drop. 4 kB is "every size off"; the memfd
 * is shmem and takes no anonymous folio.
 */
static int build_one(const struct mapping *m, struct folio_sizes *fs)
{
	int err = 0;

	if (m->folio_kb) {
		err = folio_select(fs, m->folio_kb);
		if (!err)
			err = folio_snapshot(fs);
	}
	if (!err)
		err = map_one(m);
	if (err) {
		fprintf(stderr, "dumpwork: %s at %#lx: %s\n", m->name,
			AREA_BASE + m->off, strerror(-err));
		return err;
	}
	fill_pages(m);
	if (m->folio_kb && folio_confirm(fs, m->folio_kb, expected_folios(m))) {
		fprintf(stderr, "dumpwork: %s: folio size %lukB not confirmed\n",
			m->name, m->folio_kb);
		return -EAGAIN;
	}
	err = finish_pages(m);
	if (err)
		fprintf(stderr, "dumpwork: %s: mprotect/madvise: %s\n", m->name,
			strerror(-err));
	else
		printf("dumpwork: %s built at %#lx, %lu pages\n", m->name,
		       AREA_BASE + m->off, nr_pages(m));
	return err;
}

/*
 * What the dump takes is set here rather than inherited: bits 0 and 1
 * (anonymous private and shared memory) cover the area; 4 and 5 (ELF
 * headers, private hugetlb) are the kernel's other defaults and only
 * matter outside it. The soft core limit goes up to the hard one, so a
 * caller that forgot `ulimit -c` still gets a core if it may.
 */
static int prepare_dump(void)
{
	FILE *f = fopen("/proc/self/coredump_filter", "w");
	struct rlimit rl;
	int err;

	err = !f || fputs("0x33", f) < 0;
	if (f && fclose(f))
		err = 1;
	if (err) {
		fprintf(stderr, "dumpwork: cannot set coredump_filter: %s\n",
			strerror(errno));
		return -1;
	}
	if (getrlimit(RLIMIT_CORE, &rl) == 0 && rl.rlim_cur != rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_CORE, &rl);
	}
	return 0;
}

/*
 * thp-zero must get the huge zero page, which dumps skip; with the knob
 * off its read fault would allocate a THP of zeros, which they write.
 */
static int check_huge_zero(void)
{
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/use_zero_page", "r");
	int on = 0;

	if (f) {
		if (fscanf(f, "%d", &on) != 1)
			on = 0;
		fclose(f);
	}
	if (on == 1)
		return 0;
	fprintf(stderr, "dumpwork: transparent_hugepage/use_zero_page is not 1\n");
	return -1;
}

static int cmd_crash(void)
{
	struct folio_sizes fs;
	unsigned int i;
	int err;

	if (check_huge_zero())
		return 1;
	err = folio_discover(&fs, false);
	if (err) {
		fprintf(stderr, "dumpwork: no THP knobs: %s\n", strerror(-err));
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(plan) && !err; i++)
		err = build_one(&plan[i], &fs);
	/* The knobs go back before the dump, whichever way it went. */
	folio_restore(&fs);
	if (err || prepare_dump())
		return 1;
	printf("dumpwork: %zu mappings built at %#lx; aborting for a core dump\n",
	       ARRAY_SIZE(plan), AREA_BASE);
	fflush(stdout);
	abort();
}

/* ---- reading the core ---- */

/*
 * The core is read with pread(), never mapped: a read fault on a tmpfs
 * hole allocates a page there, which would turn the very holes the
 * digest reports into data (read() of a hole copies the zero page).
 */
struct core {
	const char *path;
	int fd;
	size_t size;
	Elf64_Ehdr eh;
	unsigned long phnum;
	Elf64_Phdr *ph;
	bool sparse;		/* the file system keeps holes */
};

static int core_err(const struct core *c, const char *what)
{
	fprintf(stderr, "dumpwork: %s: %s\n", c->path, what);
	return -1;
}

/* Is [off, off + len) inside the file? Written not to overflow. */
static bool in_file(const struct core *c, uint64_t off, uint64_t len)
{
	return off <= c->size && len <= c->size - off;
}

/* @len bytes from @off, which in_file() has vouched for. */
static int core_read(const struct core *c, uint64_t off, void *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = pread(c->fd, buf, len, off);
		if (n <= 0)
			return core_err(c, n ? strerror(errno) : "file shrank while read");
		buf = (char *)buf + n;
		off += n;
		len -= n;
	}
	return 0;
}

/* The program header count: from PN_XNUM on, in section header 0. */
static int core_phnum(struct core *c)
{
	Elf64_Shdr sh;

	c->phnum = c->eh.e_phnum;
	if (c->eh.e_phnum != PN_XNUM)
		return 0;
	if (c->eh.e_shentsize != sizeof(sh) || !c->eh.e_shoff ||
	    !in_file(c, c->eh.e_shoff, sizeof(sh)))
		return core_err(c, "PN_XNUM without a section header 0");
	if (core_read(c, c->eh.e_shoff, &sh, sizeof(sh)))
		return -1;
	c->phnum = sh.sh_info;
	return 0;
}

static int core_check_header(struct core *c)
{
	const unsigned char *id = c->eh.e_ident;

	if (core_read(c, 0, &c->eh, sizeof(c->eh)))
		return -1;
	if (memcmp(id, ELFMAG, SELFMAG))
		return core_err(c, "not an ELF file");
	if (id[EI_CLASS] != ELFCLASS64 || id[EI_DATA] != ELFDATA2LSB ||
	    id[EI_VERSION] != EV_CURRENT)
		return core_err(c, "not a 64-bit little-endian ELF file");
	if (c->eh.e_type != ET_CORE)
		return core_err(c, "an ELF file, but not a core dump");
	if (c->eh.e_phentsize != sizeof(Elf64_Phdr))
		return core_err(c, "unexpected program header size");
	if (core_phnum(c))
		return -1;
	if (!c->phnum || c->phnum > c->size / sizeof(Elf64_Phdr) ||
	    !in_file(c, c->eh.e_phoff, c->phnum * sizeof(Elf64_Phdr)))
		return core_err(c, "program headers missing or truncated");
	c->ph = calloc(c->phnum, sizeof(*c->ph));
	if (!c->ph)
		return core_err(c, strerror(errno));
	return core_read(c, c->eh.e_phoff, c->ph, c->phnum * sizeof(*c->ph));
}

/* Every PT_LOAD's file part must be there: a truncated dump is refused. */
static int core_check_loads(const struct core *c)
{
	const Elf64_Phdr *ph;

	for (ph = c->ph; ph < c->ph + c->phnum; ph++) {
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_filesz > ph->p_memsz)
			return core_err(c, "PT_LOAD with filesz > memsz");
		if (!in_file(c, ph->p_offset, ph->p_filesz))
			return core_err(c, "truncated (a PT_LOAD runs past the end of the file)");
	}
	return 0;
}

/*
 * A hole anywhere means the file system keeps them, and then a page the
 * kernel skipped (get_dump_page() returned NULL) reads as a hole, and a
 * page it wrote as data, even all zeros. Every real dumpwork core has
 * skipped pages; a file system that keeps no holes shows none.
 */
static bool core_sparse(const struct core *c)
{
	off_t hole = lseek(c->fd, 0, SEEK_HOLE);

	return hole >= 0 && (size_t)hole < c->size;
}

static int core_open(struct core *c, const char *path)
{
	struct stat st;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (c->fd < 0 || fstat(c->fd, &st))
		return core_err(c, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return core_err(c, "not a regular file");
	if ((size_t)st.st_size < sizeof(Elf64_Ehdr))
		return core_err(c, "not an ELF file (too short)");
	c->size = st.st_size;
	if (core_check_header(c) || core_check_loads(c))
		return -1;
	c->sparse = core_sparse(c);
	return 0;
}

/* Did the kernel write the page at file offset @off, or skip it? */
static bool core_has_data(const struct core *c, uint64_t off)
{
	return lseek(c->fd, off, SEEK_DATA) == (off_t)off;
}

/* ---- digest ---- */

/* A VMA the plan makes: a run of one protection in one mapping. */
struct want {
	const struct mapping *m;
	unsigned long first;		/* its first page in the mapping */
	uint64_t vaddr, memsz, filesz;
	uint32_t flags;
	bool seen;
};

#define MAX_WANT	64

struct digest {
	struct core core;
	struct want want[MAX_WANT];
	unsigned int nr_want;
	unsigned long pages;
	unsigned int segs, fails;
};

/*
 * Is the mapping in the dump at all? Anonymous private memory is dumped
 * only with an anon_vma, which writes (and THP read faults) prepare; the
 * plan has no mapping only read at 4 kB, which would have none. Shared
 * shmem is always dumped.
 */
static bool mapping_dumped(const struct mapping *m)
{
	unsigned long i;

	if (!m->folio_kb)
		return true;
	for (i = 0; i < nr_pages(m); i++)
		if (page_plan(m, i).fill != F_NONE)
			return true;
	return false;
}

static uint32_t prot_flags(int prot)
{
	return (prot & PROT_READ ? PF_R : 0) | (prot & PROT_WRITE ? PF_W : 0) |
	       (prot & PROT_EXEC ? PF_X : 0);
}

static void plan_wants(struct digest *d)
{
	const struct mapping *m;
	unsigned long i, j;

	for (m = plan; m < plan + ARRAY_SIZE(plan); m++) {
		for (i = 0; i < nr_pages(m) && d->nr_want < MAX_WANT; i = j) {
			struct want *w = &d->want[d->nr_want++];

			j = run_end(m, i, page_prot);
			w->m = m;
			w->first = i;
			w->vaddr = page_addr(m, i);
			w->memsz = (j - i) * PAGE;
			w->filesz = mapping_dumped(m) ? w->memsz : 0;
			w->flags = prot_flags(page_prot(m, i));
			w->seen = false;
		}
	}
}

#define __printf(a, b)	__attribute__((format(printf, a, b)))

static __printf(2, 3) void fail(struct digest *d, const char *fmt, ...)
{
	va_list ap;

	if (d->fails++ >= MAX_FAIL_LINES)
		return;
	va_start(ap, fmt);
	fputs("FAIL ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
}

/*
 * FNV-1a, 64 bits: the dumps are compared for accidental differences,
 * not against an adversary, so a fast non-cryptographic hash suffices
 * (a random change collides with odds of 2^-64), and the page checks
 * below see every byte exactly anyway.
 */
#define FNV1A_BASIS	0xcbf29ce484222325ULL

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t len)
{
	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* The hash of a segment's bytes in the file, holes read as zeros. */
static int seg_hash(const struct core *c, const Elf64_Phdr *ph, uint64_t *h)
{
	unsigned char buf[PAGE];
	uint64_t off;
	size_t len;

	*h = FNV1A_BASIS;
	for (off = 0; off < ph->p_filesz; off += len) {
		len = ph->p_filesz - off < PAGE ? ph->p_filesz - off : PAGE;
		if (core_read(c, ph->p_offset + off, buf, len))
			return -1;
		*h = fnv1a(*h, buf, len);
	}
	return 0;
}

/* "12d 3h 49d": runs of pages the kernel wrote (d) and skipped (h). */
static void print_map(const struct core *c, const Elf64_Phdr *ph)
{
	uint64_t off, run = 0;
	bool cur = false, data;

	printf("  map");
	for (off = 0; off < ph->p_filesz; off += PAGE) {
		data = core_has_data(c, ph->p_offset + off);
		if (run && data != cur) {
			printf(" %" PRIu64 "%c", run, cur ? 'd' : 'h');
			run = 0;
		}
		cur = data;
		run++;
	}
	if (run)
		printf(" %" PRIu64 "%c", run, cur ? 'd' : 'h');
	printf("\n");
}

static void print_seg(struct digest *d, const Elf64_Phdr *ph,
		      const struct want *w)
{
	const struct core *c = &d->core;
	uint64_t h;

	if (seg_hash(c, ph, &h)) {
		fail(d, "segment %#" PRIx64 " cannot be read", ph->p_vaddr);
		return;
	}
	printf("load %#" PRIx64 " memsz %#" PRIx64 " filesz %#" PRIx64
	       " flags %c%c%c fnv1a %016" PRIx64 " %s\n",
	       ph->p_vaddr, ph->p_memsz, ph->p_filesz,
	       ph->p_flags & PF_R ? 'r' : '-', ph->p_flags & PF_W ? 'w' : '-',
	       ph->p_flags & PF_X ? 'x' : '-', h, w ? w->m->name : "?");
	if (c->sparse && ph->p_filesz)
		print_map(c, ph);
}

static struct want *find_want(struct digest *d, uint64_t vaddr)
{
	unsigned int i;

	for (i = 0; i < d->nr_want; i++)
		if (d->want[i].vaddr == vaddr)
			return &d->want[i];
	return NULL;
}

/*
 * One page against the plan, as 6.12 dumps it (seen on base and batched):
 *
 * - written: the pattern, written out. PROT_NONE pages too: FOLL_FORCE
 *   lets GUP read a VMA without VM_READ that has VM_MAYREAD, and it
 *   follows PROT_NONE PTEs unless asked for FOLL_HONOR_NUMA_FAULT.
 * - never touched, dropped (MADV_DONTNEED), or the zero page or huge
 *   zero page (read only): zeros, as a hole. FOLL_DUMP makes GUP return
 *   -EFAULT for an empty anonymous PTE and for the zero pages, and
 *   get_dump_page() then skips the page. That holds for a PROT_NONE
 *   page never touched too.
 * - a memfd's page never touched: zeros, written out. For a VMA with a
 *   ->fault handler FOLL_DUMP does not refuse the empty PTE; GUP faults
 *   the page in (shmem allocates it) and the dump writes it.
 */
static void check_page(struct digest *d, const struct want *w,
		       const Elf64_Phdr *ph, unsigned long idx)
{
	const struct mapping *m = w->m;
	unsigned long pg = w->first + idx;
	uint64_t addr = page_addr(m, pg), off = ph->p_offset + idx * PAGE;
	enum fill f = page_plan(m, pg).fill;
	bool want_data = f == F_DATA || (f == F_NONE && !m->folio_kb);
	uint64_t got[PAGE / sizeof(uint64_t)], expect;
	unsigned long i;

	d->pages++;
	if (core_read(&d->core, off, got, PAGE)) {
		fail(d, "%s page %lu (%#" PRIx64 ") cannot be read", m->name, pg, addr);
		return;
	}
	for (i = 0; i < PAGE / sizeof(*got); i++) {
		expect = f == F_DATA ? pattern(addr + i * sizeof(*got)) : 0;
		if (got[i] != expect) {
			fail(d, "%s page %lu (%#" PRIx64 ") +%#lx: %#" PRIx64 ", want %#" PRIx64,
			     m->name, pg, addr, i * sizeof(*got), got[i], expect);
			return;
		}
	}
	if (d->core.sparse && core_has_data(&d->core, off) != want_data)
		fail(d, "%s page %lu (%#" PRIx64 "): dumped as %s, want %s",
		     m->name, pg, addr, want_data ? "a hole" : "data",
		     want_data ? "data" : "a hole");
}

/* A segment must be one the plan makes, with the sizes and flags it says. */
static void check_seg(struct digest *d, const Elf64_Phdr *ph, struct want *w)
{
	unsigned long i;

	if (!w) {
		fail(d, "segment %#" PRIx64 " is not one crash made", ph->p_vaddr);
		return;
	}
	w->seen = true;
	if (ph->p_memsz != w->memsz || ph->p_filesz != w->filesz ||
	    ph->p_flags != w->flags) {
		fail(d, "segment %#" PRIx64 " (%s): memsz %#" PRIx64 " filesz %#" PRIx64
		     " flags %#x, want %#" PRIx64 " %#" PRIx64 " %#x",
		     ph->p_vaddr, w->m->name, ph->p_memsz, ph->p_filesz, ph->p_flags,
		     w->memsz, w->filesz, w->flags);
		return;
	}
	/* The kernel page-aligns the data; the page checks rely on it. */
	if (ph->p_offset % PAGE) {
		fail(d, "segment %#" PRIx64 " (%s): file offset not page aligned",
		     ph->p_vaddr, w->m->name);
		return;
	}
	for (i = 0; i < ph->p_filesz / PAGE; i++)
		check_page(d, w, ph, i);
}

static void digest_segments(struct digest *d)
{
	const struct core *c = &d->core;
	const Elf64_Phdr *ph;
	unsigned int i;

	for (ph = c->ph; ph < c->ph + c->phnum; ph++) {
		if (ph->p_type != PT_LOAD || ph->p_vaddr >= AREA_END ||
		    ph->p_vaddr + ph->p_memsz <= AREA_BASE)
			continue;
		d->segs++;
		print_seg(d, ph, find_want(d, ph->p_vaddr));
		if (ph->p_vaddr < AREA_BASE || ph->p_vaddr + ph->p_memsz > AREA_END)
			fail(d, "segment %#" PRIx64 " straddles the area's edge", ph->p_vaddr);
		else
			check_seg(d, ph, find_want(d, ph->p_vaddr));
	}
	for (i = 0; i < d->nr_want; i++)
		if (!d->want[i].seen)
			fail(d, "no segment at %#" PRIx64 " (%s)", d->want[i].vaddr,
			     d->want[i].m->name);
}

static int cmd_digest(const char *path)
{
	static struct digest d;

	if (core_open(&d.core, path))
		return 1;
	plan_wants(&d);
	printf("dumpwork digest: area %#lx-%#lx, holes %s\n", AREA_BASE, AREA_END,
	       d.core.sparse ? "kept" : "not kept by this file system (not checked)");
	digest_segments(&d);
	if (d.fails > MAX_FAIL_LINES)
		printf("FAIL ... and %u more\n", d.fails - MAX_FAIL_LINES);
	printf("digest: %u segments, %lu pages checked, %u failed\n", d.segs,
	       d.pages, d.fails);
	return d.fails ? 1 : 0;
}

/* For tests that corrupt a copy: where in the file a dumped byte is. */
static int cmd_offset(const char *path, const char *addr_s)
{
	const Elf64_Phdr *ph;
	struct core c;
	uint64_t addr;
	char *end;

	addr = strtoull(addr_s, &end, 0);
	if (end == addr_s || *end) {
		fprintf(stderr, "dumpwork: bad address '%s'\n", addr_s);
		return 2;
	}
	if (core_open(&c, path))
		return 1;
	for (ph = c.ph; ph < c.ph + c.phnum; ph++) {
		if (ph->p_type == PT_LOAD && addr >= ph->p_vaddr &&
		    addr - ph->p_vaddr < ph->p_filesz) {
			printf("%" PRIu64 "\n", ph->p_offset + (addr - ph->p_vaddr));
			return 0;
		}
	}
	fprintf(stderr, "dumpwork: %s: %#" PRIx64 " is not in the file\n", path, addr);
	return 1;
}

static int print_usage(void)
{
	fputs("usage: dumpwork crash\n"
	      "       dumpwork digest CORE\n"
	      "       dumpwork offset CORE VADDR\n", stderr);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "crash"))
		return cmd_crash();
	if (argc == 3 && !strcmp(argv[1], "digest"))
		return cmd_digest(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "offset"))
		return cmd_offset(argv[2], argv[3]);
	return print_usage();
}
