// SPDX-License-Identifier: GPL-2.0
/*
 * gupwork: drive the get_user_pages() slow path over a region of known
 * size and folio size, without CONFIG_GUP_TEST.
 *
 *   gupwork [--folio 4k|64k|2m] [--size MB] [--wait] [--shared] [--for SEC] MODE
 *   MODE: readv | populate-read | populate-write | exec -- CMD [ARG]...
 *
 * readv, populate-*: map and fault in SIZE MB, confirm the folio size from
 * anon_fault_alloc, then look every page up once through GUP:
 * process_vm_readv() on ourselves (pin_user_pages_remote()) or
 * MADV_POPULATE_READ/WRITE (GUP without a pages array).
 * exec: set the folio size, run CMD (e.g. gup_test), then confirm that it
 * faulted in SIZE MB of that folio size.
 *
 * --shared: the region is anonymous shared memory (shmem, folio size from
 * the shmem_enabled knobs and confirmed from shmem_alloc), made PROT_READ
 * once written, so that readv pins read-only PTEs of folios that are not
 * anonymous. Not for exec or populate-write.
 *
 * --for SEC: repeat the GUP step until SEC seconds have passed (one
 * process, one fault-in: a latency measurement sees the GUP alone).
 *
 * --wait: once the region is ready, print "gupwork: ready pid N" and wait
 * for SIGUSR1, so a tracer attached with -p N sees the GUP calls alone
 * (exec itself walks the new stack's argument pages through GUP).
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "folio_confirm.h"

#define MB		(1UL << 20)
/* The marks' stride: the smallest page of any kernel here (arm64 has 64 kB too). */
#define PAGE		4096UL
#define READV_CHUNK	(4 * MB)

