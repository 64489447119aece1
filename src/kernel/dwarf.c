// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's kernel frames to source lines, through the kernel's own
 * DWARF (elfutils' libdw, linked statically). A trace keeps its frames
 * as "symbol+0xoffset" from /proc/kallsyms: the symbol's address in the
 * vmlinux plus the offset is the frame's address there, whatever KASLR
 * did at run time, so a trace resolves on any machine from the vmlinux
 * alone.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernel/dwarf.h"

/* The most functions inlined into each other at one address. */
#define CHAIN_MAX	16
/*
 * The functions whose compilation units libdw may keep read at once: a
 * few hundred kB each (a vmlinux has thousands), so the memory taken
 * stays under 100 MB however many functions a trace's stacks go through.
 */
#define FUNCS_PER_OPEN	256
#define BUILD_ID_MAX	64

struct kfunc {
	const char *name;	/* the vmlinux's string table's */
	__u64 addr, size;
	bool func;		/* STT_FUNC; else an assembler label */
	bool die_known;		/* func_die() looked: has_die says what it found */
	bool has_die;
	Dwarf_Die die;		/* its subprogram, at @bias */
	Dwarf_Addr bias;
};

/* A frame resolved: its chain, or nr 0 when it could not be. */
struct cached {
	char *frame;
	struct src_line *lines;
	int nr;
};

struct kdwarf {
	char *path;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct kfunc *syms;	/* by name, then address */
	size_t nr_syms;
	size_t funcs;		/* functions looked up since dwfl_load() */
	char *root;		/* the source tree, "/.../linux/", or NULL */
	struct cached *cache;	/* open addressing, by frame */
	size_t cache_cap, cache_nr;
	char build_id[2 * BUILD_ID_MAX + 1];
};

/* The vmlinux has its DWARF in itself: no separate file is looked for. */
static int no_debuginfo(Dwfl_Module *mod, void **user, const char *modname,
			Dwarf_Addr base, const char *file, const char *debuglink,
			GElf_Word crc, char **debuginfo_file)
{
	return -1;
}

static const Dwfl_Callbacks callbacks = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static int kfunc_cmp(const void *a, const void *b)
{
	const struct kfunc *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

/* Text symbols by name: kallsyms names what the ELF symbol table has. */
static int load_syms(struct kdwarf *kd)
{
	int n = dwfl_module_getsymtab(kd->mod), i;
	GElf_Addr addr;
	GElf_Sym sym;

	if (n <= 0)
		return -ENOENT;
	kd->syms = calloc(n, sizeof(*kd->syms));
	if (!kd->syms)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		const char *name = dwfl_module_getsym_info(kd->mod, i, &sym, &addr,
							    NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		kd->syms[kd->nr_syms++] = (struct kfunc){ .name = name, .addr = addr,
							  .size = sym.st_size,
							  .func = type == STT_FUNC };
	}
	qsort(kd->syms, kd->nr_syms, sizeof(*kd->syms), kfunc_cmp);
	return 0;
}

/*
 * The source tree, as the compilation unit of init/main.c names it: an
 * out-of-tree build (O=) names its sources by absolute path, its
 * generated files by the build directory (DW_AT_comp_dir).
 */
static void find_root(struct kdwarf *kd)
{
	static const char tail[] = "/init/main.c";
	Dwarf_Die *cu = NULL;
	Dwarf_Addr bias;
	int i;

	for (i = 0; i < 4096 && (cu = dwfl_module_nextcu(kd->mod, cu, &bias)); i++) {
		const char *name = dwarf_diename(cu);
		size_t len = name ? strlen(name) : 0;

		if (len > sizeof(tail) && name[0] == '/' &&
		    !strcmp(name + len - (sizeof(tail) - 1), tail)) {
			kd->root = strndup(name, len - (sizeof(tail) - 1) + 1);
			return;
		}
	}
}

static void read_build_id(struct kdwarf *kd)
{
	const unsigned char *bits;
	GElf_Addr vaddr;
	int n = dwfl_module_build_id(kd->mod, &bits, &vaddr), i;

	for (i = 0; i < n && i < BUILD_ID_MAX; i++)
		snprintf(kd->build_id + 2 * i, 3, "%02x", bits[i]);
}

/*
 * The file opened by libdwfl and its symbols by name. Again after
 * FUNCS_PER_OPEN functions: what libdw keeps of each compilation unit
 * it read (abbreviations, line tables) is only let go with the whole.
 */
static int dwfl_load(struct kdwarf *kd, char *why, size_t len)
{
	Dwarf_Addr bias;

	if (kd->dwfl)
		dwfl_end(kd->dwfl);
	free(kd->syms);
	kd->syms = NULL;
	kd->nr_syms = kd->funcs = 0;
	kd->mod = NULL;
	kd->dwfl = dwfl_begin(&callbacks);
	if (kd->dwfl)
		kd->mod = dwfl_report_offline(kd->dwfl, "vmlinux", kd->path, -1);
	if (!kd->mod) {
		snprintf(why, len, "%s: %s", kd->path, access(kd->path, R_OK) ? strerror(errno) :
			 "not an ELF file");
		return -1;
	}
	dwfl_report_end(kd->dwfl, NULL, NULL);
	if (!dwfl_module_getelf(kd->mod, &bias) || !dwfl_module_getdwarf(kd->mod, &bias)) {
		snprintf(why, len, "%s: no DWARF debug info", kd->path);
		return -1;
	}
	if (load_syms(kd)) {
		snprintf(why, len, "%s: no symbol table", kd->path);
		return -1;
	}
	return 0;
}

struct kdwarf *kdwarf_open(const char *path, char *why, size_t len)
{
	struct kdwarf *kd = calloc(1, sizeof(*kd));

	if (!kd || !(kd->path = strdup(path))) {
		snprintf(why, len, "out of memory");
		free(kd);
		return NULL;
	}
	if (dwfl_load(kd, why, len)) {
		kdwarf_close(kd);
		return NULL;
	}
	read_build_id(kd);
	find_root(kd);
	return kd;
}

void kdwarf_close(struct kdwarf *kd)
{
	size_t i;

	if (!kd)
		return;
	for (i = 0; i < kd->cache_cap; i++) {
		free(kd->cache[i].frame);
		free(kd->cache[i].lines);
	}
	free(kd->cache);
	free(kd->syms);
	free(kd->root);
	free(kd->path);
	if (kd->dwfl)
		dwfl_end(kd->dwfl);
	free(kd);
}

const char *kdwarf_build_id(const struct kdwarf *kd)
{
	return kd->build_id;
}

/* A file's name from the kernel tree's top: "mm/gup.c". */
static const char *relative(const struct kdwarf *kd, const char *file, const char *comp_dir)
{
	size_t n = comp_dir ? strlen(comp_dir) : 0;

	if (kd->root && !strncmp(file, kd->root, strlen(kd->root)))
		file += strlen(kd->root);
	else if (n && !strncmp(file, comp_dir, n) && file[n] == '/')
		file += n + 1;
	while (!strncmp(file, "./", 2))
		file += 2;
	return file;
}

/* The function a scope is: an inlined one's name is its abstract origin's. */
static const char *die_func(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));

	return name ? name : "[unknown]";
}

