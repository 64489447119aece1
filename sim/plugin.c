// SPDX-License-Identifier: GPL-2.0
/*
 * gupsim: a QEMU TCG plugin that runs every guest data access through a
 * model of a real CPU's caches (cache.c) and counts, per call of the
 * kernel functions gupstat names, the accesses and misses per level,
 * those to struct page lines apart (window.c). Built against the
 * plugin API of the QEMU that runs it (tools/qemu-plugin-header).
 *
 *	qemu-system-x86_64 -accel tcg \
 *		-plugin build/gupsim.so,log=DIR/gupsim.log,ctl=DIR/gupsim.ctl[,model=zen3]
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <qemu-plugin.h>
#include "cache.h"
#include "site.h"
#include "window.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/*
 * What an instruction is, as its callbacks need to know: in the low bits
 * of a kernel instruction's memory callback data, above them its site.
 */
enum insn_kind {
	INSN_PUSH_OR_CALL = 1,	/* its store can be a frame's first */
	INSN_RET = 2,		/* its load can be a return address */
	INSN_LOAD_RSP = 4,	/* loads %rsp: in __switch_to_asm, the next task's */
	INSN_KIND_MASK = 7,
	INSN_IRET = 8,		/* not a memory callback's: the end of a handler */
};

static struct hierarchy caches;
static struct config cfg;
static struct vcpu *vcpus;
static char ctl_path[4096];

static bool in_vmemmap(uint64_t vaddr)
{
	return vaddr >= cfg.vmemmap_start && vaddr < cfg.vmemmap_end;
}

static void on_mem(unsigned int cpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	uintptr_t kind = (uintptr_t)udata & INSN_KIND_MASK;
	struct site *site = (struct site *)((uintptr_t)udata & ~(uintptr_t)INSN_KIND_MASK);
	struct qemu_plugin_hwaddr *hw;
	struct vcpu *v = &vcpus[cpu];
	bool store = qemu_plugin_mem_is_store(info);
	enum cache_level lvl;

	if (v->pending >= 0 && store)
		window_first_store(v, &cfg, vaddr, kind & INSN_PUSH_OR_CALL, cpu);
	if ((kind & INSN_LOAD_RSP) && !store && site && (site->flags & SITE_SWITCH))
		v->task = vaddr;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw))
		return;
	/* An access that crosses a line is counted on its first line. */
	lvl = hierarchy_access(&caches, cpu, qemu_plugin_hwaddr_phys_addr(hw));
	if (v->nr_open || v->marked)
		window_count(v, site, in_vmemmap(vaddr), lvl);
	if ((kind & INSN_RET) && !store && v->nr_open)
		window_ret(v, &cfg, vaddr, cpu);
}

/* An iretq ended its block: the handler is left when the next starts. */
static void block_start(struct vcpu *v)
{
	if (v->iret_done && v->irq_depth)
		v->irq_depth--;
	v->iret_done = false;
}

/*
 * Every kernel block: does a handler or a counted function start here?
 * Its instructions are counted when it starts: a block runs whole,
 * since TCG takes interrupts between blocks only.
 */
static void on_kernel_tb(unsigned int cpu, void *udata)
{
	struct site *s = udata;
	struct vcpu *v = &vcpus[cpu];
	int i, n = __atomic_load_n(&cfg.nr_funcs, __ATOMIC_ACQUIRE);

	block_start(v);
	if (s->flags & SITE_IRQ_ENTRY)
		v->irq_depth++;
	for (i = 0; i < n; i++)
		if (cfg.addr[i] == s->vaddr)
			window_enter(v, i, s);
	window_insns(v, s, s->n_insns);
}

/* User space: no handler runs on from here (a lost iretq forgotten). */
static void on_user_tb(unsigned int cpu, void *udata)
{
	struct vcpu *v = &vcpus[cpu];

	v->irq_depth = 0;
	v->iret_done = false;
	window_insns(v, NULL, (uintptr_t)udata);
}

static void on_iret(unsigned int cpu, void *udata)
{
	vcpus[cpu].iret_done = true;
}

static void configure(unsigned int cpu)
{
	char model[256];
	int err = config_load(&cfg, ctl_path);

	if (err) {
		log_line("error cannot read %s: %s", ctl_path, strerror(-err));
		return;
	}
	sites_reflag(&cfg);
	cache_model_describe(caches.model, model, sizeof(model));
	log_line("ready %s", model);
}

/* A marker's data: its command, and how many instructions follow it in its block. */
#define MARKER_TAIL_SHIFT	16

