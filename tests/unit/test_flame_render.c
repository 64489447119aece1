// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph a person looks at: gupstat report --folded's file
 * drawn by speedscope (tools/speedscope, from the npm registry) in
 * headless Chromium (tests/render-flame), and the screenshot checked:
 * frames drawn in colour, in several hues, where a profile of nothing
 * (one stack of weight 0, through the same steps) draws none.
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

/* The made-up trace, folded by ns: a few stacks of 3 and 4 frames. */
static void write_folded(const char *trace, const char *folded)
{
	struct trace_rec recs[400];
	struct trace_summary s;
	struct trace_file tf;
	size_t i;
	FILE *f;

	for (i = 0; i < 400; i++) {
		recs[i] = synth_rec(i, i % 3 ? 700 + i : 2000 + 10 * i);
		if (i % 7 == 0)
			recs[i].stack = GT_NO_STACK;
	}
	synth_write(trace, recs, 400, 0);
	trace_file_read(&tf, trace);
	summary_read(&tf, 0, &s);
	f = fopen(folded, "w");
	export_folded_ns(f, &tf, &s);
	fclose(f);
	summary_free(&s);
	trace_file_free(&tf);
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

	f = fopen(blank, "w");
	fputs("[no stack] 0\n", f);
	fclose(f);
	CHECK(render(blank, png) == 0 && png_ink_count(png, 0, &ink) == 0 &&
	      ink.coloured < ink.pixels / 100 && hues(&ink) < 3,
	      "negative control: a profile of nothing shows no frames (%lu coloured, %u hues)",
	      ink.coloured, hues(&ink));
	return check_done();
}
