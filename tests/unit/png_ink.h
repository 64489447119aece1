/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough PNG to look at a browser's screenshot: 8-bit RGB or RGBA,
 * not interlaced (what Chromium writes). Counts the pixels that are not
 * white and those near one colour, so a test can tell a drawn plot from
 * a blank page.
 */
#ifndef __GUPSTAT_PNG_INK_H
#define __GUPSTAT_PNG_INK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

struct png_ink {
	unsigned int width, height;
	unsigned long pixels, inked, near;	/* all, not white, near the colour */
};

static unsigned int png_be32(const unsigned char *p)
{
	return (unsigned int)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undo the per-row filters in place; rows are 1 + stride bytes. */
static int png_unfilter(unsigned char *d, unsigned int h, size_t stride, int bpp)
{
	unsigned char *prev = NULL;
	unsigned int y;
	size_t x;

	for (y = 0; y < h; y++) {
		unsigned char *row = d + y * (stride + 1), type = row[0], *p = row + 1;

		for (x = 0; x < stride; x++) {
			int a = x >= (size_t)bpp ? p[x - bpp] : 0, b = prev ? prev[x] : 0;
			int c = prev && x >= (size_t)bpp ? prev[x - bpp] : 0;

			switch (type) {
			case 0: break;
			case 1: p[x] += a; break;
			case 2: p[x] += b; break;
			case 3: p[x] += (a + b) / 2; break;
			case 4: p[x] += paeth(a, b, c); break;
			default: return -1;
			}
		}
		prev = p;
	}
	return 0;
}

static void png_count(const unsigned char *d, struct png_ink *ink, size_t stride, int bpp,
		      unsigned int rgb)
{
	unsigned int y, x, i;

	for (y = 0; y < ink->height; y++) {
		const unsigned char *p = d + y * (stride + 1) + 1;

		for (x = 0; x < ink->width; x++, p += bpp) {
			int close = 1;

			for (i = 0; i < 3; i++)
				close &= abs(p[i] - (int)((rgb >> (16 - 8 * i)) & 0xff)) <= 16;
			ink->pixels++;
			ink->inked += p[0] < 240 || p[1] < 240 || p[2] < 240;
			ink->near += close;
		}
	}
}

/* Count @path's pixels: 0, or -1 for a file this reader does not take. */
static int png_ink_count(const char *path, unsigned int rgb, struct png_ink *ink)
{
	unsigned char *buf = NULL, *idat = NULL, *raw = NULL;
	size_t len = 0, nidat = 0, stride, off = 8;
	unsigned long rawlen;
	int bpp = 0, ret = -1;
	FILE *f = fopen(path, "rb");

	memset(ink, 0, sizeof(*ink));
	if (!f)
		return -1;
	buf = malloc(1 << 26);
	len = buf ? fread(buf, 1, 1 << 26, f) : 0;
	fclose(f);
	idat = malloc(len + 1);
	if (!idat || len < 33 || memcmp(buf, "\x89PNG\r\n\x1a\n", 8))
		goto out;
	while (off + 12 <= len) {
		unsigned int n = png_be32(buf + off);
		const unsigned char *type = buf + off + 4, *data = buf + off + 8;

		if (n > len - off - 12)
			goto out;
		if (!memcmp(type, "IHDR", 4)) {
			ink->width = png_be32(data);
			ink->height = png_be32(data + 4);
			bpp = data[9] == 6 ? 4 : data[9] == 2 ? 3 : 0;
			if (data[8] != 8 || !bpp || data[12])
				goto out;
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + nidat, data, n);
			nidat += n;
		}
		off += 12 + n;
	}
	stride = (size_t)ink->width * bpp;
	rawlen = (stride + 1) * ink->height;
	raw = malloc(rawlen ? rawlen : 1);
	if (!raw || !bpp || uncompress(raw, &rawlen, idat, nidat) != Z_OK ||
	    rawlen != (stride + 1) * ink->height || png_unfilter(raw, ink->height, stride, bpp))
		goto out;
	png_count(raw, ink, stride, bpp, rgb);
	ret = 0;
out:
	free(buf);
	free(idat);
	free(raw);
	return ret;
}

#endif /* __GUPSTAT_PNG_INK_H */
