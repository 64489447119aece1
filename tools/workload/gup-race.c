// SPDX-License-Identifier: GPL-2.0
/*
 * gup-race: race the get_user_pages() slow path against changes to the
 * memory it walks, and check that every page it hands back is the right
 * one.
 *
 *   gup-race [--size 4k|64k|2m|all] [--racer NAME|all] [--seconds S]
 *            [--mb N] [--seed N] [--inject KIND] [-v]
 *
 * For every folio size and racer asked for (default: all of both, the
 * whole matrix) it maps an N MB anonymous region (default 4), faults it
 * in with folios of that size, confirmed from the THP fault counters,
 * and for S seconds (default 2) loops: write every page with a new
 * generation, then look the region, or a random part of it, up through
 * GUP one of these ways while a racer thread changes the mapping:
 *
 *  - the GUP_TEST ioctls PIN_LONGTERM_BENCHMARK and GUP_BASIC_TEST, with
 *    1, 123 or 512 pages per call, for reading, writing and FOLL_FORCE;
 *  - PIN_LONGTERM_TEST_START, READ the pinned pages through the kernel,
 *    write a new generation through our mapping, READ again, STOP;
 *  - process_vm_readv() on ourselves (pin_user_pages_remote()).
 *
 * Racers, one per run:
 *   mprotect  random sub-ranges to PROT_READ or PROT_NONE and back
 *   dontneed  MADV_DONTNEED of random sub-ranges; the next write refaults
 *   collapse  MADV_COLLAPSE of 2 MB, and MADV_COLD of sub-ranges, which
 *             splits large folios so that there is something to collapse
 *   fork      a child checks and writes its own copy and exits, while we
 *             keep writing and pinning
 *   pageout   MADV_PAGEOUT of random sub-ranges: reclaim splits and swaps
 *             out what is not pinned (under the PTE lock, mmap_lock read)
 *   move      move_pages() of random sub-ranges to the other NUMA node
 *             (migration under the PTE lock; needs two nodes, so not in
 *             "all")
 *   numa      NUMA-balancing hinting faults: the scanner makes our PTEs
 *             PROT_NONE under the PTE lock, and the racer, moving itself
 *             between the two nodes, reads random sub-ranges so that the
 *             faults migrate pages back and forth (needs two nodes and
 *             kernel.numa_balancing on, so not in "all")
 *
 * Every 4 kB page carries a tag, in its first and last 8 bytes, naming
 * its page index and the generation of the write pass that wrote it; see
 * check_word() for what each GUP side must find. A lookup may fail (a
 * short count, EFAULT) only while the mprotect racer has made part of
 * its range PROT_NONE, or PROT_READ for a write without FOLL_FORCE: see
 * fault_allowed(). Any other error, or a racer's own syscall failing,
 * fails the run. --inject corrupts one page per write pass on purpose,
 * to show that the checks catch it.
 *
 * Prints one line per combination; exits 1 on any failure, 2 on bad
 * options.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "gup_test_abi.h"
#include "folio_confirm.h"
#include "kernel/pagemap.h"

#ifndef MPOL_MF_MOVE
#define MPOL_MF_MOVE	(1 << 1)
#endif

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25	/* Linux 6.1; glibc 2.36 does not have it */
#endif

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define PAGE		4096UL
#define MB		(1UL << 20)
#define PMD_SIZE	(2 * MB)
#define WORDS		(PAGE / sizeof(uint64_t))
#define TAIL		(WORDS - 1)
#define MAX_REPORTS	10	/* failure lines per combination */
#define MAX_IOV		8
#define FORK_WAIT_US	3000000	/* for a fork to happen while pinned */

/*
 * A tag is one 64-bit word, so one aligned store writes it whole: a
 * racing zap leaves the old page or a zero page, never half a tag. A
 * lookup that copies a page in two pieces can read half of one: see
 * cut_bits().
 */
#define TAG_MAGIC	0x4755ULL	/* "GU": written by us */
#define TAG_CHILD	0x4743ULL	/* "GC": by a fork child, in its copy */
#define TAG_IDX_BITS	24
#define TAG_GEN_BITS	24
#define TAG_GEN_MASK	((1ULL << TAG_GEN_BITS) - 1)
#define TAG_IDX_MASK	((1ULL << TAG_IDX_BITS) - 1)

#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define STORE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_SEQ_CST)
#define INC(x)		__atomic_add_fetch(&(x), 1, __ATOMIC_SEQ_CST)

static inline uint64_t tag_make(uint64_t magic, unsigned long idx,
				unsigned long gen)
{
	return magic << 48 | (uint64_t)(idx & TAG_IDX_MASK) << TAG_GEN_BITS |
	       (gen & TAG_GEN_MASK);
}

static inline uint64_t tag_magic(uint64_t t)
{
	return t >> 48;
}

static inline unsigned long tag_idx(uint64_t t)
{
	return (t >> TAG_GEN_BITS) & TAG_IDX_MASK;
}

static inline unsigned long tag_gen(uint64_t t)
{
	return t & TAG_GEN_MASK;
}

enum inject {
	INJECT_NONE, INJECT_MISPLACE, INJECT_STALE, INJECT_ZERO, INJECT_TORN
};

struct opts {
	unsigned long sizes[3];		/* folio sizes in kB */
	int nr_sizes;
	unsigned int racers;		/* bit per racers[] entry */
	double seconds;
	unsigned long mb;
	uint64_t seed;
	enum inject inject;
	bool verbose;
};

struct counts {
	unsigned long calls;		/* syscalls that drove GUP */
	unsigned long pages;		/* pages whose content was checked */
	unsigned long races;		/* calls that overlapped a racer op */
	unsigned long zeroed;		/* zero pages a zap explains */
	unsigned long older;		/* older pages a zap explains */
	unsigned long efaults;		/* short lookups mprotect explains */
	unsigned long pinned_forks;	/* forks seen while pinned */
	unsigned long failures;		/* atomic: the racer adds too */
};

struct racer;