static void on_marker(unsigned int cpu, void *udata)
{
	unsigned int cmd = (uintptr_t)udata & ((1u << MARKER_TAIL_SHIFT) - 1);
	int64_t tail = (uintptr_t)udata >> MARKER_TAIL_SHIFT;
	struct vcpu *v = &vcpus[cpu];

	switch (cmd) {
	case GUPSIM_CONFIG:
		configure(cpu);
		break;
	case GUPSIM_MARK_BEGIN:
		window_mark(v, true, cpu);
		window_mark_insns(v, tail);
		break;
	case GUPSIM_MARK_END:
		window_mark_insns(v, -(tail + 1));
		window_mark(v, false, cpu);
		break;
	case GUPSIM_PROFILE:
		sites_dump(&cfg);
		break;
	default:
		log_line("error unknown marker %u on vCPU %u", cmd, cpu);
	}
}

/* The marker "nopl disp32(%rax)" with GUPSIM_MAGIC in the displacement. */
static int marker_of(const uint8_t *b, size_t len)
{
	uint32_t disp;

	if (len != 7 || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80)
		return 0;
	memcpy(&disp, b + 3, 4);
	return (disp & GUPSIM_MAGIC_MASK) == GUPSIM_MAGIC ? disp & ~GUPSIM_MAGIC_MASK : 0;
}

static uintptr_t kind_of(const uint8_t *b, size_t len)
{
	size_t i = 0;
	unsigned int reg;

	/* Operand-size, rep, segment and REX prefixes. */
	while (i < len && (b[i] == 0x66 || b[i] == 0xf2 || b[i] == 0xf3 || b[i] == 0x2e ||
			   b[i] == 0x3e || (b[i] & 0xf0) == 0x40))
		i++;
	if (i >= len)
		return 0;
	if ((b[i] >= 0x50 && b[i] <= 0x57) || b[i] == 0x68 || b[i] == 0x6a || b[i] == 0xe8)
		return INSN_PUSH_OR_CALL;
	if (b[i] == 0xc3 || b[i] == 0xc2)
		return INSN_RET;
	if (b[i] == 0xcf)
		return INSN_IRET;
	/* mov m64, %rsp: REX.W before it, ModRM reg 4, not a register operand. */
	if (b[i] == 0x8b && i > 0 && (b[i - 1] & 0xf8) == 0x48 && i + 1 < len &&
	    ((b[i + 1] >> 3) & 7) == 4 && (b[i + 1] >> 6) != 3)
		return INSN_LOAD_RSP;
	if (b[i] == 0xff && i + 1 < len) {
		reg = (b[i + 1] >> 3) & 7;
		return reg == 2 || reg == 6 ? INSN_PUSH_OR_CALL : 0;
	}
	return 0;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	bool kernel = vaddr >> 63;
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct site *site = NULL;

	if (kernel) {
		site = site_get(vaddr, n, &cfg);
		if (!site) {
			log_line("error out of memory for the block at 0x%" PRIx64 ": not counted", vaddr);
			return;
		}
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_kernel_tb, QEMU_PLUGIN_CB_NO_REGS, site);
	} else {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_user_tb, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)n);
	}
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *b = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		uintptr_t kind = kernel ? kind_of(b, len) : 0;
		int cmd = marker_of(b, len);

		if (cmd)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(cmd | (uintptr_t)(n - i - 1) << MARKER_TAIL_SHIFT));
		if (kind & INSN_IRET)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_iret, QEMU_PLUGIN_CB_NO_REGS, NULL);
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW,
						 (void *)((uintptr_t)site | (kind & INSN_KIND_MASK)));
	}
}

static int parse_args(int argc, char **argv, const char **log, const char **model)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "log=", 4)) {
			*log = argv[i] + 4;
		} else if (!strncmp(argv[i], "ctl=", 4)) {
			snprintf(ctl_path, sizeof(ctl_path), "%s", argv[i] + 4);
		} else if (!strncmp(argv[i], "model=", 6)) {
			*model = argv[i] + 6;
		} else {
			fprintf(stderr, "gupsim: unknown argument '%s' (log=, ctl=, model=)\n", argv[i]);
			return -EINVAL;
		}
	}
	if (!*log || !ctl_path[0]) {
		fprintf(stderr, "gupsim: needs log=PATH and ctl=PATH\n");
		return -EINVAL;
	}
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *log = NULL, *model = "zen3";
	const struct cache_model *m;
	int i, nr = info->system_emulation ? info->system.max_vcpus : 1;

	if (parse_args(argc, argv, &log, &model))
		return -1;
	m = cache_model_find(model);
	if (!m) {
		fprintf(stderr, "gupsim: no cache model '%s' (zen3, skylake-sp)\n", model);
		return -1;
	}
	if (log_open(log)) {
		fprintf(stderr, "gupsim: cannot write %s: %s\n", log, strerror(errno));
		return -1;
	}
	vcpus = calloc(nr, sizeof(*vcpus));
	if (!vcpus || hierarchy_init(&caches, m, nr)) {
		fprintf(stderr, "gupsim: out of memory\n");
		return -1;
	}
	for (i = 0; i < nr; i++)
		vcpus[i].pending = -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	return 0;
}
