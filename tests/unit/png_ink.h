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

static int png_max(const unsigned char *p)
{
	return p[0] > p[1] ? (p[0] > p[2] ? p[0] : p[2]) : (p[1] > p[2] ? p[1] : p[2]);
}

/* How far a pixel is from grey: its max - min channel. */
static int png_chroma(const unsigned char *p)
{
	int min = p[0] < p[1] ? (p[0] < p[2] ? p[0] : p[2]) : (p[1] < p[2] ? p[1] : p[2]);

	return png_max(p) - min;
}

/* A coloured pixel's hue, in PNG_HUES slots; -1 for a grey one. */
static int png_hue(const unsigned char *p)
{
	int r = p[0], g = p[1], b = p[2], max = png_max(p), c = png_chroma(p), h;

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

/* A decoded picture: rows of 1 filter byte and width * bpp bytes. */
struct png_image {
	unsigned int width, height;
	int bpp;		/* 3 (RGB) or 4 (RGBA) */
	size_t stride;
	unsigned char *raw;
};

/* Pixel (@x, @y)'s red, green and blue. */
static inline const unsigned char *png_px(const struct png_image *img, unsigned int x,
					  unsigned int y)
{
	return img->raw + y * (img->stride + 1) + 1 + (size_t)x * img->bpp;
}

/* @path decoded into @img (png_free() it): 0, or -1 for a file this reader does not take. */
static int png_load(const char *path, struct png_image *img)
{
	unsigned char *buf = NULL, *idat = NULL;
	size_t len = 0, nidat = 0, off = 8;
	unsigned long rawlen;
	int ret = -1;
	FILE *f = fopen(path, "rb");

	memset(img, 0, sizeof(*img));
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
			img->width = png_be32(data);
			img->height = png_be32(data + 4);
			img->bpp = data[9] == 6 ? 4 : data[9] == 2 ? 3 : 0;
			if (data[8] != 8 || !img->bpp || data[12])
				goto out;
		} else if (!memcmp(type, "IDAT", 4)) {
			memcpy(idat + nidat, data, n);
			nidat += n;
		}
		off += 12 + n;
	}
	img->stride = (size_t)img->width * img->bpp;
	rawlen = (img->stride + 1) * img->height;
	img->raw = malloc(rawlen ? rawlen : 1);
	if (!img->raw || !img->bpp || uncompress(img->raw, &rawlen, idat, nidat) != Z_OK ||
	    rawlen != (img->stride + 1) * img->height ||
	    png_unfilter(img->raw, img->height, img->stride, img->bpp))
		goto out;
	ret = 0;
out:
	free(buf);
	free(idat);
	if (ret) {
		free(img->raw);
		img->raw = NULL;
	}
	return ret;
}

static void png_free(struct png_image *img)
{
	free(img->raw);
	img->raw = NULL;
}

/* Count @path's pixels: 0, or -1 for a file this reader does not take. */
static int png_ink_count(const char *path, unsigned int rgb, struct png_ink *ink)
{
	struct png_image img;

	memset(ink, 0, sizeof(*ink));
	if (png_load(path, &img))
		return -1;
	ink->width = img.width;
	ink->height = img.height;
	png_count(img.raw, ink, img.stride, img.bpp, rgb);
	png_free(&img);
	return 0;
}

#endif /* __GUPSTAT_PNG_INK_H */