struct work {
	unsigned long folio_kb;
	unsigned long size;
	bool wait;
	bool shared;
	unsigned long for_s;
	struct folio_sizes fs;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* A region aligned to 2 MB so every folio size can map it fully. */
static char *map_region(unsigned long size, bool shared)
{
	unsigned long align = 2 * MB;
	char *p = mmap(NULL, size + align, PROT_READ | PROT_WRITE,
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	char *start;

	if (p == MAP_FAILED)
		return NULL;
	start = (char *)(((unsigned long)p + align - 1) & ~(align - 1));
	if (start > p)
		munmap(p, start - p);
	munmap(start + size, p + align - start);
	return start;
}

static char *prepare_region(struct work *w)
{
	unsigned long off;
	char *region;
	int err;

	err = folio_snapshot(&w->fs);
	region = err ? NULL : map_region(w->size, w->shared);
	if (!region) {
		fprintf(stderr, "gupwork: cannot map %lu MB: %s\n", w->size / MB,
			strerror(err ? -err : errno));
		return NULL;
	}
	for (off = 0; off < w->size; off += PAGE)
		region[off] = (char)off | 1;
	if (folio_confirm(&w->fs, w->folio_kb, w->size / (w->folio_kb * 1024))) {
		fprintf(stderr, "gupwork: folio size %lukB not confirmed; no numbers taken\n",
			w->folio_kb);
		return NULL;
	}
	if (w->shared && mprotect(region, w->size, PROT_READ)) {
		fprintf(stderr, "gupwork: mprotect(PROT_READ): %s\n", strerror(errno));
		return NULL;
	}
	return region;
}

/* Every page of a chunk read at @off carries its own offset's mark. */
static bool chunk_ok(const char *buf, unsigned long off)
{
	unsigned long p;

	for (p = 0; p < READV_CHUNK; p += PAGE)
		if (buf[p] != ((char)(off + p) | 1))
			return false;
	return true;
}

/* pin_user_pages_remote() on ourselves, READV_CHUNK bytes per call. */
static int do_readv(char *region, unsigned long size, unsigned long *calls)
{
	char *buf = malloc(READV_CHUNK);
	unsigned long off;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (off = 0; off < size; off += READV_CHUNK) {
		struct iovec local = { buf, READV_CHUNK };
		struct iovec remote = { region + off, READV_CHUNK };

		n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
		if (n != READV_CHUNK || !chunk_ok(buf, off)) {
			fprintf(stderr, "gupwork: process_vm_readv at +%lu: %s\n", off,
				n < 0 ? strerror(errno) : "short or wrong data");
			free(buf);
			return -EIO;
		}
		(*calls)++;
	}
	free(buf);
	return 0;
}

static int do_populate(char *region, unsigned long size, int advice,
		       unsigned long *calls)
{
	*calls = 1;
	if (!madvise(region, size, advice))
		return 0;
	fprintf(stderr, "gupwork: madvise(MADV_POPULATE_%s): %s\n",
		advice == MADV_POPULATE_READ ? "READ" : "WRITE", strerror(errno));
	return -errno;
}

/*
 * kB of the region mapped by PMDs, from /proc/self/smaps: anon THP for a
 * private region, ShmemPmdMapped for a shared one. A region faulted in
 * with smaller folios can still be collapsed behind our back
 * (khugepaged), and then the walk no longer sees the folio size chosen.
 */
static long region_pmd_kb(const char *region, bool shared)
{
	const char *field = shared ? "ShmemPmdMapped:" : "AnonHugePages:";
	unsigned long start = (unsigned long)region, lo, hi;
	bool in = false;
	char line[256];
	long kb = -1;
	FILE *f;

	f = fopen("/proc/self/smaps", "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
			in = lo <= start && start < hi;
			continue;
		}
		if (in && !strncmp(line, field, strlen(field))) {
			kb = strtol(line + strlen(field), NULL, 10);
			break;
		}
	}
	fclose(f);
	return kb;
}

/* SIGUSR1 is blocked since main(), so none is lost before sigwait(). */
static int wait_for_go(void)
{
	sigset_t set;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	printf("gupwork: ready pid %d\n", getpid());
	fflush(stdout);
	return sigwait(&set, &sig);
}

static int run_region_mode(struct work *w, const char *mode)
{
	unsigned long calls = 0, rounds = 0;
	long pmd_kb;
	char *region;
	double t0;
	int err;

	if (strcmp(mode, "readv") && strcmp(mode, "populate-read") &&
	    strcmp(mode, "populate-write")) {
		fprintf(stderr, "gupwork: unknown mode '%s' (readv, populate-read, populate-write, exec)\n",
			mode);
		return 2;
	}
	if (w->shared && !strcmp(mode, "populate-write")) {
		fprintf(stderr, "gupwork: --shared maps the region read-only: no populate-write\n");
		return 2;
	}
	region = prepare_region(w);
	if (!region)
		return 1;
	if (w->wait && wait_for_go())
		return 1;
	t0 = now_us();
	do {
		if (!strcmp(mode, "readv"))
			err = do_readv(region, w->size, &calls);
		else
			err = do_populate(region, w->size, !strcmp(mode, "populate-read") ?
					  MADV_POPULATE_READ : MADV_POPULATE_WRITE, &calls);
		if (err)
			return 1;
		rounds++;
	} while (now_us() - t0 < w->for_s * 1e6);
	printf("gupwork: %s bytes %lu pages %lu calls %lu time_us %.0f rounds %lu\n", mode,
	       w->size, w->size / sysconf(_SC_PAGESIZE), calls, now_us() - t0, rounds);
	pmd_kb = w->folio_kb < 2048 ? region_pmd_kb(region, w->shared) : 0;
	if (pmd_kb > 0) {
		fprintf(stderr, "gupwork: %ld kB of the region were PMD-mapped by the end (collapsed since it was faulted in?): no numbers taken\n",
			pmd_kb);
		return 3;
	}
	return 0;
}

static void usage(FILE *f);

/*
 * The folios a command mapping SIZE MB must have faulted in. gup_test maps
 * without aligning to the folio size, so its first and last folio-sized
 * slots are partial and get base pages: one folio fewer than an aligned
 * region. Any fallback or other size still fails the check.
 */
static unsigned long long exec_folios(const struct work *w)
{
	unsigned long long n = w->size / (w->folio_kb * 1024);

	return w->folio_kb == folio_base_kb() ? n : n - 1;
}

static int run_exec(struct work *w, char **cmd)
{
	int status;
	pid_t pid;

	if (!cmd[0]) {
		usage(stderr);
		return 2;
	}
	if (w->shared) {
		fprintf(stderr, "gupwork: --shared is for the region modes, not exec\n");
		return 2;
	}
	if (folio_snapshot(&w->fs))
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		sigset_t usr1;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_UNBLOCK, &usr1, NULL);
		execvp(cmd[0], cmd);
		fprintf(stderr, "gupwork: cannot run '%s': %s\n", cmd[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "gupwork: '%s' failed (status %d)\n", cmd[0], status);
		return 1;
	}
	if (folio_confirm(&w->fs, w->folio_kb, exec_folios(w))) {
		fprintf(stderr, "gupwork: folio size %lukB not confirmed: discard '%s' results\n",
			w->folio_kb, cmd[0]);
		return 1;
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: gupwork [--folio 4k|64k|2m] [--size MB] [--wait] [--shared] [--for SEC] readv|populate-read|populate-write\n"
	      "       gupwork [--folio 4k|64k|2m] [--size MB] exec -- CMD [ARG]...\n", f);
}

