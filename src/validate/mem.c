// SPDX-License-Identifier: GPL-2.0
/*
 * The memory gupstat validate pins: an anonymous range populated with one
 * folio size, chosen through the per-size THP settings ("madvise" for that
 * size alone, kernel/folio.c) and MADV_HUGEPAGE, and confirmed from the
 * page flags (kernel/pagemap.c) before anything is measured. And the
 * buffer that evicts the caches between pin and unpin in the cold runs.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "kernel/pagemap.h"
#include "util/msg.h"
#include "validate/mem.h"

#define PMD_BYTES		(2UL << 20)
#define CACHE_LINE		64

/* The kernel's pages: 4 kB on x86, 4 or 64 kB on arm64. */
static size_t page_bytes(void)
{
	return sysconf(_SC_PAGESIZE);
}

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return -errno;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int thp_save(struct folio_sizes *fs)
{
	int err = folio_discover(fs, false);

	if (err == -ENOENT) {
		p_err("cannot open %s: %s (no transparent huge pages?)\n",
		      FOLIO_THP_DIR, strerror(-err));
		return err;
	}
	if (err) {
		p_err("cannot read the THP settings under %s: %s\n", FOLIO_THP_DIR, strerror(-err));
		return err;
	}
	/* Only the range validate populates, with MADV_HUGEPAGE. */
	fs->madvise = true;
	return 0;
}

/*
 * Only folio size F (none for 4k) may be used, and only where asked: a
 * size needs its own knob. Before mTHP (one switch, no per-size knobs)
 * 4k runs leave the switch alone, as MADV_NOHUGEPAGE keeps their range
 * small, and no other size is offered.
 */
int thp_select(struct folio_sizes *fs, enum v_folio f)
{
	unsigned long kb = v_folio_bytes(f) >> 10;
	int err;

	if (v_folio_bytes(f) < page_bytes()) {
		p_err("this kernel's pages are %zu kB: no %s folios\n", page_bytes() >> 10,
		      v_folio_names[f]);
		return -ENOENT;
	}
	if (f == VF_4K && fs->legacy)
		return 0;
	if (f != VF_4K && !folio_has_size(fs, kb)) {
		p_err("this kernel has no %s folios for anonymous memory (no %s/hugepages-%lukB)\n",
		      v_folio_names[f], FOLIO_THP_DIR, kb);
		return -ENOENT;
	}
	err = folio_select(fs, f == VF_4K ? folio_base_kb() : kb);
	if (err)
		p_err("cannot write the THP settings under %s: %s\n", FOLIO_THP_DIR, strerror(-err));
	return err;
}

/*
 * Map LEN bytes, PMD aligned so that 2 MB folios fit, ask for huge pages
 * (or forbid them), and write every page: a write fault allocates the
 * folio, and distinct bytes keep the pages from being merged.
 */
int region_populate(struct v_region *r, size_t len, enum v_folio f)
{
	size_t i, page = page_bytes();

	memset(r, 0, sizeof(*r));
	r->map_len = len + PMD_BYTES;
	r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r->map == MAP_FAILED) {
		r->map = NULL;
		p_err("cannot map %zu MB: %s\n", len >> 20, strerror(errno));
		return -ENOMEM;
	}
	r->addr = (char *)(((uintptr_t)r->map + PMD_BYTES - 1) & ~(PMD_BYTES - 1));
	r->len = len;
	if (madvise(r->addr, len, f == VF_4K ? MADV_NOHUGEPAGE : MADV_HUGEPAGE)) {
		p_err("madvise: %s\n", strerror(errno));
		return -errno;
	}
	for (i = 0; i < len; i += page)
		r->addr[i] = (char)(i / page % 255 + 1);
	return 0;
}

void region_free(struct v_region *r)
{
	if (r->map)
		munmap(r->map, r->map_len);
	memset(r, 0, sizeof(*r));
}

static int layout_open(struct pagemap_reader *r)
{
	int err = pagemap_open(r);

	if (err)
		p_err("cannot read %s: %s (the folio size must be checked before measuring)\n",
		      r->pagemap < 0 ? "/proc/self/pagemap" : "/proc/kpageflags", strerror(-err));
	return err ? -ENOENT : 0;
}

/*
 * Count pages and folios (pages that are not a compound tail) from the
 * page flags, and check that every folio is of size F: a head followed by
 * tails at consecutive pfns, or a lone small page for 4k.
 */
int region_layout(const struct v_region *r, enum v_folio f,
		  unsigned long *pages, unsigned long *folios)
{
	size_t page = page_bytes();
	unsigned long want = v_folio_bytes(f) / page, run = 0, bad = 0, i, n = r->len / page;
	uint64_t flags, pfn = 0, prev_pfn = 0;
	struct pagemap_reader pm;
	int err;

	err = layout_open(&pm);
	if (err)
		return err;
	*folios = 0;
	for (i = 0; i < n; i++) {
		pfn = pagemap_read_pfn(&pm, r->addr + i * page);
		if (!pfn || pagemap_read_flags(&pm, pfn, &flags))
			break;
		if (pagemap_flag(flags, KPF_COMPOUND_TAIL) && run && pfn == prev_pfn + 1) {
			run++;
		} else {
			bad += run && run != want;
			run = 1;
			(*folios)++;
			bad += pagemap_flag(flags, KPF_COMPOUND_TAIL);
		}
		prev_pfn = pfn;
	}
	bad += run && run != want;
	pagemap_close(&pm);
	*pages = i;
	if (i < n) {
		p_err("page %lu of the range is not mapped or shows no pfn\n", i);
		return -EIO;
	}
	if (bad) {
		p_err("%lu of %lu folios are not %s (%s)\n", bad, *folios,
		      v_folio_names[f], f == VF_4K ? "huge pages despite MADV_NOHUGEPAGE?" :
		      "too little free contiguous memory?");
		return -EAGAIN;
	}
	return 0;
}

static char *evict_buf;
static size_t evict_len;
static volatile unsigned long evict_sink;

/* Four times the largest cache sysfs reports, and never under 256 MB: a
 * guest is told a made-up hierarchy, and the host's is what counts. */
unsigned long evict_default_bytes(void)
{
	unsigned long best = 0, v;
	char path[128], line[64], *end;
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (read_line(path, line, sizeof(line)))
			continue;
		v = strtoul(line, &end, 10);
		if (*end == 'K')
			v <<= 10;
		else if (*end == 'M')
			v <<= 20;
		if (v > best)
			best = v;
	}
	return best * 4 > (256UL << 20) ? best * 4 : 256UL << 20;
}

int evict_setup(size_t bytes)
{
	evict_len = bytes;
	evict_buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (evict_buf == MAP_FAILED) {
		evict_buf = NULL;
		p_err("cannot map the %zu MB eviction buffer: %s\n",
		      bytes >> 20, strerror(errno));
		return -ENOMEM;
	}
	memset(evict_buf, 1, bytes);
	return 0;
}

/* Read one word per cache line: reads leave no dirty lines to write back
 * inside the timed unpin. */
void evict_caches(void)
{
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i < evict_len; i += CACHE_LINE)
		sum += *(volatile unsigned long *)(evict_buf + i);
	evict_sink = sum;
}

void evict_free(void)
{
	if (evict_buf)
		munmap(evict_buf, evict_len);
	evict_buf = NULL;
}
