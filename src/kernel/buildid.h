/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_KERNEL_BUILDID_H
#define __GUPSTAT_KERNEL_BUILDID_H

#include <stddef.h>

/*
 * The GNU build ID in the ELF notes at @path (the running kernel's:
 * /sys/kernel/notes) into @buf as lower-case hex: 0, or -errno (-ENOENT
 * when the notes have none).
 */
int buildid_read(const char *path, char *buf, size_t len);

/* The same from @len bytes of notes at @notes. */
int buildid_parse(const void *notes, size_t len, char *buf, size_t buflen);

#endif /* __GUPSTAT_KERNEL_BUILDID_H */
