// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzz seed corpus (make fuzz-corpus): small valid trace files from
 * the writer, shaped like base and batched traces, and truncated and
 * corrupt variants of them, a trace with waits (--waits), and version 2
 * (before the waits) and version 1 (before the cgroups) files.
 * valid-* must be read, bad-* refused.
 */
#include <endian.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "synth.h"

static char dir[512];

static const char *at(const char *name)
{
	static char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static unsigned char *load(const char *name, size_t *len)
{
	FILE *f = fopen(at(name), "rb");
	unsigned char *b = malloc(1 << 20);

	*len = fread(b, 1, 1 << 20, f);
	fclose(f);
	return b;
}

static void save(const char *name, const unsigned char *b, size_t len)
{
	FILE *f = fopen(at(name), "wb");

	fwrite(b, 1, len, f);
	fclose(f);
}

static void valid(void)
{
	struct trace_rec r[8];
	size_t i;

	for (i = 0; i < 8; i++)
		r[i] = synth_rec(i, 700 + 50 * i);
	synth_write(at("valid-base.gt"), r, 8, 0);
	for (i = 0; i < 4; i++) {
		r[i].pages = r[i].stored = 512;
		r[i].flags |= GT_R_FILL;
		r[i].fill_ns = 9000;
		r[i].fills = 3;
	}
	r[3].stack = GT_NO_STACK;
	r[2].result = 1;
	r[2].pages = r[2].stored = 0;
	synth_write(at("valid-batched-addrs.gt"), r, 4,
		    GT_F_FILL_PROBED | GT_F_KERNEL_ADDRS | GT_F_LOCK_EXACT);
	synth_write(at("valid-empty.gt"), r, 0, 0);
}

/*
 * --waits: holds, two of them waited on, and three waits, one on a hold
 * the file lacks (lost); a wait comes before the hold it names, as the
 * ring buffer may give them (the waiter takes the lock as the walk lets
 * it go, before the walk returns).
 */
static void waits(void)
{
	struct trace_rec r[10];
	size_t i;

	for (i = 0; i < 6; i++)
		r[i] = synth_rec(i, 700 + 50 * i);
	r[6] = synth_wait_on(0, &r[1], 100, 4000);
	r[7] = synth_wait_on(1, &r[4], 10, 250);
	r[8] = synth_wait_on(2, &r[4], 300, 90);
	r[8].stack = GT_NO_STACK;
	r[9] = synth_wait(3, &r[0], 5, 60);
	r[9].hold_ts_ns = r[0].ts_ns - 7;	/* a hold the file lacks */
	/* Holds 0-1, the first wait, then the rest. */
	{
		struct trace_rec o[10] = { r[0], r[1], r[6], r[2], r[3], r[4], r[7], r[8], r[5], r[9] };

		synth_write(at("valid-waits.gt"), o, 10, GT_F_WAITS);
	}
}

static void variants(void)
{
	unsigned char *b, *c;
	size_t len, hs;
	__u32 h;

	b = load("valid-base.gt", &len);
	c = malloc(len);
	memcpy(&h, b + offsetof(struct gt_header, header_size), 4);
	hs = le32toh(h);
	save("bad-truncated-header.gt", b, 30);
	save("incomplete-truncated-records.gt", b, hs + 100);
	save("incomplete-no-trailer.gt", b, len - 1);
	memcpy(c, b, len);
	c[0] ^= 0xff;
	save("bad-magic.gt", c, len);
	memcpy(c, b, len);
	c[hs + offsetof(struct gt_record, result)] = 9;
	save("bad-result.gt", c, len);
	memcpy(c, b, len);
	c[len - sizeof(struct gt_trailer) + offsetof(struct gt_trailer, records)] = 0x77;
	save("bad-count.gt", c, len);
	memcpy(c, b, len);
	c[sizeof(struct gt_header) + 1] = 0xff;	/* first key length, high byte */
	save("bad-key-length.gt", c, len);
	memcpy(c, b, len);
	c[offsetof(struct gt_header, clock_id)] = 4;	/* CLOCK_MONOTONIC_RAW */
	save("bad-clock.gt", c, len);
	free(b);
	free(c);
}

/* The cgroup table: its first entry is the root, path "/". */
static void cgroups(void)
{
	size_t len, v1len;
	unsigned char *b = load("valid-base.gt", &len), *c = malloc(len);
	const unsigned char *t = b + len - sizeof(struct gt_trailer);
	size_t cg0 = synth_le64(t + offsetof(struct gt_trailer, cgroups_offset));

	save("valid-v2-base.gt", c, synth_to_v2(b, len, c));
	v1len = synth_to_v1(b, len, c);
	save("valid-v1-base.gt", c, v1len);
	save("incomplete-v1-no-trailer.gt", c, v1len - 1);
	memcpy(c, b, len);
	c[cg0 + offsetof(struct gt_cgroup, path_len) + 1] = 0x20;	/* 8193 bytes */
	save("bad-cgroup-path-length.gt", c, len);
	memcpy(c, b, len);
	c[cg0 + sizeof(struct gt_cgroup)] = 0x1b;
	save("bad-cgroup-path-text.gt", c, len);
	free(b);
	free(c);
}

/*
 * Zero bytes where records would be: never holds. Without a trailer the
 * trace ends at the first zeroed record; with one, it is refused.
 */
static void zeros(void)
{
	size_t len, hs, rec = sizeof(struct gt_record);
	unsigned char *b = load("valid-base.gt", &len), *c = calloc(1, len + 8 * rec);
	__u32 h;

	memcpy(&h, b + offsetof(struct gt_header, header_size), 4);
	hs = le32toh(h);
	/* 3 records, then 8 records' worth of zeros: a preallocated tail. */
	memcpy(c, b, hs + 3 * rec);
	save("incomplete-zero-tail.gt", c, hs + 11 * rec);
	/* The header, then zeros only. */
	memset(c + hs, 0, 3 * rec);
	save("incomplete-zeros-only.gt", c, hs + 8 * rec);
	/* A record zeroed between two good ones, the trailer intact. */
	memcpy(c, b, len);
	memset(c + hs + 2 * rec, 0, rec);
	save("bad-zero-record.gt", c, len);
	/* Without the trailer, the same file ends at the zeroed record. */
	save("incomplete-zero-record.gt", c, hs + 6 * rec);
	free(b);
	free(c);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	valid();
	waits();
	variants();
	cgroups();
	zeros();
	return 0;
}
