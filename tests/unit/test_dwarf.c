// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/dwarf.c on a small ELF file built here with gcc -g -O2 from a
 * C file with a function inlined into another: a "symbol+0xoffset"
 * frame to its file, line and inline chain, each frame once, and a
 * vmlinux of another build ID refused in one line; and the build ID
 * a trace records, from the kernel's notes (kernel/buildid.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/buildid.h"
#include "kernel/dwarf.h"
#include "scratch.h"
#include "tap.h"

/* helper()'s loop body is line 5: its frames say so. */
static const char source[] =
	"volatile int sink;\n"					/* 1 */
	"static inline __attribute__((always_inline)) void helper(int n)\n"
	"{\n"
	"\tfor (int i = 0; i < n; i++)\n"
	"\t\tsink += i * n;\n"					/* 5 */
	"}\n"
	"__attribute__((noinline)) void outer(int n)\n"		/* 7 */
	"{\n"
	"\thelper(n);\n"					/* 9 */
	"\tsink = 0;\n"
	"}\n"
	"int main(int argc, char **argv) { outer(argc); return 0; }\n";

static char *build(void)
{
	char cmd[8192];
	FILE *f = fopen(scratch("t.c"), "w");

	if (!f || fputs(source, f) < 0 || fclose(f))
		return NULL;
	snprintf(cmd, sizeof(cmd), "cd '%s' && gcc -g -O2 -Wl,--build-id -o t t.c",
		 scratch_dir());
	return system(cmd) ? NULL : scratch("t");
}

/* The first offset into outer() in helper()'s loop body, inlined there. */
static int find_inlined(struct kdwarf *kd, const struct src_line **lines, char *frame,
			size_t len)
{
	int off, nr;

	for (off = 1; off < 512; off++) {
		snprintf(frame, len, "outer+0x%x", off);
		nr = kdwarf_resolve(kd, frame, lines);
		if (nr >= 2 && (*lines)[0].inlined && (*lines)[0].line == 5)
			return nr;
	}
	return 0;
}

static void test_chain(struct kdwarf *kd)
{
	const struct src_line *lines, *again;
	char frame[64];
	int nr = find_inlined(kd, &lines, frame, sizeof(frame));

	CHECK(nr == 2, "%s resolves to an inline chain of 2 (%d)", frame, nr);
	if (nr != 2)
		return;
	CHECK(!strcmp(lines[0].func, "helper") && !strcmp(lines[0].file, "t.c") &&
	      lines[0].line == 5 && lines[0].inlined,
	      "innermost: helper t.c:5, inlined (%s %s:%u)", lines[0].func, lines[0].file,
	      lines[0].line);
	CHECK(!strcmp(lines[1].func, "outer") && !strcmp(lines[1].file, "t.c") &&
	      lines[1].line == 9 && !lines[1].inlined,
	      "then outer at its call, t.c:9, not inlined (%s %s:%u)", lines[1].func,
	      lines[1].file, lines[1].line);
	CHECK(kdwarf_resolve(kd, frame, &again) == 2 && again == lines,
	      "a frame seen before is the cache's, not resolved again");
}

static void test_unresolved(struct kdwarf *kd)
{
	const struct src_line *lines;

	CHECK(kdwarf_resolve(kd, "outer+0x1 [some_module]", &lines) == 0,
	      "a module's frame is not the vmlinux's");
	CHECK(kdwarf_resolve(kd, "no_such_function+0x10", &lines) == 0,
	      "a symbol the file lacks resolves to nothing");
	CHECK(kdwarf_resolve(kd, "[unknown]", &lines) == 0, "neither does [unknown]");
}

static void test_find(const char *path, const char *id)
{
	char why[512];
	struct kdwarf *kd = kdwarf_find(path, "any", id, why, sizeof(why));

	CHECK(kd != NULL, "the file of the trace's build ID is taken");
	kdwarf_close(kd);
	kd = kdwarf_find(path, "any", "0123456789abcdef0123456789abcdef01234567", why,
			 sizeof(why));
	CHECK(!kd && strstr(why, "build ID") && !strchr(why, '\n'),
	      "another build ID is refused in one line: %s", why);
	kd = kdwarf_find(path, "any", NULL, why, sizeof(why));
	CHECK(!kd && strstr(why, "no build ID"), "a trace without one too: %s", why);
	kd = kdwarf_find(NULL, "0.0.0-no-such-release", id, why, sizeof(why));
	CHECK(!kd && !why[0], "none named, none installed: nothing to say");
	kd = kdwarf_open(scratch("t.c"), why, sizeof(why));
	CHECK(!kd && strstr(why, "not an ELF"), "a file that is not ELF: %s", why);
}

/* As /sys/kernel/notes has them: a "Linux" note, then GNU's build ID. */
static const unsigned char notes[] = {
	6, 0, 0, 0, 4, 0, 0, 0, 0, 1, 0, 0, 'L', 'i', 'n', 'u', 'x', 0, 0, 0, 1, 2, 3, 4,
	4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xde, 0xad, 0xbe, 0xef,
};

static void test_notes(void)
{
	char id[64] = "";

	CHECK(!buildid_parse(notes, sizeof(notes), id, sizeof(id)) && !strcmp(id, "deadbeef"),
	      "the GNU note's descriptor, after another note, in hex (%s)", id);
	CHECK(buildid_parse(notes, sizeof(notes) - 2, id, sizeof(id)) == -EINVAL,
	      "a note cut short is refused");
	CHECK(buildid_parse(notes, 24, id, sizeof(id)) == -ENOENT,
	      "notes without a build ID have none");
}

int main(void)
{
	char why[512] = "";
	const char *path = build();
	struct kdwarf *kd;

	test_notes();
	if (!path) {
		SKIP("gcc could not build the test's ELF file (Debian: gcc)");
		return check_done();
	}
	kd = kdwarf_open(path, why, sizeof(why));
	CHECK(kd && strlen(kdwarf_build_id(kd)) == 40, "opened, with a 20-byte build ID (%s)",
	      kd ? kdwarf_build_id(kd) : why);
	if (!kd)
		return check_done();
	test_chain(kd);
	test_unresolved(kd);
	test_find(path, kdwarf_build_id(kd));
	kdwarf_close(kd);
	return check_done();
}
