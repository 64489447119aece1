// SPDX-License-Identifier: GPL-2.0
/*
 * kernel/dwarf.c on a small ELF file built here with gcc -g -O2 from a
 * C file with a function inlined into another: a "symbol+0xoffset"
 * frame to its file, line and inline chain, each frame once, and a
 * vmlinux of another build ID refused in one line; the build ID a
 * trace records, from the kernel's notes (kernel/buildid.c); and
 * gupstat report --vmlinux on a made-up trace of that file's frames.
 *
 * With "--write PATH VMLINUX SYMS STACKS HOLDS" it writes a trace of
 * HOLDS holds over STACKS stacks of 16 frames each, drawn from SYMS
 * ("name size" lines of VMLINUX's text symbols, from nm -S) with
 * VMLINUX's build ID: docs/trace.md's measure of report --vmlinux.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel/buildid.h"
#include "kernel/dwarf.h"
#include "report/report.h"
#include "scratch.h"
#include "synth.h"
#include "capture.h"
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

/* A trace of 4 holds on one stack of @frames, with @build_id. */
static int write_trace(const char *trace, const char *build_id, const char *const *frames,
		       __u32 nr)
{
	struct trace_kv kv[] = { { "kernel", "0.0.0-test" }, { "method", "m" },
				 { "gupstat", "test" }, { "build_id", (char *)build_id } };
	struct trace_end e = { .end_ns = SYNTH_START_NS + 1000000 };
	struct trace_writer w;
	FILE *f = synth_begin_with(trace, &w, 0, kv, 4);
	int i, err;

	if (!f)
		return -1;
	for (i = 0; i < 4; i++) {
		struct trace_rec r = synth_rec(i, 1000);

		r.stack = 1;
		trace_writer_record(&w, &r);
	}
	trace_writer_stack(&w, 1, nr, NULL, frames);
	err = trace_writer_finish(&w, &e);
	return fclose(f) || err;
}

/* cmd_report: its exit code, stdout and stderr. */
static int report(char **argv, char *out, size_t len, char *err, size_t errlen)
{
	int argc = 0, rc;

	while (argv[argc])
		argc++;
	rc = capture_run(cmd_report, argc, argv, scratch("out"), scratch("err"));
	capture_read(scratch("out"), out, len);
	capture_read(scratch("err"), err, errlen);
	return rc;
}

/* report --vmlinux: the inlined frame in the text, -j and folded stacks. */
static void test_report(const char *elf, const char *id, const char *frame)
{
	const char *frames[] = { frame, "main+0x4", "entry_SYSCALL_64+0x10 [not_the_vmlinux]" };
	char *gt = scratch("r.gt"), out[16384], err[1024];
	char *text[] = { "report", "-n", "1", "--vmlinux", (char *)elf, gt, NULL };
	char *json[] = { "report", "-j", "-n", "1", "--vmlinux", (char *)elf, gt, NULL };
	char *folded[] = { "report", "--folded", "-", "--vmlinux", (char *)elf, gt, NULL };
	char *wrong[] = { "report", "-n", "1", "--vmlinux", scratch("t.c"), gt, NULL };
	const char *p;
	int rc;

	if (write_trace(gt, id, frames, 3)) {
		CHECK(0, "the made-up trace could not be written");
		return;
	}
	rc = report(text, out, sizeof(out), err, sizeof(err));
	CHECK(rc == 0 && !err[0] && strstr(out, "helper (inlined) t.c:5\n") &&
	      strstr(out, " t.c:9\n") && strstr(out, "[not_the_vmlinux]"),
	      "the text: helper inlined at t.c:5, %s at t.c:9, a module's frame as it was (%d '%s')",
	      frame, rc, err);
	rc = report(json, out, sizeof(out), err, sizeof(err));
	p = strstr(out, "\"function\":\"helper\"");
	CHECK(rc == 0 && p && !strncmp(strstr(p, "\"file\""), "\"file\":\"t.c\"", 11) &&
	      !strncmp(strstr(p, "\"line\""), "\"line\":5", 8) &&
	      !strncmp(strstr(p, "\"inlined\""), "\"inlined\":true", 14),
	      "-j: the inlined frame's function, file, line and inlined (%d)", rc);
	rc = report(folded, out, sizeof(out), err, sizeof(err));
	CHECK(rc == 0 && strstr(out, "main;outer;helper_[i] "),
	      "--folded: by function, the inlined function a frame of its own ('%.60s')", out);
	rc = report(wrong, out, sizeof(out), err, sizeof(err));
	CHECK(rc == 0 && strstr(err, "not an ELF") && !strchr(err, '\n')[1] &&
	      strstr(out, frame) && !strstr(out, "(inlined)"),
	      "a vmlinux that cannot be read: one line, the frames as the file has them ('%.*s')",
	      (int)strcspn(err, "\n"), err);
}

