/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough PNG to look at a browser's screenshot: 8-bit RGB or RGBA,
 * not interlaced (what Chromium writes). Counts the pixels that are not
 * white, those near one colour, and the coloured ones (not grey) by hue,
 * so a test can tell a drawn plot or flame graph from a blank page.
 */
#ifndef __GUPSTAT_PNG_INK_H
#define __GUPSTAT_PNG_INK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PNG_HUES	12	/* 30 degrees each, red first */
#define PNG_CHROMA_MIN	40	/* max - min channel of a coloured pixel */

struct png_ink {
	unsigned int width, height;
	unsigned long pixels, inked, near;	/* all, not white, near the colour */
	unsigned long coloured;			/* not grey, black or white */
	unsigned long hue[PNG_HUES];		/* the coloured ones by hue */
};

/* A coloured pixel's hue, in PNG_HUES slots; -1 for a grey one. */
static int png_hue(const unsigned char *p)
{
	int r = p[0], g = p[1], b = p[2];
	int max = r > g ? (r > b ? r : b) : (g > b ? g : b);
	int min = r < g ? (r < b ? r : b) : (g < b ? g : b), c = max - min, h;

	if (c < PNG_CHROMA_MIN)
		return -1;
	if (max == r)
		h = (60 * (g - b) / c + 360) % 360;
	else if (max == g)
		h = 60 * (b - r) / c + 120;
	else
		h = 60 * (r - g) / c + 240;
	return h * PNG_HUES / 360 % PNG_HUES;
}

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
			int close = 1, hue = png_hue(p);

			for (i = 0; i < 3; i++)
				close &= abs(p[i] - (int)((rgb >> (16 - 8 * i)) & 0xff)) <= 16;
			ink->pixels++;
			ink->inked += p[0] < 240 || p[1] < 240 || p[2] < 240;
			ink->near += close;
			if (hue >= 0) {
				ink->coloured++;
				ink->hue[hue]++;
			}
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