/* One combination of folio size and racer. */
struct run {
	const struct racer *racer;
	const struct opts *o;
	char label[32];			/* "64k dontneed" */
	unsigned long folio_pages;
	unsigned long nr_pages;
	char *region;			/* nr_pages pages, 2 MB aligned */
	uint64_t *buf;			/* where READ and readv copy to */
	int gup_fd;
	unsigned long gen;		/* of the last write pass */
	/*
	 * Zaps (dontneed): the racer bumps zap_seq[i] before and after
	 * zapping page i; zap_mark[i] is zap_seq[i] just after our last
	 * write of page i, pin_mark[] the same at a pin. See zapped_since().
	 */
	unsigned int *zap_seq, *zap_mark, *pin_mark;
	/*
	 * Protections (mprotect): the racer sets may_ro/may_none and bumps
	 * ro_seq/none_seq before restricting, under prot_lock; the write
	 * pass makes everything writable again and clears the flags. See
	 * fault_allowed().
	 */
	pthread_mutex_t prot_lock;
	bool may_ro, may_none;
	unsigned long ro_seq, none_seq;
	/* Racer ops begun and ended, for "races seen". */
	unsigned long ops_begun, ops_ended;
	unsigned long forks_done;	/* ops_begun of the last fork reaped */
	unsigned long collapses;	/* MADV_COLLAPSE calls that worked */
	unsigned long swapped;		/* pages pagemap showed swapped out */
	unsigned long moved;		/* pages move_pages() moved */
	cpu_set_t node_cpus[2];		/* numa: where the racer runs */
	long long hint_faults;		/* numa: /proc/vmstat deltas */
	long long hint_migrated;
	double end;			/* when the run stops */
	bool stop;
	struct counts c;
};

struct racer {
	const char *name;
	bool zaps;			/* may leave pages zero */
	bool protects;			/* may make pages unreadable */
	bool forks;			/* forks: check the COW rule for pins */
	bool optional;			/* not in "all": needs what not every guest has */
	int (*op)(struct run *r, uint64_t *rng);
};

static volatile sig_atomic_t interrupted;

/* xorshift64*: cheap, and a run can be repeated from its --seed. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static unsigned long rnd_below(uint64_t *s, unsigned long n)
{
	return n ? rnd(s) % n : 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t *page_words(const struct run *r, unsigned long idx)
{
	return (uint64_t *)(r->region + idx * PAGE);
}

static void clamp_range(const struct run *r, unsigned long *first,
			unsigned long *nr)
{
	if (*first >= r->nr_pages)
		*first = r->nr_pages - 1;
	if (!*nr)
		*nr = 1;
	if (*first + *nr > r->nr_pages)
		*nr = r->nr_pages - *first;
}

/*
 * What a racer changes: a batched walk goes wrong at the edges of what
 * it batches, so mix single pages, whole folios and odd runs that start
 * and end inside folios.
 */
static void racer_range(const struct run *r, uint64_t *rng,
			unsigned long *first, unsigned long *nr)
{
	unsigned long fp = r->folio_pages;

	switch (rnd_below(rng, 4)) {
	case 0:
		*nr = 1;
		*first = rnd_below(rng, r->nr_pages);
		break;
	case 1:
		*nr = fp;
		*first = rnd_below(rng, r->nr_pages / fp) * fp;
		break;
	case 2:
		*nr = 2 + rnd_below(rng, 2 * fp + 8);
		*first = rnd_below(rng, r->nr_pages);
		break;
	default:
		*nr = 1 + rnd_below(rng, r->nr_pages);
		*first = rnd_below(rng, r->nr_pages);
	}
	clamp_range(r, first, nr);
}

/* What GUP looks up: mostly long runs, with odd starts and ends. */
static void gup_range(const struct run *r, uint64_t *rng,
		      unsigned long *first, unsigned long *nr)
{
	unsigned long edge = 2 * r->folio_pages + 3;

	edge = edge < r->nr_pages / 4 ? edge : r->nr_pages / 4;
	switch (rnd_below(rng, 4)) {
	case 0:
	case 1:
		*first = 0;
		*nr = r->nr_pages;
		break;
	case 2:
		*first = rnd_below(rng, edge);
		*nr = r->nr_pages - *first - rnd_below(rng, edge);
		break;
	default:
		*first = rnd_below(rng, r->nr_pages);
		*nr = 1 + rnd_below(rng, r->nr_pages);
	}
	clamp_range(r, first, nr);
}

/* Failure lines may come from either thread; each is written whole. */
static void fail(struct run *r, const char *fmt, ...)
{
	unsigned long n = INC(r->c.failures);
	va_list ap;

	if (n > MAX_REPORTS)
		return;
	flockfile(stdout);
	printf("gup-race: FAIL %s: ", r->label);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	funlockfile(stdout);
}

static void tag_str(uint64_t t, char *s, size_t len)
{
	if (!t)
		snprintf(s, len, "zero");
	else if (tag_magic(t) == TAG_MAGIC || tag_magic(t) == TAG_CHILD)
		snprintf(s, len, "idx %lu gen %lu%s", tag_idx(t), tag_gen(t),
			 tag_magic(t) == TAG_CHILD ? " (child's)" : "");
	else
		snprintf(s, len, "0x%016llx", (unsigned long long)t);
}

/* Why @found is not the tag of page @idx, generation @gen. */
static const char *what_is_wrong(uint64_t found, unsigned long idx,
				 unsigned long gen)
{
	if (!found)
		return "zero, and no zap since the write";
	if (tag_magic(found) == TAG_CHILD)
		return "a fork child's write, seen by the parent";
	if (tag_magic(found) != TAG_MAGIC)
		return "not a tag";
	if (tag_idx(found) != idx)
		return "misplaced: another page's content in this slot";
	if (tag_gen(found) < gen)
		return "older generation: a write that the page does not show";
	return "newer generation than written";
}

/* Was page @idx zapped, or being zapped, since zap_seq read @mark? */
static bool zapped_since(struct run *r, unsigned long idx, unsigned int mark)
{
	return (mark & 1) || LOAD(r->zap_seq[idx]) != mark;
}

/* What a GUP side must find in each page it returns. */
struct expect {
	const char *what;		/* the GUP side, for messages */
	unsigned long gen;		/* the generation written last */
	unsigned long older;		/* also fine if zapped; 0 if not */
	const unsigned int *mark;	/* zap marks, NULL without zaps */
	const unsigned long *cuts;	/* see cut_bits(); ascending */
	int nr_cuts;
};

/*
 * process_vm_readv() pins and copies each of its iovecs on its own, and
 * step_readv() cuts them at random bytes, so one page can be copied in
 * two pieces, each from a pin of its own: a zap between the two pins
 * makes the second piece come from the zero page. @cuts are the byte
 * offsets, from the lookup's first page, where a new iovec starts.
 * Returns a bit for each byte of [@off, @off + @len) but the first that
 * begins a new piece.
 */
static unsigned long cut_bits(const struct expect *e, unsigned long off,
			      unsigned long len)
{
	unsigned long bits = 0;
	int i;

	for (i = 0; i < e->nr_cuts; i++)
		if (e->cuts[i] > off && e->cuts[i] < off + len)
			bits |= 1UL << (e->cuts[i] - off);
	return bits;
}