/* "name size" lines (nm -S) into @names and @sizes: how many. */
static size_t read_syms(const char *path, char ***names, __u64 **sizes)
{
	char line[512], name[256];
	unsigned long long size;
	size_t n = 0, cap = 0;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %llx", name, &size) != 2 || !size)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 65536;
			*names = realloc(*names, cap * sizeof(**names));
			*sizes = realloc(*sizes, cap * sizeof(**sizes));
		}
		(*names)[n] = strdup(name);
		(*sizes)[n++] = size;
	}
	if (f)
		fclose(f);
	return n;
}

/* docs/trace.md's big trace: @stacks stacks of 16 frames, @holds holds. */
static int write_big(char **argv)
{
	unsigned long stacks = strtoul(argv[5], NULL, 10), holds = strtoul(argv[6], NULL, 10);
	char why[512], **names = NULL, *frames[16];
	struct kdwarf *kd = kdwarf_open(argv[3], why, sizeof(why));
	struct trace_kv kv[] = { { "kernel", "0.0.0-big" }, { "method", "m" },
				 { "gupstat", "test" }, { "build_id", NULL } };
	struct trace_end e = { .end_ns = SYNTH_START_NS + 1000000000ULL };
	size_t nsyms, i, k;
	__u64 *sizes = NULL;
	struct trace_writer w;
	FILE *f;

	nsyms = kd ? read_syms(argv[4], &names, &sizes) : 0;
	if (!nsyms || !stacks) {
		fprintf(stderr, "%s\n", kd ? "no symbols" : why);
		return 1;
	}
	kv[3].value = (char *)kdwarf_build_id(kd);
	f = synth_begin_with(argv[2], &w, 0, kv, 4);
	for (i = 0; f && i < holds; i++) {
		struct trace_rec r = synth_rec(i, 500 + (i * 2654435761ULL) % 100000);

		r.stack = i % stacks;
		trace_writer_record(&w, &r);
	}
	for (i = 0; f && i < stacks; i++) {
		for (k = 0; k < 16; k++) {
			size_t h = (i * 16 + k) * 2654435761ULL, s = h % nsyms;

			frames[k] = malloc(300);
			snprintf(frames[k], 300, "%s+0x%llx", names[s],
				 (unsigned long long)(1 + (h >> 20) % sizes[s]));
		}
		trace_writer_stack(&w, i, 16, NULL, (const char *const *)frames);
		for (k = 0; k < 16; k++)
			free(frames[k]);
	}
	if (!f || trace_writer_finish(&w, &e) || fclose(f))
		return 1;
	kdwarf_close(kd);
	return 0;
}

int main(int argc, char **argv)
{
	char why[512] = "", frame[64];
	const struct src_line *lines;
	const char *path;
	struct kdwarf *kd;

	if (argc == 7 && !strcmp(argv[1], "--write"))
		return write_big(argv);
	path = build();

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
	if (find_inlined(kd, &lines, frame, sizeof(frame)))
		test_report(path, kdwarf_build_id(kd), frame);
	kdwarf_close(kd);
	return check_done();
}
