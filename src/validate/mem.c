// SPDX-License-Identifier: GPL-2.0
/*
 * The memory gupstat validate pins: an anonymous range populated with one
 * folio size, chosen through the per-size THP settings and MADV_HUGEPAGE,
 * and confirmed from the page flags before anything is measured. And the
 * buffer that evicts the caches between pin and unpin in the cold runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "validate/mem.h"
#include "util/msg.h"

#define PM_PRESENT		(1ULL << 63)
#define PM_PFN_MASK		((1ULL << 55) - 1)
#define KPF_COMPOUND_HEAD	15
#define KPF_COMPOUND_TAIL	16
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

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		err = -errno;
	close(fd);
	return err;
}

/* "always inherit madvise [never]" -> "never" */
static int selected_mode(const char *line, char *mode, size_t len)
{
	const char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;

	if (!close || (size_t)(close - open - 1) >= len)
		return -EINVAL;
	memcpy(mode, open + 1, close - open - 1);
	mode[close - open - 1] = 0;
	return 0;
}

static int size_path(char *buf, size_t len, const char *name)
{
	return snprintf(buf, len, THP_SYSFS "/%s/enabled", name) >= (int)len ? -ENAMETOOLONG : 0;
}

int thp_save(struct thp_saved *s)
{
	char path[256], line[128];
	struct dirent *d;
	DIR *dir = opendir(THP_SYSFS);

	s->nr = 0;
	if (!dir) {
		p_err("cannot open %s: %s (no transparent huge pages?)\n",
		      THP_SYSFS, strerror(errno));
		return -ENOENT;
	}
	while ((d = readdir(dir)) && s->nr < THP_MAX_SIZES) {
		if (strncmp(d->d_name, "hugepages-", 10) ||
		    strlen(d->d_name) >= sizeof(s->names[0]))
			continue;
		if (size_path(path, sizeof(path), d->d_name) || read_line(path, line, sizeof(line)) ||
		    selected_mode(line, s->modes[s->nr], sizeof(s->modes[0])))
			continue;
		strcpy(s->names[s->nr++], d->d_name);
	}
	closedir(dir);
	return 0;
}

void thp_restore(const struct thp_saved *s)
{
	char path[256];
	int i;

	for (i = 0; i < s->nr; i++)
		if (!size_path(path, sizeof(path), s->names[i]))
			write_str(path, s->modes[i]);
}

/* Only folio size F (none for 4k) may be used, and only where asked. */
int thp_select(const struct thp_saved *s, enum v_folio f)
{
	char want[32], path[256];
	bool found = f == VF_4K;
	int i, err;

	if (v_folio_bytes(f) < page_bytes()) {
		p_err("this kernel's pages are %zu kB: no %s folios\n", page_bytes() >> 10,
		      v_folio_names[f]);
		return -ENOENT;
	}
	snprintf(want, sizeof(want), "hugepages-%lukB", v_folio_bytes(f) >> 10);
	for (i = 0; i < s->nr; i++) {
		bool it = !strcmp(s->names[i], want);

		found |= it;
		if (size_path(path, sizeof(path), s->names[i]))
			continue;
		err = write_str(path, it ? "madvise" : "never");
		if (err) {
			p_err("cannot write %s: %s\n", path, strerror(-err));
			return err;
		}
	}
	if (!found) {
		p_err("this kernel has no %s folios for anonymous memory (no %s/%s)\n",
		      v_folio_names[f], THP_SYSFS, want);
		return -ENOENT;
	}
	return 0;
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

static int pread_u64(int fd, uint64_t idx, uint64_t *v)
{
	return pread(fd, v, sizeof(*v), idx * sizeof(*v)) == sizeof(*v) ? 0 : -EIO;
}

static int layout_open(int *pm, int *kpf)
{
	*pm = open("/proc/self/pagemap", O_RDONLY);
	*kpf = open("/proc/kpageflags", O_RDONLY);
	if (*pm >= 0 && *kpf >= 0)
		return 0;
	p_err("cannot read %s: %s (the folio size must be checked before measuring)\n",
	      *pm < 0 ? "/proc/self/pagemap" : "/proc/kpageflags", strerror(errno));
	if (*pm >= 0)
		close(*pm);
	if (*kpf >= 0)
		close(*kpf);
	return -ENOENT;
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
	uint64_t pm, flags, pfn = 0, prev_pfn = 0;
	int pmfd, kpf, err = 0;

	err = layout_open(&pmfd, &kpf);
	if (err)
		return err;
	*folios = 0;
	for (i = 0; i < n && !err; i++) {
		err = pread_u64(pmfd, (uintptr_t)(r->addr + i * page) / page, &pm);
		if (err || !(pm & PM_PRESENT) || !(pfn = pm & PM_PFN_MASK))
			break;
		err = pread_u64(kpf, pfn, &flags);
		if (err)
			break;
		if (flags & (1ULL << KPF_COMPOUND_TAIL) && run && pfn == prev_pfn + 1) {
			run++;
		} else {
			bad += run && run != want;
			run = 1;
			(*folios)++;
			bad += !!(flags & (1ULL << KPF_COMPOUND_TAIL));
		}
		prev_pfn = pfn;
	}
	bad += run && run != want;
	close(pmfd);
	close(kpf);
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
