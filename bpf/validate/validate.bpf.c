// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat validate: exact per-phase time and counter of the pin and unpin
 * calls that the measuring process makes through GUP_TEST, plus, in a
 * separate untimed census pass, the refcount grabs and folio puts inside
 * them. A separate object from the live view's: it keeps sums per phase,
 * not histograms, and only ever watches one process.
 */
#include "twins.bpf.h"
#include "gupstat_validate.h"

const volatile __u32 target_tgid = 0;
const volatile bool pmu_on = false;

/*
 * Where struct pages live, for the cache model's struct page count
 * (--sim): the vmemmap base moves with KASLR, and only the kernel knows
 * it. Untyped ksyms: libbpf resolves them from kallsyms on any kernel;
 * weak, so that a kernel without one still loads (the value stays 0).
 */
extern const void vmemmap_base __ksym __weak;
extern const void max_pfn __ksym __weak;
__u64 vmemmap_start, vmemmap_pfns;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, V_NR_SLOTS);
	__type(key, __u32);
	__type(value, struct v_slot);
} v_slots SEC(".maps");

/* One counter per CPU, opened by user space (-e). */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} v_pmu SEC(".maps");

static __always_inline struct v_slot *slot_of(__u32 id)
{
	if (bpf_get_current_pid_tgid() >> 32 != target_tgid)
		return NULL;
	return bpf_map_lookup_elem(&v_slots, &id);
}

static __always_inline void call_enter(__u32 id, __u64 units)
{
	struct bpf_perf_event_value v;
	struct v_slot *s = slot_of(id);

	if (!s)
		return;
	s->units += units;
	s->entry_counter_ok = 0;
	if (pmu_on && !bpf_perf_event_read_value(&v_pmu, BPF_F_CURRENT_CPU, &v, sizeof(v))) {
		s->entry_counter = v.counter;
		s->entry_cpu = bpf_get_smp_processor_id();
		s->entry_counter_ok = 1;
	}
	/* Last, so that the counter read is not inside the timed span. */
	s->entry_ns = bpf_ktime_get_ns();
}

static __always_inline void call_exit(__u32 id, long ret)
{
	__u64 now = bpf_ktime_get_ns();
	struct bpf_perf_event_value v;
	struct v_slot *s = slot_of(id);

	if (!s || !s->entry_ns)
		return;
	s->ns += now - s->entry_ns;
	s->entry_ns = 0;
	s->calls++;
	if (ret > 0)
		s->ret += ret;
	/* A call that moved CPU has no valid per-CPU counter delta. */
	if (s->entry_counter_ok && s->entry_cpu == bpf_get_smp_processor_id() &&
	    !bpf_perf_event_read_value(&v_pmu, BPF_F_CURRENT_CPU, &v, sizeof(v))) {
		s->counter += v.counter - s->entry_counter;
		s->counter_calls++;
	}
}

/* Census: a count and a sum of refs, no time. */
static __always_inline void census(__u32 id, int refs)
{
	struct v_slot *s = slot_of(id);

	if (!s)
		return;
	s->calls++;
	s->units += refs;
}

/*
 * __gup_longterm_locked(mm, start, nr_pages, ...), unpin_user_pages(pages,
 * npages), try_grab_folio(folio, refs, flags), gup_put_folio(folio, refs):
 * the positions src/validate/probe.c checks against BTF.
 */
static __always_inline void pin_on_entry(void *ctx, bool fentry)
{
	if (!vmemmap_start && &vmemmap_base && &max_pfn && slot_of(V_PIN)) {
		bpf_probe_read_kernel(&vmemmap_start, sizeof(vmemmap_start), &vmemmap_base);
		bpf_probe_read_kernel(&vmemmap_pfns, sizeof(vmemmap_pfns), &max_pfn);
	}
	call_enter(V_PIN, probe_arg(ctx, fentry, 2, 0));
}

static __always_inline void pin_on_exit(void *ctx, long ret)
{
	call_exit(V_PIN, ret);
}

static __always_inline void unpin_on_entry(void *ctx, bool fentry)
{
	call_enter(V_UNPIN, probe_arg(ctx, fentry, 1, 0));
}

/* unpin_user_pages() returns nothing. */
static __always_inline void unpin_on_exit(void *ctx, long ret)
{
	call_exit(V_UNPIN, 0);
}

static __always_inline void grab_on_entry(void *ctx, bool fentry)
{
	census(V_GRAB, probe_arg(ctx, fentry, 1, 0));
}

static __always_inline void put_on_entry(void *ctx, bool fentry)
{
	census(V_PUT, probe_arg(ctx, fentry, 1, 0));
}

ENTRY_TWINS(pin, __gup_longterm_locked)
EXIT_TWINS(pin, __gup_longterm_locked)
ENTRY_TWINS(unpin, unpin_user_pages)
EXIT_TWINS(unpin, unpin_user_pages)
ENTRY_TWINS(grab, try_grab_folio)
ENTRY_TWINS(put, gup_put_folio)

char LICENSE[] SEC("license") = "GPL";
