// SPDX-License-Identifier: GPL-2.0
/*
 * The handler entries are the asm_* stubs that the IDT points at (and
 * asm_common_interrupt, where every device vector's stub jumps): a
 * block that starts there was entered by an interrupt or an exception,
 * since no kernel code calls them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gupsim/simctl.h"
#include "kernel/ksyms.h"
#include "util/msg.h"

static const char *const irq_prefixes[] = {
	"asm_exc_", "asm_sysvec_", "asm_common_interrupt", "asm_spurious_interrupt",
};

static bool is_irq_entry(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(irq_prefixes) / sizeof(irq_prefixes[0]); i++)
		if (!strncmp(name, irq_prefixes[i], strlen(irq_prefixes[i])) && !strchr(name, ' '))
			return true;
	return false;
}

/* Every handler entry and __switch_to_asm's extent from @ks. */
static int find_handlers(struct simctl *c, const struct ksyms *ks)
{
	const char *name;
	size_t i;
	__u64 a;

	for (i = 0; i < ksyms_nr(ks); i++) {
		name = ksyms_at(ks, i, &a);
		if (!strcmp(name, "__switch_to_asm")) {
			c->switch_start = a;
			c->switch_end = ksyms_end(ks, a);
		} else if (is_irq_entry(name) && c->nr_irq < GUPSIM_MAX_IRQ) {
			c->irq[c->nr_irq++] = a;
		}
	}
	if (!c->nr_irq || !c->switch_end) {
		p_err("--sim: no %s in /proc/kallsyms: what interrupts and other tasks do would count as the call's\n",
		      c->nr_irq ? "__switch_to_asm" : "interrupt entry (asm_exc_*, asm_sysvec_*)");
		return -ENOENT;
	}
	return 0;
}

int simctl_init(struct simctl *c, const char *dir, const char *kallsyms,
		const char *const *funcs, int nr)
{
	struct ksyms *ks;
	int err, i;

	memset(c, 0, sizeof(*c));
	c->dir = dir;
	if (!GUPSIM_HAS_MARKER) {
		p_err("--sim: the cache model runs x86-64 guests only\n");
		return -EOPNOTSUPP;
	}
	if (nr > GUPSIM_MAX_FUNCS) {
		p_err("--sim: at most %d functions\n", GUPSIM_MAX_FUNCS);
		return -E2BIG;
	}
	err = ksyms_lookup(kallsyms, funcs, c->addr, nr);
	if (err) {
		p_err("--sim: cannot read %s: %s\n", kallsyms, strerror(-err));
		return err;
	}
	for (i = 0; i < nr; i++) {
		if (!c->addr[i]) {
			p_err("--sim: no address for %s in %s\n", funcs[i], kallsyms);
			return -ENOENT;
		}
		c->func[i] = funcs[i];
	}
	c->nr_funcs = nr;
	ks = ksyms_load(kallsyms);
	if (!ks)
		return -EIO;
	err = find_handlers(c, ks);
	ksyms_free(ks);
	return err;
}

static int ctl_text(const struct simctl *c, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	for (i = 0; i < c->nr_funcs && n < len; i++)
		n += snprintf(buf + n, len - n, "func %s 0x%llx\n", c->func[i],
			      (unsigned long long)c->addr[i]);
	if (c->vmemmap_start && n < len)
		n += snprintf(buf + n, len - n, "vmemmap 0x%llx 0x%llx\n",
			      (unsigned long long)c->vmemmap_start, (unsigned long long)c->vmemmap_end);
	for (i = 0; i < c->nr_irq && n < len; i++)
		n += snprintf(buf + n, len - n, "irq 0x%llx\n", (unsigned long long)c->irq[i]);
	if (n < len)
		n += snprintf(buf + n, len - n, "switch 0x%llx 0x%llx\n",
			      (unsigned long long)c->switch_start, (unsigned long long)c->switch_end);
	return n < len ? (int)n : -ENOSPC;
}

/* Replaced in place: the plugin reads it by this name. */
static int write_ctl(const struct simctl *c)
{
	char path[4096], buf[8192];
	struct stat st;
	int fd, n, err;

	if (snprintf(path, sizeof(path), "%s/%s", c->dir, GUPSIM_CTL) >= (int)sizeof(path)) {
		p_err("--sim: path too long: %s\n", c->dir);
		return -ENAMETOOLONG;
	}
	n = ctl_text(c, buf, sizeof(buf));
	if (n < 0) {
		p_err("--sim: too much to tell the cache model\n");
		return n;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = fd < 0 ? -errno : -EINVAL;
		p_err("--sim: cannot write %s: %s\n", path, fd < 0 ? strerror(-err) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return err;
	}
	err = write(fd, buf, n) == n ? 0 : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (err)
		p_err("--sim: cannot write %s: %s\n", path, strerror(-err));
	return err;
}

int simctl_say_error(const struct simrec *r)
{
	p_err("--sim: the cache model says: %s\n", r->text);
	return -EPROTO;
}

int simctl_configure(const struct simctl *c, struct simlog *log, char *model, size_t len)
{
	struct simrec rec;
	int err = write_ctl(c);

	if (err)
		return err;
	GUPSIM_MARKER(GUPSIM_CONFIG);
	while ((err = simlog_next(log, &rec)) > 0) {
		if (rec.type == SIMREC_ERROR)
			return simctl_say_error(&rec);
		if (rec.type == SIMREC_READY) {
			snprintf(model, len, "%s", rec.text);
			return 0;
		}
	}
	p_err("--sim: no cache model answered through %s (is this a guest of tools/vmrun --cache-sim?)\n",
	      c->dir);
	return err ?: -ENOENT;
}