/* Where an inlined function was called from: the caller's file and line. */
static const char *call_site(Dwarf_Die *die, Dwarf_Files *files, size_t nfiles, int *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx = 0, l = 0;

	dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &l);
	*line = (int)l;
	if (!files || dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &idx) ||
	    idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/*
 * The function's DIE: the compilation unit's top-level subprogram that
 * covers @pc, found once per symbol and kept. A walk of the unit's top
 * level, not of every DIE in it (dwarf_getscopes() visits them all, a
 * millisecond per frame on a vmlinux).
 */
static bool func_die(struct kdwarf *kd, struct kfunc *s, Dwarf_Addr pc)
{
	Dwarf_Die *cu, child;
	Dwarf_Addr bias;

	if (s->die_known)
		return s->has_die;
	s->die_known = true;
	kd->funcs++;
	cu = dwfl_module_addrdie(kd->mod, pc, &bias);
	if (!cu || dwarf_child(cu, &child))
		return false;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_haspc(&child, pc - bias) > 0) {
			s->die = child;
			s->bias = bias;
			s->has_die = true;
			break;
		}
	} while (!dwarf_siblingof(&child, &child));
	return s->has_die;
}

/*
 * The inlined instances that cover @pc under @parent, outermost first,
 * into @out: how many. Only the blocks that cover @pc are entered.
 */
