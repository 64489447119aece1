// SPDX-License-Identifier: GPL-2.0
/*
 * The plot a person looks at: render gupstat report --plot's SVG in
 * headless Chromium (tools/deps installs it) and check the screenshot
 * shows a plot: enough ink, and bars in the bar colour. A blank SVG
 * through the same steps is the negative control.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tap.h"
#include "report/export.h"
#include "png_ink.h"
#include "scratch.h"
#include "synth.h"

#define BAR_RGB		0x4477aa	/* export_plot.c's bars */

/* Screenshot @svg at 960x560 into @png: 0 when Chromium wrote it. */
static int render(const char *svg, const char *png)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
		 "--user-data-dir=%s --window-size=960,560 --screenshot=%s file://%s "
		 ">%s 2>&1", scratch("chrome"), png, svg, scratch("chromium.log"));
	unlink(png);
	return system(cmd) || access(png, R_OK);
}

static void write_plot(const char *trace, const char *svg)
{
	struct trace_rec recs[400];
	struct trace_summary s;
	struct trace_file tf;
	size_t i;
	FILE *f;

	/* Mostly short holds and a tail of long ones, as traced on base. */
	for (i = 0; i < 400; i++)
		recs[i] = synth_rec(i, i % 50 ? 700 + i : 40000 + 1000 * i);
	synth_write(trace, recs, 400, 0);
	trace_file_read(&tf, trace);
	summary_read(&tf, 0, &s);
	f = fopen(svg, "w");
	export_plot(f, &tf, &s);
	fclose(f);
	summary_free(&s);
	trace_file_free(&tf);
}

int main(void)
{
	const char *trace = scratch("t.gt"), *svg = scratch("plot.svg");
	const char *blank = scratch("blank.svg"), *png = scratch("shot.png");
	struct png_ink ink;
	FILE *f;

	write_plot(trace, svg);
	if (system("command -v chromium >/dev/null")) {
		SKIP("no chromium: run make deps");
		return check_done();
	}
	CHECK(render(svg, png) == 0, "headless Chromium renders the plot");
	CHECK(png_ink_count(png, BAR_RGB, &ink) == 0 && ink.width == 960 && ink.height == 560,
	      "a 960x560 PNG (%ux%u)", ink.width, ink.height);
	CHECK(ink.inked > ink.pixels / 20, "%lu of %lu pixels inked (want 5%% or more)",
	      ink.inked, ink.pixels);
	CHECK(ink.near > ink.pixels / 50, "%lu pixels in the bar colour (want 2%% or more)", ink.near);

	f = fopen(blank, "w");
	fputs("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"960\" height=\"560\">"
	      "<rect width=\"960\" height=\"560\" fill=\"#fff\"/></svg>\n", f);
	fclose(f);
	CHECK(render(blank, png) == 0 && png_ink_count(png, BAR_RGB, &ink) == 0 &&
	      ink.inked < ink.pixels / 1000 && ink.near == 0,
	      "negative control: a blank SVG shows no ink (%lu) and no bars (%lu)", ink.inked, ink.near);
	return check_done();
}
