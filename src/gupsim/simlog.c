// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin writes a line with one write() before the guest runs on, so
 * a reader that comes after a call finds that call's line whole; the
 * buffer keeps a part line anyway, so that a read that races a write
 * loses nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "gupsim/simlog.h"

int simlog_open(struct simlog *l, const char *path)
{
	l->len = 0;
	l->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (l->fd < 0)
		return -errno;
	if (lseek(l->fd, 0, SEEK_END) < 0) {
		close(l->fd);
		l->fd = -1;
		return -errno;
	}
	return 0;
}

void simlog_close(struct simlog *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

static int counts_parse(const char *s, uint64_t *n)
{
	int i, used;

	for (i = 0; i < GS_NR; i++, s += used)
		if (sscanf(s, " %" SCNu64 "%n", &n[i], &used) != 1)
			return -EPROTO;
	return *s && *s != '\n' ? -EPROTO : 0;
}

int simrec_parse(const char *line, struct simrec *r)
{
	int used = 0;

	memset(r, 0, sizeof(*r));
	if (!strncmp(line, "ready ", 6) || !strncmp(line, "error ", 6)) {
		r->type = line[0] == 'r' ? SIMREC_READY : SIMREC_ERROR;
		snprintf(r->text, sizeof(r->text), "%.*s", (int)strcspn(line + 6, "\n"), line + 6);
		return 0;
	}
	if (sscanf(line, "call %63s %u%n", r->name, &r->vcpu, &used) == 2 && used) {
		r->type = SIMREC_CALL;
		return counts_parse(line + used, r->n);
	}
	if (sscanf(line, "prof %63s %" SCNx64 "%n", r->name, &r->addr, &used) == 2 && used) {
		r->type = SIMREC_PROF;
		return counts_parse(line + used, r->n);
	}
	if (!strcmp(line, "profend")) {
		r->type = SIMREC_PROFEND;
		return 0;
	}
	if (sscanf(line, "mark %u%n", &r->vcpu, &used) == 1 && used) {
		r->type = SIMREC_MARK;
		return counts_parse(line + used, r->n);
	}
	return -EPROTO;
}

int simlog_next(struct simlog *l, struct simrec *r)
{
	char *nl;
	ssize_t got;
	size_t len;
	int err;

	for (;;) {
		nl = memchr(l->buf, '\n', l->len);
		if (nl) {
			*nl = 0;
			err = simrec_parse(l->buf, r);
			len = nl + 1 - l->buf;
			memmove(l->buf, nl + 1, l->len - len);
			l->len -= len;
			return err ?: 1;
		}
		if (l->len == sizeof(l->buf))
			return -EPROTO;
		got = read(l->fd, l->buf + l->len, sizeof(l->buf) - l->len);
		if (got < 0)
			return -errno;
		if (!got)
			return 0;
		l->len += got;
	}
}