static int parse(struct work *w, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "folio", required_argument, NULL, 'f' },
		{ "size", required_argument, NULL, 's' },
		{ "wait", no_argument, NULL, 'w' },
		{ "shared", no_argument, NULL, 'S' },
		{ "for", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	char *end;
	int c;

	w->folio_kb = folio_base_kb();
	w->size = 64 * MB;
	w->wait = false;
	w->shared = false;
	w->for_s = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+f:s:wSF:h", opts, NULL)) != -1) {
		if (c == 'w' || c == 'S') {
			*(c == 'w' ? &w->wait : &w->shared) = true;
			continue;
		}
		if (c == 'f' && !folio_parse_size(optarg, &w->folio_kb))
			continue;
		if (c == 's' && (w->size = strtoul(optarg, &end, 10) * MB) && !*end)
			continue;
		if (c == 'F' && (w->for_s = strtoul(optarg, &end, 10)) && !*end)
			continue;
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		fprintf(stderr, "gupwork: bad option or value '%s'\n", argv[optind - 1]);
		return -EINVAL;
	}
	if (optind >= argc) {
		usage(stderr);
		return -EINVAL;
	}
	if (w->folio_kb < folio_base_kb()) {
		fprintf(stderr, "gupwork: --folio %lukB is smaller than this kernel's %lukB page\n",
			w->folio_kb, folio_base_kb());
		return -EINVAL;
	}
	return optind;
}

int main(int argc, char **argv)
{
	struct work w;
	int i, err, rc;

	sigset_t usr1;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	i = parse(&w, argc, argv);
	if (i < 0)
		return 2;
	if (w.size % (w.folio_kb * 1024)) {
		fprintf(stderr, "gupwork: --size is not a multiple of the folio size\n");
		return 2;
	}
	err = folio_discover(&w.fs, w.shared);
	if (!err)
		err = folio_select(&w.fs, w.folio_kb);
	if (err == -EOPNOTSUPP && w.shared) {
		fprintf(stderr, "gupwork: cannot set shmem folio size %lukB: this kernel has no per-size shmem THP controls (transparent_hugepage/hugepages-%lukB/shmem_enabled)\n",
			w.folio_kb, w.folio_kb);
		return 1;
	}
	if (err == -EOPNOTSUPP) {
		fprintf(stderr, "gupwork: cannot set folio size %lukB: this kernel has no per-size THP controls (transparent_hugepage/hugepages-%lukB), only 4kB and %lukB\n",
			w.folio_kb, w.folio_kb, w.fs.kb[0]);
		folio_restore(&w.fs);
		return 1;
	}
	if (err) {
		fprintf(stderr, "gupwork: cannot set folio size %lukB via %s: %s\n",
			w.folio_kb, "/sys/kernel/mm/transparent_hugepage", strerror(-err));
		folio_restore(&w.fs);
		return 1;
	}
	if (!strcmp(argv[i], "exec"))
		rc = run_exec(&w, argv + i + 1 + (argv[i + 1] && !strcmp(argv[i + 1], "--")));
	else
		rc = run_region_mode(&w, argv[i]);
	folio_restore(&w.fs);
	return rc;
}