/*
 * Is each piece of @found, as cut by @bits (see cut_bits()), either
 * @want's bytes or zero? What a zap between two pins leaves.
 */
static bool pieces_zero_or_right(uint64_t found, uint64_t want,
				 unsigned long bits)
{
	unsigned int start = 0, k;
	uint64_t mask;

	for (k = 1; k <= sizeof(found); k++) {
		if (k < sizeof(found) && !(bits & 1UL << k))
			continue;
		mask = (k == sizeof(found) ? ~0ULL : (1ULL << 8 * k) - 1) &
		       ~((1ULL << 8 * start) - 1);
		if ((found & mask) && (found & mask) != (want & mask))
			return false;
		start = k;
	}
	return true;
}

enum verdict { V_OK, V_ZERO, V_OLDER, V_BAD };

/*
 * The invariant: a page GUP returned for index i holds i's tag, of the
 * generation written last, since nothing but us writes the region and
 * every write pass ends before a lookup starts. A zap racing with us is
 * the only way to see anything else: a zero page (zapped before the
 * lookup or the write), or, through a pin, the older generation (zapped
 * after the pin, so our write went to a new page); or, in a word that
 * a lookup copied in pieces, each piece right or zero. Any other index
 * means a page ended up in the wrong slot.
 */
static enum verdict check_word(struct run *r, const struct expect *e,
			       unsigned long first, unsigned long idx,
			       unsigned int word, uint64_t found)
{
	uint64_t want = tag_make(TAG_MAGIC, idx, e->gen);
	unsigned long off = (idx - first) * PAGE + word * TAIL * sizeof(found);
	char fs[48], ws[48];
	bool zapped;

	if (found == want)
		return V_OK;
	zapped = e->mark && zapped_since(r, idx, e->mark[idx]);
	if (zapped && pieces_zero_or_right(found, want,
					   cut_bits(e, off, sizeof(found))))
		return V_ZERO;
	if (zapped && e->older &&
	    found == tag_make(TAG_MAGIC, idx, e->older))
		return V_OLDER;
	tag_str(want, ws, sizeof(ws));
	tag_str(found, fs, sizeof(fs));
	fail(r, "%s: page %lu (+0x%lx, slot %lu of the lookup) %s word: expected %s, found %s: %s",
	     e->what, idx, idx * PAGE, idx - first, word ? "last" : "first",
	     ws, fs, what_is_wrong(found, idx, e->gen));
	return V_BAD;
}

/* Check @words words of page @idx, as copied to @p. */
static void check_page(struct run *r, const struct expect *e,
		       unsigned long first, unsigned long idx,
		       const uint64_t *p, unsigned long words)
{
	enum verdict v, worst = V_OK;

	v = check_word(r, e, first, idx, 0, p[0]);
	worst = v > worst ? v : worst;
	if (words > TAIL) {
		v = check_word(r, e, first, idx, 1, p[TAIL]);
		worst = v > worst ? v : worst;
	}
	/*
	 * Copied from one pin, a page may show a zero last word only with
	 * a zero first word: a lookup finds the zero page (both zero), or
	 * a page refaulted between the write pass's two stores (first
	 * zero, last tagged). A tagged first word over a zero last one is a
	 * page that changed while the kernel copied it, though no write
	 * pass was running; unless it was copied in two pieces.
	 */
	if (words > TAIL && worst != V_BAD && p[0] && !p[TAIL] &&
	    !cut_bits(e, (idx - first) * PAGE, PAGE)) {
		char fs[48];

		tag_str(p[0], fs, sizeof(fs));
		fail(r, "%s: page %lu (+0x%lx, slot %lu of the lookup) torn: first word %s, last word zero",
		     e->what, idx, idx * PAGE, idx - first, fs);
		worst = V_BAD;
	}
	r->c.pages++;
	r->c.zeroed += worst == V_ZERO;
	r->c.older += worst == V_OLDER;
}

/* Check the @bytes that a lookup of pages from @first copied to buf. */
static void check_copy(struct run *r, const struct expect *e,
		       unsigned long first, unsigned long bytes)
{
	unsigned long i, words;

	for (i = 0; i * PAGE < bytes; i++) {
		words = (bytes - i * PAGE) / sizeof(uint64_t);
		if (words)
			check_page(r, e, first, first + i, r->buf + i * WORDS,
				   words < WORDS ? words : WORDS);
	}
}

/*
 * The zap mark is read before the stores: a zap that had ended by then
 * cannot touch what we store, and one that had not is either under way
 * (an odd mark) or moves zap_seq on (see zapped_since()). Read after the
 * stores, a whole zap could slip in between unseen.
 */