static int inlined_at(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *out, int max)
{
	Dwarf_Die child;
	int tag;

	if (dwarf_child(parent, &child))
		return 0;
	do {
		tag = dwarf_tag(&child);
		if ((tag != DW_TAG_inlined_subroutine && tag != DW_TAG_lexical_block) ||
		    dwarf_haspc(&child, pc) <= 0)
			continue;
		if (tag == DW_TAG_lexical_block)
			return inlined_at(&child, pc, out, max);
		if (!max)
			return 0;
		out[0] = child;
		return 1 + inlined_at(&child, pc, out + 1, max - 1);
	} while (!dwarf_siblingof(&child, &child));
	return 0;
}

/*
 * @pc's chain, innermost first: each inlined function at the line it is
 * at, then the function it was inlined into at its call's line, out to
 * the function the symbol is. @s names it when no DIE does.
 */
static int chain(struct kdwarf *kd, struct kfunc *s, Dwarf_Addr pc, struct src_line *out)
{
	Dwfl_Line *l = dwfl_module_getsrc(kd->mod, pc);
	const char *file = l ? dwfl_lineinfo(l, NULL, NULL, NULL, NULL, NULL) : NULL;
	Dwarf_Die inl[CHAIN_MAX - 1], cu;
	Dwarf_Files *files = NULL;
	const char *comp = NULL;
	Dwarf_Attribute a;
	int line = 0, n, nr = 0;
	size_t nfiles = 0;

	if (l)
		dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL);
	if (!func_die(kd, s, pc)) {
		if (file)
			out[nr++] = (struct src_line){ s->name, relative(kd, file, NULL),
							 line > 0 ? line : 0, false };
		return nr;
	}
	if (dwarf_diecu(&s->die, &cu, NULL, NULL)) {
		comp = dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
		dwarf_getsrcfiles(&cu, &files, &nfiles);
	}
	n = inlined_at(&s->die, pc - s->bias, inl, CHAIN_MAX - 1);
	while (n-- > 0) {
		out[nr++] = (struct src_line){ die_func(&inl[n]),
			file ? relative(kd, file, comp) : "?", line > 0 ? line : 0, true };
		file = call_site(&inl[n], files, nfiles, &line);
	}
	out[nr++] = (struct src_line){ die_func(&s->die), file ? relative(kd, file, comp) : "?",
				       line > 0 ? line : 0, false };
	return nr;
}

/*
 * The symbol @name at @off: the one function of that name that is
 * longer than @off (a label has no size). 0 when none is, or two are
 * (two static functions of one name: kallsyms does not say which).
 */
