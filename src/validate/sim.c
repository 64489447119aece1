// SPDX-License-Identifier: GPL-2.0
/*
 * The cache model's side of gupstat validate. The plugin is asked first
 * whether it is there at all, then learns from the guest what to count: the two functions' entry addresses from this
 * kernel's kallsyms, and the struct page range [vmemmap_base, + max_pfn
 * pages), which the validate programs read in the kernel. It then logs
 * one line per call of either, written before the call returns to the
 * guest, so after each repeat the lines of that repeat's two calls are
 * already there to read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "gupsim.h"
#include "util/ksyms.h"
#include "util/msg.h"
#include "validate/probe.h"
#include "validate/sim.h"

static int sim_path(const struct vsim *s, const char *file, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/%s", s->dir, file) >= (int)len) {
		p_err("--sim: path too long: %s\n", s->dir);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Replaced in place: the plugin reads it by this name. */
static int write_ctl(const struct vsim *s, __u64 start, __u64 end)
{
	char path[4096], buf[512];
	struct stat st;
	int fd, n, err;

	err = sim_path(s, GUPSIM_CTL, path, sizeof(path));
	if (err)
		return err;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = fd < 0 ? -errno : -EINVAL;
		p_err("--sim: cannot write %s: %s\n", path, fd < 0 ? strerror(-err) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return err;
	}
	n = snprintf(buf, sizeof(buf), "func %s 0x%llx\nfunc %s 0x%llx\n",
		     vprobe_func(V_PIN), (unsigned long long)s->addr[0], vprobe_func(V_UNPIN),
		     (unsigned long long)s->addr[1]);
	if (start)
		n += snprintf(buf + n, sizeof(buf) - n, "vmemmap 0x%llx 0x%llx\n",
			      (unsigned long long)start, (unsigned long long)end);
	err = write(fd, buf, n) == n ? 0 : -EIO;
	if (close(fd) && !err)
		err = -errno;
	if (err)
		p_err("--sim: cannot write %s: %s\n", path, strerror(-err));
	return err;
}

static int say_plugin_error(const struct simrec *r)
{
	p_err("--sim: the cache model says: %s\n", r->text);
	return -EPROTO;
}

/* Tell the plugin, and read its answer: the model in words. */
static int handshake(struct vsim *s, __u64 start, __u64 end, char *model, size_t len)
{
	struct simrec rec;
	int err = write_ctl(s, start, end);

	if (err)
		return err;
	GUPSIM_MARKER(GUPSIM_CONFIG);
	while ((err = simlog_next(&s->log, &rec)) > 0) {
		if (rec.type == SIMREC_ERROR)
			return say_plugin_error(&rec);
		if (rec.type == SIMREC_READY) {
			snprintf(model, len, "%s", rec.text);
			return 0;
		}
	}
	p_err("--sim: no cache model answered through %s (is this a guest of tools/vmrun --cache-sim?)\n",
	      s->dir);
	return err ?: -ENOENT;
}

int vsim_open(struct vsim *s, const char *dir)
{
	const char *names[2] = { vprobe_func(V_PIN), vprobe_func(V_UNPIN) };
	char path[4096], model[256];
	int err, i;

	memset(s, 0, sizeof(*s));
	s->dir = dir;
	s->log.fd = -1;
	err = sim_path(s, GUPSIM_LOG, path, sizeof(path));
	if (err)
		return err;
	err = simlog_open(&s->log, path);
	if (err) {
		p_err("--sim: cannot read %s: %s (a guest of tools/vmrun --cache-sim has it)\n",
		      path, strerror(-err));
		return err;
	}
	err = ksyms_lookup("/proc/kallsyms", names, s->addr, 2);
	if (err) {
		p_err("--sim: cannot read /proc/kallsyms: %s\n", strerror(-err));
		return err;
	}
	for (i = 0; i < 2; i++) {
		if (!s->addr[i]) {
			p_err("--sim: no address for %s in /proc/kallsyms\n", names[i]);
			return -ENOENT;
		}
	}
	/* Asked now, so that no plugin fails before anything is measured. */
	return handshake(s, 0, 0, model, sizeof(model));
}

int vsim_configure(struct vsim *s, struct v_results *r, const struct btf *btf,
		   __u64 vmemmap_start, __u64 pfns)
{
	__s32 id = btf__find_by_name_kind(btf, "page", BTF_KIND_STRUCT);
	__s64 size = id > 0 ? btf__resolve_size(btf, id) : -1;
	int err;

	if (!vmemmap_start || !pfns || size <= 0) {
		p_err("--sim: this kernel's struct page range is unknown (vmemmap_base, max_pfn, struct page in BTF)\n");
		return -ENOENT;
	}
	r->vmemmap_start = vmemmap_start;
	r->vmemmap_end = vmemmap_start + pfns * size;
	err = handshake(s, r->vmemmap_start, r->vmemmap_end, r->sim_model, sizeof(r->sim_model));
	s->ready = !err;
	return err;
}

/* One record each, no more: another call on this CPU is not this test. */
static int take_one(struct simrec *slot, bool *seen, const struct simrec *rec, int idx)
{
	if (seen[idx]) {
		p_err("--sim: the cache model counted two calls of %s in one repeat\n", rec->name);
		return -EPROTO;
	}
	*slot = *rec;
	seen[idx] = true;
	return 0;
}

int vsim_take(struct vsim *s, int cpu, struct vsim_call *out)
{
	bool seen[2] = { false, false };
	struct simrec rec;
	int got = 0, err = 0;

	while (!err && (got = simlog_next(&s->log, &rec)) > 0) {
		if (rec.type == SIMREC_ERROR)
			return say_plugin_error(&rec);
		if (rec.type != SIMREC_CALL || rec.vcpu != (unsigned int)cpu)
			continue;
		if (!strcmp(rec.name, vprobe_func(V_PIN)))
			err = take_one(&out->pin, seen, &rec, 0);
		else if (!strcmp(rec.name, vprobe_func(V_UNPIN)))
			err = take_one(&out->unpin, seen, &rec, 1);
	}
	if (!err && got < 0) {
		p_err("--sim: cannot read the cache model's log: %s\n", strerror(-got));
		return got;
	}
	if (!err && (!seen[0] || !seen[1])) {
		p_err("--sim: the cache model counted no call of %s on CPU %d\n",
		      vprobe_func(seen[0] ? V_UNPIN : V_PIN), cpu);
		return -EPROTO;
	}
	return err;
}

void vsim_close(struct vsim *s)
{
	simlog_close(&s->log);
}
