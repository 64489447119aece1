// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin cannot read the guest's stack pointer (QEMU 7.2 gives
 * plugins no registers), so a call's end is found from memory: at a
 * function's entry the first store is the push of a callee-saved
 * register, or the call into an attached BPF trampoline, one slot below
 * the return address. The call ends when a ret loads that slot: the
 * function's own return, a tail call's, or a trampoline's that returns
 * for it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include "site.h"
#include "window.h"

static FILE *log_file;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

int log_open(const char *path)
{
	log_file = fopen(path, "w");
	return log_file ? 0 : -errno;
}

/* One line, written through before the guest runs on: it reads it next. */
void log_line(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&log_lock);
	va_start(ap, fmt);
	vfprintf(log_file, fmt, ap);
	va_end(ap);
	fputc('\n', log_file);
	fflush(log_file);
	pthread_mutex_unlock(&log_lock);
}

static int config_line(struct config *c, const char *line)
{
	char name[GUPSIM_NAME_MAX];
	unsigned long long a, b;

	if (sscanf(line, "irq %llx", &a) == 1) {
		if (c->nr_irq == GUPSIM_MAX_IRQ)
			return -E2BIG;
		c->irq[c->nr_irq++] = a;
		return 0;
	}
	if (sscanf(line, "switch %llx %llx", &a, &b) == 2 && a < b) {
		c->switch_start = a;
		c->switch_end = b;
		return 0;
	}

	if (sscanf(line, "func %63s %llx", name, &a) == 2) {
		if (c->nr_funcs == GUPSIM_MAX_FUNCS)
			return -E2BIG;
		snprintf(c->name[c->nr_funcs], GUPSIM_NAME_MAX, "%s", name);
		c->addr[c->nr_funcs++] = a;
		return 0;
	}
	if (sscanf(line, "vmemmap %llx %llx", &a, &b) == 2 && a < b) {
		c->vmemmap_start = a;
		c->vmemmap_end = b;
		return 0;
	}
	return -EINVAL;
}

int config_load(struct config *c, const char *path)
{
	struct config next = { 0 };
	char line[256];
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f))
		err = config_line(&next, line);
	fclose(f);
	if (!err)
		*c = next;
	return err;
}

void counts_line(char *buf, size_t len, const uint64_t *n)
{
	size_t off = 0;
	int i;

	for (i = 0; i < GS_NR; i++)
		off += snprintf(buf + off, len - off, " %" PRIu64, n[i]);
}

void window_enter(struct vcpu *v, int func, struct site *s)
{
	v->pending = func;
	v->pending_site = s;
	v->pending_insns = 0;
}

void window_first_store(struct vcpu *v, const struct config *c, uint64_t vaddr, bool push_or_call,
			unsigned int cpu)
{
	struct window *w;
	uint64_t *prof;
	int f = v->pending;

	v->pending = -1;
	if (!push_or_call) {
		log_line("error %s: its first store on vCPU %u is not a push or a call: call not counted",
			 c->name[f], cpu);
		return;
	}
	if (v->nr_open == MAX_WINDOWS) {
		log_line("error %s: more than %d calls open on vCPU %u: call not counted",
			 c->name[f], MAX_WINDOWS, cpu);
		return;
	}
	w = &v->win[v->nr_open++];
	memset(w, 0, sizeof(*w));
	w->func = f;
	w->slot = vaddr + 8;
	w->task = v->task;
	/* The entry block up to this store ran before the window opened. */
	w->n[GS_INSNS] = v->pending_insns;
	prof = site_prof(v->pending_site, f);
	if (prof)
		prof[GS_INSNS] += v->pending_insns;
}

/* One access that missed MISSED levels (0: an L1 hit, 3: memory). */
static void add(uint64_t *n, bool sp, int missed)
{
	int base = sp ? GS_SP_ACCESS : GS_ACCESS, i;

	for (i = 0; i <= missed; i++) {
		n[GS_ACCESS + i]++;
		if (sp)
			n[base + i]++;
	}
}

/* Is what runs now on this vCPU the work of window W's call? */
static bool own(const struct vcpu *v, const struct window *w)
{
	return !v->irq_depth && w->task == v->task;
}

/* The same for the span between two markers: the task that began it. */
static bool own_mark(const struct vcpu *v)
{
	return !v->irq_depth && v->mark_task == v->task;
}

void window_count(struct vcpu *v, struct site *s, bool sp, int missed)
{
	uint64_t *prof;
	int i;

	for (i = 0; i < v->nr_open; i++) {
		struct window *w = &v->win[i];

		if (!own(v, w)) {
			w->n[GS_OTHER_ACCESS]++;
			continue;
		}
		add(w->n, sp, missed);
		prof = s ? site_prof(s, w->func) : NULL;
		if (prof)
			add(prof, sp, missed);
	}
	if (v->marked && own_mark(v))
		add(v->mark, sp, missed);
}

/* N instructions of the block at S (NULL: user space) start to run. */
void window_insns(struct vcpu *v, struct site *s, uint64_t n)
{
	uint64_t *prof;
	int i;

	if (v->pending >= 0)
		v->pending_insns += n;
	for (i = 0; i < v->nr_open; i++) {
		struct window *w = &v->win[i];

		if (!own(v, w)) {
			w->n[GS_OTHER_INSNS] += n;
			continue;
		}
		w->n[GS_INSNS] += n;
		prof = s ? site_prof(s, w->func) : NULL;
		if (prof)
			prof[GS_INSNS] += n;
	}
	if (v->marked && own_mark(v))
		v->mark[GS_INSNS] += n;
}

/*
 * A marker is counted from the instruction after it: a block's count is
 * added when it starts, so a begin marker adds what follows it in its
 * block, an end marker takes back itself and what follows.
 */
void window_mark_insns(struct vcpu *v, int64_t n)
{
	if (v->marked && own_mark(v))
		v->mark[GS_INSNS] += n;
}

/* A ret loaded VADDR: the innermost window whose slot it is ends. */
void window_ret(struct vcpu *v, const struct config *c, uint64_t vaddr, unsigned int cpu)
{
	char counts[512];
	int i;

	for (i = v->nr_open - 1; i >= 0; i--) {
		if (v->win[i].slot != vaddr)
			continue;
		counts_line(counts, sizeof(counts), v->win[i].n);
		log_line("call %s %u%s", c->name[v->win[i].func], cpu, counts);
		memmove(&v->win[i], &v->win[i + 1], (v->nr_open - i - 1) * sizeof(v->win[0]));
		v->nr_open--;
		return;
	}
}

void window_mark(struct vcpu *v, bool begin, unsigned int cpu)
{
	char counts[512];

	if (begin) {
		memset(v->mark, 0, sizeof(v->mark));
		v->marked = true;
		v->mark_task = v->task;
		return;
	}
	if (!v->marked) {
		log_line("error an end marker on vCPU %u without a begin", cpu);
		return;
	}
	v->marked = false;
	counts_line(counts, sizeof(counts), v->mark);
	log_line("mark %u%s", cpu, counts);
}
