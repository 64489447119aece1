// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph a person looks at: gupstat report --folded's file
 * drawn by speedscope (tools/speedscope, from the npm registry) in
 * headless Chromium (tests/render-flame), and the screenshot checked:
 * frames drawn in colour, in several hues, where a profile of nothing
 * (one stack of weight 0, through the same steps) draws none; and one
 * function held at several offsets drawn as one tower folded by
 * function, one per offset folded by address.
 *   test_flame_render [FOLDED]
 * FOLDED: a file to draw instead of the made-up trace's (tests/check
 * gives the guest's 256 MB pin), its screenshot then kept beside it as
 * FOLDED.png. Run from the source tree.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "tap.h"
#include "report/export.h"
#include "png_ink.h"
#include "scratch.h"
#include "synth.h"

#define WIDTH	1200
#define HEIGHT	700

/* Screenshot @folded into @png: 0 when it was drawn. */
static int render(const char *folded, const char *png)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "tests/render-flame %s %s %d,%d >%s 2>&1",
		 folded, png, WIDTH, HEIGHT, scratch("render.log"));
	return system(cmd) || access(png, R_OK);
}

/* @trace folded by hold time into @folded, by function or @by_address. */
static void fold(const char *trace, const char *folded, bool by_address)
{
	struct trace_summary s;
	struct trace_file tf;
	FILE *f;

	trace_file_read(&tf, trace);
	summary_read(&tf, 0, &s);
	f = fopen(folded, "w");
	export_folded(f, &tf, &s, FOLDED_NS, by_address);
	fclose(f);
	summary_free(&s);
	trace_file_free(&tf);
}

/* The made-up trace, folded by ns: a few stacks of 3 and 4 frames. */
static void write_folded(const char *trace, const char *folded)
{
	struct trace_rec recs[400];
	size_t i;

	for (i = 0; i < 400; i++) {
		recs[i] = synth_rec(i, i % 3 ? 700 + i : 2000 + 10 * i);
		if (i % 7 == 0)
			recs[i].stack = GT_NO_STACK;
	}
	synth_write(trace, recs, 400, 0);
	fold(trace, folded, false);
}

/*
 * Holds in one function at NR_OFFSETS offsets, under the same callers:
 * stack 1 + k holds at follow_page_pte+offset k, weighing less with
 * each k, so that every offset's frame is wide enough to see.
 */
#define NR_OFFSETS	4

static void write_offsets(const char *trace)
{
	static const char *const offs[NR_OFFSETS] = {
		"follow_page_pte+0x10", "follow_page_pte+0x24", "follow_page_pte+0x38",
		"follow_page_pte+0x4c",
	};
	struct trace_end e = { .end_ns = SYNTH_START_NS + 2000000000ULL };
	const char *frames[] = { NULL, "__get_user_pages+0x1b4", "__gup_longterm_locked+0x5e",
				 "gup_test_ioctl+0x2a1 [gup_test]" };
	struct trace_writer w;
	FILE *f = synth_begin(trace, &w, 0);
	size_t i, k;

	for (i = 0; f && i < 40; i++) {
		struct trace_rec r = synth_rec(i, 1000 * (NR_OFFSETS + 2 - i % NR_OFFSETS));

		r.stack = 1 + i % NR_OFFSETS;
		trace_writer_record(&w, &r);
	}
	for (k = 0; f && k < NR_OFFSETS; k++) {
		frames[0] = offs[k];
		trace_writer_stack(&w, 1 + k, 4, NULL, frames);
	}
	if (f) {
		trace_writer_finish(&w, &e);
		fclose(f);
	}
}

/*
 * speedscope opens on its Time Order view, an icicle: the root's row at
 * the top, each callee's row 20 pixels below its caller's, frames
 * apart by a white gap (1 or 2 pixels), in pale colours that text and
 * grey grid lines cross but never white. Frames of one name side by
 * side are one frame there, as in its Left Heavy view: by function,
 * the offsets' lines read the same. The frames in pixel row @y:
 * runs of pixels not white, 8 wide or more, with a colour in them.
 */
static unsigned int row_frames(const struct png_image *img, unsigned int y)
{
	unsigned int x, run = 0, n = 0;
	int coloured = 0;

	for (x = 0; x <= img->width; x++) {
		const unsigned char *p = x < img->width ? png_px(img, x, y) : NULL;

		if (!p || (p[0] >= 250 && p[1] >= 250 && p[2] >= 250)) {
			n += run >= 8 && coloured;
			run = coloured = 0;
			continue;
		}
		coloured |= png_chroma(p) >= 16;
		run++;
	}
	return n;
}