static void write_page(struct run *r, unsigned long idx, uint64_t tag)
{
	uint64_t *p = page_words(r, idx);

	if (r->zap_seq)
		r->zap_mark[idx] = LOAD(r->zap_seq[idx]);
	/*
	 * Two stores, then a full fence: what STORE() gives, as mov and
	 * mfence rather than xchg. QEMU's single-threaded TCG runs an
	 * atomic exchange as a load, then a store, so its first touch of a
	 * page faults as a read: the zero page is mapped and the store's
	 * COW gets a 4 kB page, never a large folio (anon_fault_alloc +0 at
	 * 64 kB and 2 MB, measured). A CPU faults a locked exchange, and a
	 * mov, as a write.
	 */
	__atomic_store_n(&p[0], tag, __ATOMIC_RELEASE);
	__atomic_store_n(&p[TAIL], tag, __ATOMIC_RELEASE);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

/* --inject: what a broken walk would show, done to one page. */
static void inject(struct run *r, uint64_t *rng)
{
	unsigned long i = rnd_below(rng, r->nr_pages - 1);

	switch (r->o->inject) {
	case INJECT_MISPLACE:	/* page i + 1 in slot i */
		write_page(r, i, tag_make(TAG_MAGIC, i + 1, r->gen));
		break;
	case INJECT_STALE:	/* a write lost */
		write_page(r, i, tag_make(TAG_MAGIC, i, r->gen - 1));
		break;
	case INJECT_ZERO:
		write_page(r, i, 0);
		break;
	case INJECT_TORN:	/* zapped, then changed while copied */
		STORE(page_words(r, i)[TAIL], 0);
		if (r->zap_seq)	/* a whole zap, as zap_bump() counts one */
			__atomic_add_fetch(&r->zap_seq[i], 2, __ATOMIC_SEQ_CST);
		break;
	case INJECT_NONE:
		break;
	}
}

/*
 * Make the whole region writable again for the write pass, which holds
 * prot_lock so that the racer cannot take that away halfway.
 */
static void prot_writable(struct run *r)
{
	if (mprotect(r->region, r->nr_pages * PAGE, PROT_READ | PROT_WRITE))
		fail(r, "mprotect(PROT_READ|PROT_WRITE) of the region: %s",
		     strerror(errno));
	STORE(r->may_ro, false);
	STORE(r->may_none, false);
}

/* Tag every page with a new generation. */
static void write_pass(struct run *r, uint64_t *rng)
{
	unsigned long i, gen = r->gen + 1;

	if (r->racer->protects) {
		pthread_mutex_lock(&r->prot_lock);
		prot_writable(r);
	}
	STORE(r->gen, gen);
	for (i = 0; i < r->nr_pages; i++)
		write_page(r, i, tag_make(TAG_MAGIC, i, gen));
	inject(r, rng);
	if (r->racer->protects)
		pthread_mutex_unlock(&r->prot_lock);
}

/* The racer state when a GUP call starts. */
struct window {
	unsigned long begun, ended;
	unsigned long ro_seq, none_seq;
	bool may_ro, may_none;
};

/* Sequence numbers first: see fault_allowed(). */
static void window_open(struct run *r, struct window *w)
{
	w->ro_seq = LOAD(r->ro_seq);
	w->none_seq = LOAD(r->none_seq);
	w->may_ro = LOAD(r->may_ro);
	w->may_none = LOAD(r->may_none);
	w->ended = LOAD(r->ops_ended);
	w->begun = LOAD(r->ops_begun);
}

/* A race: a racer op was under way at the start, or began since. */
static void window_close(struct run *r, const struct window *w)
{
	r->c.calls++;
	if (w->begun > w->ended || LOAD(r->ops_begun) > w->begun)
		r->c.races++;
}

/*
 * May a lookup have failed with EFAULT? Only if the mprotect racer made
 * part of the region unreadable (or, for a write, read-only) when the
 * call started or while it ran. The racer sets the flag before bumping
 * the sequence number, and both before mprotect(); reading the sequence
 * number first, a restriction is either seen in the flag or changes the
 * sequence number by the end of the call. FOLL_FORCE overrides both
 * protections in a private mapping.
 */
static bool fault_allowed(struct run *r, const struct window *w, bool write,
			  bool force)
{
	if (!r->racer->protects || force)
		return false;
	if (w->may_none || LOAD(r->none_seq) != w->none_seq)
		return true;
	return write && (w->may_ro || LOAD(r->ro_seq) != w->ro_seq);
}

struct step;
typedef void step_fn(struct run *r, const struct step *s, uint64_t *rng);

/* One way of looking the region up. */
struct step {
	const char *name;
	step_fn *run;
	unsigned long cmd;		/* GUP_TEST ioctl */
	unsigned int nr;		/* pages per GUP call */
	unsigned int flags;		/* gup_flags, or PIN_LONGTERM_TEST_FLAG_* */
};

/*
 * The benchmark ioctls only say how far they got (see gup_test_abi.h):
 * a short size is a failed lookup, which only mprotect may cause.
 */
static void step_bench(struct run *r, const struct step *s, uint64_t *rng)
{
	struct gup_test gup = { 0 };
	unsigned long first, nr;
	struct window w;
	int ret;

	gup_range(r, rng, &first, &nr);
	gup.addr = (uintptr_t)page_words(r, first);
	gup.size = nr * PAGE;
	gup.nr_pages_per_call = s->nr;
	gup.gup_flags = s->flags;
	window_open(r, &w);
	ret = ioctl(r->gup_fd, s->cmd, &gup);
	window_close(r, &w);
	if (ret) {
		fail(r, "%s: ioctl: %s", s->name, strerror(errno));
		return;
	}
	if (gup.size == nr * PAGE)
		return;
	if (fault_allowed(r, &w, s->flags & GUP_TEST_FOLL_WRITE,
			  s->flags & GUP_TEST_FOLL_FORCE)) {
		r->c.efaults++;
		return;
	}
	fail(r, "%s: looked up %llu of %lu bytes from page %lu, and no racer made them inaccessible",
	     s->name, (unsigned long long)gup.size, nr * PAGE, first);
}

/* Copy the pinned pages' content to buf, through the kernel. */
static bool pin_read(struct run *r, const struct step *s)
{
	__u64 dst = (uintptr_t)r->buf;

	if (!ioctl(r->gup_fd, PIN_LONGTERM_TEST_READ, &dst))
		return true;
	fail(r, "%s: PIN_LONGTERM_TEST_READ: %s", s->name, strerror(errno));
	return false;
}

/*
 * The COW rule for a pin needs a fork that saw it: one the racer began
 * after the pin was taken, that is numbered above @after.
 */
static void wait_for_fork(struct run *r, unsigned long after)
{
	double end = now_s() + FORK_WAIT_US / 1e6;

	end = end < r->end ? end : r->end;

	while (LOAD(r->forks_done) <= after) {
		if (now_s() > end || LOAD(r->stop) || interrupted)
			return;
		usleep(1000);
	}
	r->c.pinned_forks++;
}

/* Pin, check, write through our mapping, check again: see check_word(). */
static void pin_checks(struct run *r, const struct step *s, uint64_t *rng,
		       unsigned long first, unsigned long nr)
{
	struct expect e = { "pinned pages, before writing", r->gen, 0,
			    r->zap_mark, NULL, 0 };
	/* Called once the pin is in place: later forks must see it. */
	unsigned long forks = LOAD(r->ops_begun);

	if (!pin_read(r, s))
		return;
	check_copy(r, &e, first, nr * PAGE);
	if (r->zap_seq)
		memcpy(r->pin_mark, r->zap_mark, r->nr_pages * sizeof(*r->pin_mark));
	if (r->racer->forks)
		wait_for_fork(r, forks);
	write_pass(r, rng);
	e.what = "pinned pages, after writing (the pin must see our writes)";
	e.gen = r->gen;
	e.older = r->gen - 1;
	e.mark = r->pin_mark;
	if (pin_read(r, s))
		check_copy(r, &e, first, nr * PAGE);
}

static void step_pin(struct run *r, const struct step *s, uint64_t *rng)
{
	struct pin_longterm_test pin = { 0 };
	bool write = s->flags & PIN_LONGTERM_TEST_FLAG_USE_WRITE;
	unsigned long first, nr;
	struct window w;
	int ret;

	gup_range(r, rng, &first, &nr);
	pin.addr = (uintptr_t)page_words(r, first);
	pin.size = nr * PAGE;
	pin.flags = s->flags;
	window_open(r, &w);
	ret = ioctl(r->gup_fd, PIN_LONGTERM_TEST_START, &pin);
	window_close(r, &w);
	if (ret) {
		if (errno == EFAULT && fault_allowed(r, &w, write, false))
			r->c.efaults++;
		else
			fail(r, "%s: PIN_LONGTERM_TEST_START of %lu pages from page %lu: %s",
			     s->name, nr, first, strerror(errno));
		return;
	}
	pin_checks(r, s, rng, first, nr);
	if (ioctl(r->gup_fd, PIN_LONGTERM_TEST_STOP))
		fail(r, "%s: PIN_LONGTERM_TEST_STOP: %s", s->name, strerror(errno));
}

/* Cut [@addr, @addr + @len) into up to MAX_IOV pieces at random bytes. */
static int split_iov(uint64_t *rng, char *addr, unsigned long len,
		     struct iovec *iov)
{
	int n = 1 + rnd_below(rng, MAX_IOV), i = 0;
	unsigned long off = 0, piece;

	while (off < len) {
		piece = i == n - 1 ? len - off : 1 + rnd_below(rng, len - off);
		iov[i].iov_base = addr + off;
		iov[i].iov_len = piece;
		off += piece;
		i++;
	}
	return i;
}

/* pin_user_pages_remote() on ourselves, into buf. */
static void step_readv(struct run *r, const struct step *s, uint64_t *rng)
{
	struct iovec local, remote[MAX_IOV];
	unsigned long first, nr, cuts[MAX_IOV], off = 0;
	struct expect e = { s->name, r->gen, 0, r->zap_mark, cuts, 0 };
	struct window w;
	ssize_t got;
	int n;

	gup_range(r, rng, &first, &nr);
	n = split_iov(rng, (char *)page_words(r, first), nr * PAGE, remote);
	for (e.nr_cuts = 0; e.nr_cuts < n - 1; e.nr_cuts++)
		cuts[e.nr_cuts] = off += remote[e.nr_cuts].iov_len;
	local.iov_base = r->buf;
	local.iov_len = nr * PAGE;
	window_open(r, &w);
	got = process_vm_readv(getpid(), &local, 1, remote, n, 0);
	window_close(r, &w);
	if (got < 0 && errno != EFAULT) {
		fail(r, "%s: %s", s->name, strerror(errno));
		return;
	}
	got = got < 0 ? 0 : got;
	if ((unsigned long)got < nr * PAGE) {
		if (fault_allowed(r, &w, false, false))
			r->c.efaults++;
		else
			fail(r, "%s: read %zd of %lu bytes from page %lu, and no racer made them inaccessible",
			     s->name, got, nr * PAGE, first);
	}
	check_copy(r, &e, first, got);
}

/* Every page-table-walk flavour in turn: see the header comment. */
static const struct step steps[] = {
	{ "PIN_LONGTERM_BENCHMARK/1", step_bench, PIN_LONGTERM_BENCHMARK, 1, 0 },
	{ "GUP_BASIC_TEST/123/write", step_bench, GUP_BASIC_TEST, 123,
	  GUP_TEST_FOLL_WRITE },
	{ "pin (read)", step_pin, 0, 0, 0 },
	{ "process_vm_readv", step_readv, 0, 0, 0 },
	{ "PIN_LONGTERM_BENCHMARK/512/write", step_bench,
	  PIN_LONGTERM_BENCHMARK, 512, GUP_TEST_FOLL_WRITE },
	{ "GUP_BASIC_TEST/512", step_bench, GUP_BASIC_TEST, 512, 0 },
	{ "pin (write)", step_pin, 0, 0, PIN_LONGTERM_TEST_FLAG_USE_WRITE },
	{ "PIN_LONGTERM_BENCHMARK/123/force", step_bench,
	  PIN_LONGTERM_BENCHMARK, 123, GUP_TEST_FOLL_FORCE },
	{ "GUP_BASIC_TEST/1/write,force", step_bench, GUP_BASIC_TEST, 1,
	  GUP_TEST_FOLL_WRITE | GUP_TEST_FOLL_FORCE },
	{ "process_vm_readv", step_readv, 0, 0, 0 },
	{ "PIN_LONGTERM_BENCHMARK/512/write,force", step_bench,
	  PIN_LONGTERM_BENCHMARK, 512, GUP_TEST_FOLL_WRITE | GUP_TEST_FOLL_FORCE },
	{ "GUP_BASIC_TEST/123", step_bench, GUP_BASIC_TEST, 123, 0 },
};

#define NR_STEPS	ARRAY_SIZE(steps)

/* --- racers: each op is one change; errors from it are failures --- */

static int race_mprotect(struct run *r, uint64_t *rng)
{
	static const int prots[] = { PROT_READ, PROT_NONE, PROT_READ | PROT_WRITE };
	int prot = prots[rnd_below(rng, 3)], err = 0;
	unsigned long first, nr;

	racer_range(r, rng, &first, &nr);
	pthread_mutex_lock(&r->prot_lock);
	if (!(prot & PROT_WRITE)) {
		STORE(r->may_ro, true);
		INC(r->ro_seq);
	}
	if (prot == PROT_NONE) {
		STORE(r->may_none, true);
		INC(r->none_seq);
	}
	if (mprotect(page_words(r, first), nr * PAGE, prot))
		err = -errno;
	pthread_mutex_unlock(&r->prot_lock);
	return err;
}

static void zap_bump(struct run *r, unsigned long first, unsigned long nr)
{
	unsigned long i;

	for (i = first; i < first + nr; i++)
		INC(r->zap_seq[i]);
}

static int race_dontneed(struct run *r, uint64_t *rng)
{
	unsigned long first, nr;
	int err = 0;

	racer_range(r, rng, &first, &nr);
	zap_bump(r, first, nr);
	if (madvise(page_words(r, first), nr * PAGE, MADV_DONTNEED))
		err = -errno;
	zap_bump(r, first, nr);
	return err;
}

/*
 * MADV_COLLAPSE fails for reasons of its own: EAGAIN for a pinned,
 * locked or busy page, ENOMEM for no huge page, EINVAL for the rest of
 * what it cannot collapse. MADV_COLD of part of a large folio splits it,
 * so that collapse has work to do.
 */
static int race_collapse(struct run *r, uint64_t *rng)
{
	unsigned long first, nr, chunks = r->nr_pages * PAGE / PMD_SIZE;

	if (rnd_below(rng, 2)) {
		first = rnd_below(rng, chunks) * (PMD_SIZE / PAGE);
		if (!madvise(page_words(r, first), PMD_SIZE, MADV_COLLAPSE))
			INC(r->collapses);
		else if (errno != EAGAIN && errno != ENOMEM && errno != EINVAL)
			return -errno;
		return 0;
	}
	racer_range(r, rng, &first, &nr);
	return madvise(page_words(r, first), nr * PAGE, MADV_COLD) ? -errno : 0;
}

/* Swap out what reclaim may take; pinned pages it must leave alone. */
static int race_pageout(struct run *r, uint64_t *rng)
{
	unsigned long first, nr, i;

	racer_range(r, rng, &first, &nr);
	if (madvise(page_words(r, first), nr * PAGE, MADV_PAGEOUT))
		return -errno;
	/* Shown, not assumed: count what pagemap calls swapped (bit 62). */
	for (i = first; i < first + nr; i++)
		if (pagemap_entry(page_words(r, i)) & (1ULL << 62))
			INC(r->swapped);
	return 0;
}

#define MOVE_MAX	64	/* pages per move_pages() call */

/*
 * Migrate pages to the node they are not on: move_pages() takes the
 * mmap_lock for reading and each page's PTE lock. A page it cannot move
 * (pinned, busy) says so in its status; only the call failing is ours.
 */
static int race_move(struct run *r, uint64_t *rng)
{
	void *pages[MOVE_MAX];
	int nodes[MOVE_MAX], status[MOVE_MAX];
	unsigned long first, nr, i;
	int node = rnd_below(rng, 2);

	racer_range(r, rng, &first, &nr);
	nr = nr < MOVE_MAX ? nr : MOVE_MAX;
	for (i = 0; i < nr; i++) {
		pages[i] = page_words(r, first + i);
		nodes[i] = node;
	}
	if (syscall(__NR_move_pages, 0, nr, pages, nodes, status, MPOL_MF_MOVE))
		return -errno;
	for (i = 0; i < nr; i++)
		if (status[i] == node)
			INC(r->moved);
	return 0;
}

/*
 * NUMA hinting faults: task_numa_work() makes the region's PTEs PROT_NONE
 * (mmap_lock for reading, then each PTE lock), and a touch of one takes a
 * hinting fault that may migrate the page to the toucher's node. GUP
 * itself follows PROT_NONE PTEs, so a walk meets them mid-run. Reading
 * from each node in turn keeps pages moving both ways.
 */
static int race_numa(struct run *r, uint64_t *rng)
{
	unsigned long first, nr, i;
	int node = rnd_below(rng, 2);

	if (sched_setaffinity(0, sizeof(cpu_set_t), &r->node_cpus[node]))
		return -errno;
	racer_range(r, rng, &first, &nr);
	for (i = first; i < first + nr; i++)
		(void)LOAD(page_words(r, i)[1]);
	return 0;
}

/* The CPUs of node @node from sysfs ("0", "0-3", "1,3"). */
static int node_cpus(int node, cpu_set_t *set)
{
	char path[64], list[256], *tok, *save;
	unsigned int a, b;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	f = fopen(path, "re");
	if (!f || !fgets(list, sizeof(list), f)) {
		if (f)
			fclose(f);
		return -ENOENT;
	}
	fclose(f);
	CPU_ZERO(set);
	for (tok = strtok_r(list, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		if (sscanf(tok, "%u-%u", &a, &b) != 2)
			b = a = strtoul(tok, NULL, 10);
		for (; a <= b && a < CPU_SETSIZE; a++)
			CPU_SET(a, set);
	}
	return CPU_COUNT(set) ? 0 : -ENOENT;
}

/*
 * In the child: only async-signal-safe work (we were forked from a
 * threaded process), so no stdio. The child's copy must hold tags for
 * the right pages, of about the generation being written (a write pass
 * may be under way, and the child's copy of r->gen and of each page is
 * taken at slightly different moments).
 */
static int child_check(struct run *r, unsigned long idx, unsigned long gen)
{
	uint64_t *p = page_words(r, idx), t;
	char msg[256];
	int w, len;

	for (w = 0; w < 2; w++) {
		t = LOAD(p[w ? TAIL : 0]);
		if (tag_magic(t) == TAG_MAGIC && tag_idx(t) == idx &&
		    tag_gen(t) + 2 >= gen && tag_gen(t) <= gen + 2)
			continue;
		len = snprintf(msg, sizeof(msg),
			       "gup-race: FAIL %s: fork child: page %lu %s word: expected idx %lu gen %lu, found 0x%016llx\n",
			       r->label, idx, w ? "last" : "first", idx, gen,
			       (unsigned long long)t);
		if (write(STDOUT_FILENO, msg, len) < 0)
			return 4;
		return 3;
	}
	return 0;
}

/* The child checks its copy, writes some of it (never seen by us), exits. */
static int child_main(struct run *r, uint64_t *rng)
{
	unsigned long i, first, nr, gen = LOAD(r->gen);
	int err;

	for (i = 0; i < r->nr_pages; i++) {
		err = child_check(r, i, gen);
		if (err)
			return err;
	}
	racer_range(r, rng, &first, &nr);
	for (i = first; i < first + nr && i < first + 64; i++) {
		STORE(page_words(r, i)[0], tag_make(TAG_CHILD, i, gen));
		STORE(page_words(r, i)[TAIL], tag_make(TAG_CHILD, i, gen));
	}
	return 0;
}

static int race_fork(struct run *r, uint64_t *rng)
{
	unsigned long op = LOAD(r->ops_begun);
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(child_main(r, rng));
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	STORE(r->forks_done, op);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail(r, "fork child ended with status 0x%x (see its line above)",
		     status);
	return 0;
}

static const struct racer racers[] = {
	{ "mprotect", false, true, false, false, race_mprotect },
	{ "dontneed", true, false, false, false, race_dontneed },
	{ "collapse", false, false, false, false, race_collapse },
	{ "fork", false, false, true, false, race_fork },
	{ "pageout", false, false, false, false, race_pageout },
	{ "move", false, false, false, true, race_move },
	{ "numa", false, false, false, true, race_numa },
};

#define NR_RACERS	ARRAY_SIZE(racers)

/* Some ops back to back, some after a pause: vary where races land. */
static void racer_pause(uint64_t *rng)
{
	if (!rnd_below(rng, 4))
		usleep(rnd_below(rng, 200));
}

static void *racer_main(void *arg)
{
	struct run *r = arg;
	uint64_t rng = r->o->seed * 2 + 1;
	int err;

	while (!LOAD(r->stop)) {
		INC(r->ops_begun);
		err = r->racer->op(r, &rng);
		INC(r->ops_ended);
		if (err) {
			fail(r, "racer %s: %s", r->racer->name, strerror(-err));
			STORE(r->stop, true);
		}
		racer_pause(&rng);
	}
	return NULL;
}

/* --- setting a combination up --- */

/* A region aligned to 2 MB so that every folio size can map it fully. */
static char *map_region(unsigned long size)
{
	char *p = mmap(NULL, size + PMD_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *start;

	if (p == MAP_FAILED)
		return NULL;
	start = (char *)(((uintptr_t)p + PMD_SIZE - 1) & ~(PMD_SIZE - 1));
	if (start > p)
		munmap(p, start - p);
	munmap(start + size, p + PMD_SIZE - start);
	return start;
}

/*
 * folio_confirm() prints its evidence on stdout; we print one line per
 * combination, so keep it for -v. Its complaints go to stderr either way.
 */
static int confirm_folios(struct run *r, struct folio_sizes *fs,
			  unsigned long kb)
{
	unsigned long long want = r->nr_pages * 4 / kb;
	int saved, null, err;

	if (r->o->verbose)
		return folio_confirm(fs, kb, want);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0)
		return -errno;
	err = folio_confirm(fs, kb, want);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(null);
	return err;
}

/* Everything but the region, so that its faults are the only ones. */
static int alloc_side(struct run *r)
{
	size_t n = r->nr_pages;

	r->gup_fd = open(GUP_TEST_PATH, O_RDWR | O_CLOEXEC);
	if (r->gup_fd < 0) {
		fprintf(stderr, "gup-race: %s: %s (CONFIG_GUP_TEST? debugfs mounted?)\n",
			GUP_TEST_PATH, strerror(errno));
		return -errno;
	}
	r->buf = mmap(NULL, n * PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (r->buf == MAP_FAILED)
		return -errno;
	if (r->racer->zaps) {
		r->zap_seq = calloc(n, sizeof(*r->zap_seq));
		r->zap_mark = calloc(n, sizeof(*r->zap_mark));
		r->pin_mark = calloc(n, sizeof(*r->pin_mark));
		if (!r->zap_seq || !r->zap_mark || !r->pin_mark)
			return -ENOMEM;
	}
	return 0;
}

static int setup(struct run *r, struct folio_sizes *fs, unsigned long kb,
		 uint64_t *rng)
{
	int err = alloc_side(r);

	if (err)
		return err;
	err = folio_snapshot(fs);
	r->region = err ? NULL : map_region(r->nr_pages * PAGE);
	if (!r->region) {
		fprintf(stderr, "gup-race: %s: cannot map the region\n", r->label);
		return -ENOMEM;
	}
	write_pass(r, rng);
	if (confirm_folios(r, fs, kb)) {
		fprintf(stderr, "gup-race: %s: folio size %lukB not confirmed\n",
			r->label, kb);
		return -EAGAIN;
	}
	return 0;
}

static void teardown(struct run *r)
{
	if (r->gup_fd >= 0)
		close(r->gup_fd);
	if (r->region)
		munmap(r->region, r->nr_pages * PAGE);
	if (r->buf && r->buf != MAP_FAILED)
		munmap(r->buf, r->nr_pages * PAGE);
	free(r->zap_seq);
	free(r->zap_mark);
	free(r->pin_mark);
	pthread_mutex_destroy(&r->prot_lock);
}

/*
 * FOLL_PIN pins taken minus released, system-wide, from /proc/vmstat,
 * with the per-CPU deltas folded in first (vm/stat_refresh) so that the
 * count is exact; -1 if the kernel does not say. A batched walk takes
 * one pin per page in a single grab per run of a folio, and every one
 * must be released by the time STOP or the ioctl returns: the count is
 * the same before and after a combination, unless something else on
 * the machine pins memory at the same time.
 */
static long long pins_outstanding(void)
{
	long long acquired = -1, released = -1, v;
	char name[64];
	FILE *f;

	f = fopen("/proc/sys/vm/stat_refresh", "w");
	if (!f || fputs("1", f) < 0 || fclose(f))
		return -1;
	f = fopen("/proc/vmstat", "r");
	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2) {
		if (!strcmp(name, "nr_foll_pin_acquired"))
			acquired = v;
		else if (!strcmp(name, "nr_foll_pin_released"))
			released = v;
	}
	fclose(f);
	return acquired < 0 || released < 0 ? -1 : acquired - released;
}

static void check_pins(struct run *r, long long before)
{
	long long after = pins_outstanding();

	if (before >= 0 && after != before)
		fail(r, "FOLL_PIN pins outstanding went from %lld to %lld (nr_foll_pin_acquired - nr_foll_pin_released): a pin was not released",
		     before, after);
}

/* What says that the racer did its job, in its own terms. */
static void racer_counts(const struct run *r, char *s, size_t len)
{
	const struct counts *c = &r->c;

	if (r->racer->zaps)
		snprintf(s, len, ", zeroed %lu, older %lu", c->zeroed, c->older);
	else if (r->racer->protects)
		snprintf(s, len, ", efault %lu", c->efaults);
	else if (r->racer->forks)
		snprintf(s, len, ", forks while pinned %lu", c->pinned_forks);
	else if (r->racer->op == race_pageout)
		snprintf(s, len, ", pages seen swapped out %lu", r->swapped);
	else if (r->racer->op == race_move)
		snprintf(s, len, ", pages moved %lu", r->moved);
	else if (r->racer->op == race_numa)
		snprintf(s, len, ", hinting faults %lld, pages migrated %lld",
			 r->hint_faults, r->hint_migrated);
	else
		snprintf(s, len, ", collapse ok %lu", r->collapses);
}

static void report(const struct run *r, double secs)
{
	const struct counts *c = &r->c;
	char extra[64];

	racer_counts(r, extra, sizeof(extra));
	printf("gup-race: %s: %.1f s, %lu GUP calls, %lu pages checked, %lu races seen (racer ops %lu%s, seed %llu): %s\n",
	       r->label, secs, c->calls, c->pages, c->races, r->ops_ended,
	       extra, (unsigned long long)r->o->seed,
	       c->failures ? "FAIL" : "ok");
	if (c->failures > MAX_REPORTS)
		printf("gup-race: FAIL %s: %lu failures, the first %d shown\n",
		       r->label, c->failures, MAX_REPORTS);
}

/* The loop: a write pass, then one GUP side, until time is up. */
static void race(struct run *r, uint64_t *rng)
{
	unsigned long k = 0;

	r->end = now_s() + r->o->seconds;
	while (now_s() < r->end && !interrupted && !LOAD(r->stop)) {
		write_pass(r, rng);
		steps[k % NR_STEPS].run(r, &steps[k % NR_STEPS], rng);
		k++;
	}
}

static int run_one(const struct opts *o, struct folio_sizes *fs,
		   unsigned long kb, const struct racer *racer)
{
	struct run r = { .racer = racer, .o = o, .gup_fd = -1 };
	uint64_t rng = o->seed;
	long long pins = pins_outstanding();
	pthread_t thread;
	double t0;
	int err;

	snprintf(r.label, sizeof(r.label), kb >= 1024 ? "%luM %s" : "%luk %s",
		 kb >= 1024 ? kb / 1024 : kb, racer->name);
	r.folio_pages = kb / 4;
	r.nr_pages = o->mb * MB / PAGE;
	pthread_mutex_init(&r.prot_lock, NULL);
	err = setup(&r, fs, kb, &rng);
	if (!err && racer->op == race_numa &&
	    (node_cpus(0, &r.node_cpus[0]) || node_cpus(1, &r.node_cpus[1])))
		err = -ENODEV;	/* "No such device": no second node */
	if (!err)
		err = -pthread_create(&thread, NULL, racer_main, &r);
	if (err) {
		printf("gup-race: FAIL %s: setup failed: %s\n", r.label, strerror(-err));
		teardown(&r);
		return 1;
	}
	t0 = now_s();
	r.hint_faults = pagemap_vmstat("numa_hint_faults");
	r.hint_migrated = pagemap_vmstat("numa_pages_migrated");
	race(&r, &rng);
	STORE(r.stop, true);
	pthread_join(thread, NULL);
	t0 = now_s() - t0;
	r.hint_faults = pagemap_vmstat("numa_hint_faults") - r.hint_faults;
	r.hint_migrated = pagemap_vmstat("numa_pages_migrated") - r.hint_migrated;
	teardown(&r);
	check_pins(&r, pins);
	report(&r, t0);
	return r.c.failures || interrupted ? 1 : 0;
}

static int run_matrix(const struct opts *o, struct folio_sizes *fs)
{
	unsigned int i, j;
	int rc = 0;

	for (i = 0; i < (unsigned int)o->nr_sizes && !interrupted; i++) {
		if (folio_select(fs, o->sizes[i])) {
			printf("gup-race: FAIL %luk: cannot select this folio size\n",
			       o->sizes[i]);
			rc = 1;
			continue;
		}
		for (j = 0; j < NR_RACERS && !interrupted; j++)
			if (o->racers & (1U << j))
				rc |= run_one(o, fs, o->sizes[i], &racers[j]);
	}
	return rc;
}

/* --- options --- */

static void usage(FILE *f)
{
	fputs("usage: gup-race [--size 4k|64k|2m|all] [--racer mprotect|dontneed|collapse|fork|pageout|move|numa|all]\n"
	      "                [--seconds S] [--mb N] [--seed N] [--inject misplace|stale|zero|torn] [-v]\n", f);
}

static int parse_sizes(struct opts *o, const char *s)
{
	static const unsigned long all[] = { 4, 64, 2048 };

	if (!strcmp(s, "all")) {
		memcpy(o->sizes, all, sizeof(all));
		o->nr_sizes = 3;
		return 0;
	}
	o->nr_sizes = 1;
	if (folio_parse_size(s, &o->sizes[0]))
		return -EINVAL;
	return o->sizes[0] == 4 || o->sizes[0] == 64 || o->sizes[0] == 2048 ?
	       0 : -EINVAL;
}

static int parse_racer(struct opts *o, const char *s)
{
	unsigned int i;

	if (!strcmp(s, "all")) {
		for (i = 0; i < NR_RACERS; i++)
			if (!racers[i].optional)
				o->racers |= 1U << i;
		return 0;
	}
	for (i = 0; i < NR_RACERS; i++) {
		if (!strcmp(s, racers[i].name)) {
			o->racers = 1U << i;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_inject(struct opts *o, const char *s)
{
	static const char *const names[] = { "none", "misplace", "stale", "zero", "torn" };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(s, names[i])) {
			o->inject = i;
			return 0;
		}
	}
	return -EINVAL;
}

static int parse_number(const char *s, double min, double max, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || *v < min || *v > max ? -EINVAL : 0;
}

static int parse_seed(struct opts *o, const char *s)
{
	char *end;

	errno = 0;
	o->seed = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -EINVAL : 0;
}

static int parse_one(struct opts *o, int c, const char *arg)
{
	double v;

	switch (c) {
	case 'z':
		return parse_sizes(o, arg);
	case 'r':
		return parse_racer(o, arg);
	case 'i':
		return parse_inject(o, arg);
	case 's':
		return parse_number(arg, 0.1, 3600, &o->seconds);
	case 'm':
		if (parse_number(arg, 2, 1024, &v) || (unsigned long)v % 2 ||
		    v != (unsigned long)v)
			return -EINVAL;
		o->mb = v;
		return 0;
	case 'S':
		return parse_seed(o, arg);
	case 'v':
		o->verbose = true;
		return 0;
	}
	return -EINVAL;
}

static const char *option_name(const struct option *lopts, int c)
{
	for (; lopts->name; lopts++)
		if (lopts->val == c)
			return lopts->name;
	return "?";
}

static int parse(struct opts *o, int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "size", required_argument, NULL, 'z' },
		{ "racer", required_argument, NULL, 'r' },
		{ "seconds", required_argument, NULL, 's' },
		{ "mb", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 'S' },
		{ "inject", required_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	memset(o, 0, sizeof(*o));
	parse_sizes(o, "all");
	parse_racer(o, "all");
	o->seconds = 2;
	o->mb = 4;
	o->seed = (uint64_t)time(NULL) ^ getpid();
	opterr = 0;
	while ((c = getopt_long(argc, argv, "v", lopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			exit(0);
		}
		if (c == '?') {
			fprintf(stderr, "gup-race: unknown option or missing value: '%s' (try --help)\n",
				argv[optind - 1]);
			return -EINVAL;
		}
		if (parse_one(o, c, optarg)) {
			fprintf(stderr, "gup-race: bad value for --%s: '%s' (try --help)\n",
				option_name(lopts, c), optarg);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gup-race: unexpected argument '%s' (try --help)\n",
			argv[optind]);
		return -EINVAL;
	}
	o->seed |= !o->seed;	/* xorshift's one fixed point */
	return 0;
}

static void on_signal(int sig)
{
	interrupted = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct folio_sizes fs;
	struct opts o;
	int rc;

	if (parse(&o, argc, argv))
		return 2;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (folio_discover(&fs, false)) {
		fprintf(stderr, "gup-race: no anonymous THP sizes under /sys/kernel/mm/transparent_hugepage\n");
		return 1;
	}
	/* Stop cleanly, so that the THP knobs are put back. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = run_matrix(&o, &fs);
	folio_restore(&fs);
	if (interrupted)
		fprintf(stderr, "gup-race: interrupted\n");
	return rc;
}