static struct kfunc *find_sym(struct kdwarf *kd, const char *name, __u64 off)
{
	struct kfunc *found = NULL, *label = NULL;
	size_t lo = 0, hi = kd->nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(kd->syms[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < kd->nr_syms && !strcmp(kd->syms[lo].name, name); lo++) {
		struct kfunc *s = &kd->syms[lo];

		if (s->func && off < s->size) {
			if (found && found->addr != s->addr)
				return NULL;
			found = s;
		} else if (!s->func && !label) {
			label = s;
		}
	}
	return found ? found : label;
}

/* "symbol+0xoffset" to the frame's chain; a module's frame is not the vmlinux's. */
static int resolve(struct kdwarf *kd, const char *frame, struct src_line *out)
{
	const char *plus = strrchr(frame, '+');
	unsigned long long off;
	struct kfunc *s;
	char name[256], *end;

	if (!plus || strchr(frame, ' ') || (size_t)(plus - frame) >= sizeof(name) ||
	    strncmp(plus + 1, "0x", 2))
		return 0;
	off = strtoull(plus + 3, &end, 16);
	if (*end)
		return 0;
	snprintf(name, sizeof(name), "%.*s", (int)(plus - frame), frame);
	s = find_sym(kd, name, off);
	if (!s)
		return 0;
	/* A return address: the call is the byte before it. */
	return chain(kd, s, s->addr + off - (off ? 1 : 0), out);
}

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static struct cached *slot(struct cached *tab, size_t cap, const char *frame)
{
	size_t i = hash(frame) & (cap - 1);

	while (tab[i].frame && strcmp(tab[i].frame, frame))
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Twice as large when half full; the entries move, their lines do not. */
static int cache_grow(struct kdwarf *kd)
{
	size_t cap = kd->cache_cap ? kd->cache_cap * 2 : 1024, i;
	struct cached *tab;

	if (2 * (kd->cache_nr + 1) <= kd->cache_cap)
		return 0;
	tab = calloc(cap, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	for (i = 0; i < kd->cache_cap; i++)
		if (kd->cache[i].frame)
			*slot(tab, cap, kd->cache[i].frame) = kd->cache[i];
	free(kd->cache);
	kd->cache = tab;
	kd->cache_cap = cap;
	return 0;
}

/*
 * @nr lines and their strings in one allocation: libdw's strings go
 * when dwfl_load() starts again, the cache's stay.
 */
static struct src_line *copy_lines(const struct src_line *in, int nr)
{
	size_t len = nr * sizeof(*in);
	struct src_line *out;
	char *p;
	int i;

	for (i = 0; i < nr; i++)
		len += strlen(in[i].func) + strlen(in[i].file) + 2;
	out = nr ? malloc(len) : NULL;
	if (!out)
		return NULL;
	p = (char *)(out + nr);
	for (i = 0; i < nr; i++) {
		out[i] = in[i];
		out[i].func = strcpy(p, in[i].func);
		p += strlen(p) + 1;
		out[i].file = strcpy(p, in[i].file);
		p += strlen(p) + 1;
	}
	return out;
}

int kdwarf_resolve(void *ctx, const char *frame, const struct src_line **lines)
{
	struct kdwarf *kd = ctx;
	struct src_line out[CHAIN_MAX];
	struct cached *c;
	char why[512];
	int nr;

	*lines = NULL;
	if (kd->cache_cap) {
		c = slot(kd->cache, kd->cache_cap, frame);
		if (c->frame) {
			*lines = c->lines;
			return c->nr;
		}
	}
	if (kd->funcs >= FUNCS_PER_OPEN && dwfl_load(kd, why, sizeof(why)))
		return 0;
	nr = resolve(kd, frame, out);
	if (cache_grow(kd))
		return 0;
	c = slot(kd->cache, kd->cache_cap, frame);
	c->frame = strdup(frame);
	c->lines = copy_lines(out, nr);
	if (!c->frame || (nr && !c->lines)) {
		free(c->frame);
		free(c->lines);
		*c = (struct cached){};
		return 0;
	}
	c->nr = nr;
	kd->cache_nr++;
	*lines = c->lines;
	return nr;
}

/* The usual places of a kernel's vmlinux with its debug info. */
static const char *const places[] = {
	"/usr/lib/debug/boot/vmlinux-%s",		/* Debian's linux-image-*-dbg */
	"/usr/lib/debug/lib/modules/%s/vmlinux",
	"/boot/vmlinux-%s",
	"/lib/modules/%s/build/vmlinux",		/* the tree it was built in */
};

static bool kdwarf_place(const char *release, char *path, size_t len)
{
	size_t i;

	if (!release)
		return false;
	for (i = 0; i < sizeof(places) / sizeof(places[0]); i++) {
		snprintf(path, len, places[i], release);
		if (!access(path, R_OK))
			return true;
	}
	return false;
}

struct kdwarf *kdwarf_find(const char *path, const char *release, const char *build_id,
			   char *why, size_t len)
{
	char found[4096];
	struct kdwarf *kd;

	/* Debug info is optional: nothing to say when none is installed. */
	why[0] = '\0';
	if (!path && !kdwarf_place(release, found, sizeof(found)))
		return NULL;
	if (!path)
		path = found;
	if (!build_id || !*build_id || build_id[strspn(build_id, "0123456789abcdef")]) {
		snprintf(why, len, "the trace records no build ID (written by an older gupstat), so %s cannot be checked against its kernel",
			 path);
		return NULL;
	}
	kd = kdwarf_open(path, why, len);
	if (kd && strcmp(kd->build_id, build_id)) {
		snprintf(why, len, "%s has build ID %s, the traced kernel %s: not its vmlinux",
			 path, *kd->build_id ? kd->build_id : "(none)", build_id);
		kdwarf_close(kd);
		return NULL;
	}
	return kd;
}