/*
 * The deepest row of frames in @png, below the overview that speedscope
 * draws above its chart: the leaf's. Its pixel row, or -1 (no picture,
 * or no frame); its frames in *@n.
 */
static int deepest_row(const char *png, unsigned int *n)
{
	struct png_image img;
	int y;

	*n = 0;
	if (png_load(png, &img))
		return -1;
	for (y = (int)img.height - 1; y >= 0 && !(*n = row_frames(&img, y)); y--)
		;
	png_free(&img);
	return y;
}

/*
 * follow_page_pte at NR_OFFSETS offsets: by address, its row has one
 * frame per offset; by function, at the same depth, one frame.
 */
static void towers(void)
{
	const char *trace = scratch("offsets.gt"), *by_fn = scratch("by-function.folded");
	const char *by_addr = scratch("by-address.folded"), *png = scratch("towers.png");
	unsigned int n_addr = 0, n_fn = 0;
	int y_addr, y_fn;

	write_offsets(trace);
	fold(trace, by_fn, false);
	fold(trace, by_addr, true);
	y_addr = render(by_addr, png) ? -1 : deepest_row(png, &n_addr);
	CHECK(y_addr > 0, "by address: speedscope draws follow_page_pte's row (pixel row %d)",
	      y_addr);
	CHECK(n_addr == NR_OFFSETS, "by address: %u frames in that row, one per offset (want %d)",
	      n_addr, NR_OFFSETS);
	y_fn = render(by_fn, png) ? -1 : deepest_row(png, &n_fn);
	CHECK(y_fn > 0 && y_fn == y_addr, "by function: follow_page_pte's row as deep (pixel row %d, %d by address)",
	      y_fn, y_addr);
	CHECK(n_fn == 1, "by function: the offsets one tower, frames in that row: %u (want 1)", n_fn);
}

/* Hues that cover 0.2% of the picture or more: one per frame colour. */
static unsigned int hues(const struct png_ink *ink)
{
	unsigned int i, n = 0;

	for (i = 0; i < PNG_HUES; i++)
		n += ink->hue[i] > ink->pixels / 500;
	return n;
}

static void look(const char *folded, const char *png, const char *what)
{
	struct png_ink ink;
	struct stat st;

	CHECK(!stat(folded, &st) && st.st_size > 0, "%s: %s has %lld bytes", what, folded,
	      (long long)st.st_size);
	CHECK(render(folded, png) == 0, "%s: speedscope in headless Chromium draws it", what);
	CHECK(png_ink_count(png, 0, &ink) == 0 && ink.width == WIDTH && ink.height == HEIGHT,
	      "%s: a %dx%d PNG (%ux%u)", what, WIDTH, HEIGHT, ink.width, ink.height);
	CHECK(ink.coloured > ink.pixels / 20, "%s: %lu of %lu pixels in colour, frames (want 5%% or more)",
	      what, ink.coloured, ink.pixels);
	CHECK(hues(&ink) >= 3, "%s: frames in %u hues (want 3 or more)", what, hues(&ink));
}

int main(int argc, char **argv)
{
	const char *trace = scratch("t.gt"), *folded = scratch("t.folded");
	const char *blank = scratch("blank.folded"), *png = scratch("shot.png");
	struct png_ink ink;
	FILE *f;

	if (argc < 2)
		write_folded(trace, folded);
	if (system("command -v chromium >/dev/null") || system("command -v npm >/dev/null") ||
	    access("tests/render-flame", X_OK)) {
		SKIP("no chromium or npm (make deps), or not run from the source tree");
		return check_done();
	}
	look(argc < 2 ? folded : argv[1], png, argc < 2 ? "made-up trace" : "given file");
	if (argc >= 2) {
		char cmd[PATH_MAX + 200];

		snprintf(cmd, sizeof(cmd), "cp %s '%s.png'", png, argv[1]);
		CHECK(!system(cmd), "the screenshot kept as %s.png", argv[1]);
	}

	towers();
	f = fopen(blank, "w");
	fputs("[no stack] 0\n", f);
	fclose(f);
	CHECK(render(blank, png) == 0 && png_ink_count(png, 0, &ink) == 0 &&
	      ink.coloured < ink.pixels / 100 && hues(&ink) < 3,
	      "negative control: a profile of nothing shows no frames (%lu coloured, %u hues)",
	      ink.coloured, hues(&ink));
	return check_done();
}
