// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's build ID, which a trace records so that the
 * vmlinux that resolves its stacks later (kernel/dwarf.c), on any
 * machine, can be checked to be the traced kernel's.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "kernel/buildid.h"

/* Notes are 4-byte aligned: name and descriptor each padded. */
#define ALIGN4(x)	(((x) + 3) & ~(size_t)3)

int buildid_parse(const void *notes, size_t len, char *buf, size_t buflen)
{
	const unsigned char *p = notes, *end = p + len;
	Elf64_Nhdr nh;
	size_t i;

	while ((size_t)(end - p) >= sizeof(nh)) {
		memcpy(&nh, p, sizeof(nh));
		p += sizeof(nh);
		if (ALIGN4(nh.n_namesz) > (size_t)(end - p) ||
		    ALIGN4(nh.n_descsz) > (size_t)(end - p) - ALIGN4(nh.n_namesz))
			return -EINVAL;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(p, "GNU", 4)) {
			p += 4;
			if (!nh.n_descsz || 2 * nh.n_descsz >= buflen)
				return -EINVAL;
			for (i = 0; i < nh.n_descsz; i++)
				snprintf(buf + 2 * i, 3, "%02x", p[i]);
			return 0;
		}
		p += ALIGN4(nh.n_namesz) + ALIGN4(nh.n_descsz);
	}
	return -ENOENT;
}

int buildid_read(const char *path, char *buf, size_t len)
{
	unsigned char notes[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, notes, sizeof(notes));
	close(fd);
	if (n < 0)
		return -errno;
	return buildid_parse(notes, n, buf, len);
}
