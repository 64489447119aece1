#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# A stand-in for gupstat serve on a host that cannot run BPF: every
# family serve exports (docs/serve.md), in the 0.0.4
# text format, on 127.0.0.1 at a free port it prints on stdout. The
# counts grow with the seconds since start, so that a Prometheus scraping
# it sees rates, finite quantiles and recording rules with data, which
# tests/host/test_contrib.sh needs to run the dashboard's queries
# (tests/guest/dashboard.sh) as the guest will against the real one.
# The histograms are written here with counts the dashboard's panels
# need; any other the catalogue has (build/catalog-gen, or CATALOG_GEN)
# is added with made-up counts, so that a new probe needs no edit here.
#   tests/data/serve-exposition.py          serve until killed
#   tests/data/serve-exposition.py --once   print one exposition, exit
import http.server
import json
import os
import subprocess
import sys
import time

START = time.monotonic()
PROBE = 'method="fentry+fexit",walk="pointer"'
# gupstat's log2 bounds in seconds, 2^i - 1 ns for --buckets-ns 64:1e9.
LOG2 = [(2**i - 1) / 1e9 for i in range(6, 31)]
LINEAR = [0, 1] + [2**i for i in range(1, 10)]


def fmt(v):
    return repr(float(v)) if isinstance(v, float) else str(v)


def load_catalogue():
    """The catalogue's histograms (build/catalog-gen), read once at start;
    none where the generator is not built."""
    gen = os.environ.get("CATALOG_GEN") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "catalog-gen")
    try:
        return json.loads(subprocess.run([gen], capture_output=True, check=True,
                                         text=True).stdout)["hists"]
    except (OSError, ValueError, subprocess.CalledProcessError):
        return []


CATALOGUE = load_catalogue()


def catalogue_families(family, hist, done):
    """Every histogram family of the catalogue not written out above,
    with made-up counts: a probe added to the catalogue is in the
    stand-in without an edit here."""
    new = set()
    for h in CATALOGUE:
        if h["family"] in done:
            continue
        if h["family"] not in new:
            family(h["family"], "histogram", h["help"])
            new.add(h["family"])
        labels = "".join(f',{l["name"]}="{l["values"][0].lower()}"' for l in h["labels"])
        if h["unit"] == "nsecs":
            hist(h["family"], PROBE + labels, LOG2, 6, 1e-5)
        else:
            hist(h["family"], PROBE + labels, LINEAR, 1, 1)


def exposition(t):
    """The text at t seconds since start (t >= 1 so every count moves)."""
    n = int(t * 100) + 100  # calls so far
    out = []

    def family(name, typ, help_):
        out.append(f"# HELP {name} {help_}")
        out.append(f"# TYPE {name} {typ}")

    def hist(name, labels, bounds, slot, value):
        """n calls, all in bucket `slot` (an index into bounds), each
        `value` (for _sum)."""
        lab = labels + "," if labels else ""
        for i, b in enumerate(bounds):
            out.append(f'{name}_bucket{{{lab}le="{b:.10g}"}} {n if i >= slot else 0}')
        out.append(f'{name}_bucket{{{lab}le="+Inf"}} {n}')
        out.append(f"{name}_sum{{{labels}}} {fmt(n * value)}")
        out.append(f"{name}_count{{{labels}}} {n}")

    family("gupstat_walk_hold_seconds", "histogram", "PTE-lock hold per follow_page_pte() call (upper bound)")
    hist("gupstat_walk_hold_seconds", PROBE + ',lock="upper_bound"', LOG2, 5, 1.5e-6)
    family("gupstat_walk_pages", "histogram", "pages per follow_page_pte() call")
    hist("gupstat_walk_pages", PROBE, LINEAR, 1, 1)
    family("gupstat_grab_refs", "histogram", "refs per grab")
    for foll in ("pin", "get"):
        hist("gupstat_grab_refs", PROBE + f',foll="{foll}"', LINEAR, 1, 1)
    for fam, bounds, slot, v in (("gupstat_gup_asked_pages", LINEAR, 10, 512),
                                 ("gupstat_gup_returned_pages", LINEAR, 10, 512),
                                 ("gupstat_gup_latency_seconds", LOG2, 9, 2e-5)):
        family(fam, "histogram", "per __get_user_pages() call")
        for kind in ("pin", "get", "noref"):
            hist(fam, PROBE + f',kind="{kind}"', bounds, slot, v)
    for fam, bounds, slot, v in (("gupstat_unpin_pages", LINEAR, 10, 512),
                                 ("gupstat_unpin_latency_seconds", LOG2, 7, 5e-6)):
        family(fam, "histogram", "per unpin call")
        for f in ("unpin_user_pages", "unpin_user_pages_dirty_lock"):
            hist(fam, PROBE + f',function="{f}"', bounds, slot, v)
    family("gupstat_put_refs", "histogram", "refs per put")
    hist("gupstat_put_refs", PROBE, LINEAR, 1, 1)
    family("gupstat_fill_pages", "histogram", "pages per gup_fill_pages() call")
    hist("gupstat_fill_pages", PROBE, LINEAR, 10, 512)
    family("gupstat_fill_seconds", "histogram", "per gup_fill_pages() call")
    hist("gupstat_fill_seconds", PROBE, LOG2, 6, 1e-5)
    family("gupstat_gup_events", "histogram", "the -e counter per GUP call")
    hist("gupstat_gup_events", PROBE + ',event="cycles",kind="pin"', LINEAR, 10, 500)
    family("gupstat_unpin_events", "histogram", "the -e counter per unpin call")
    hist("gupstat_unpin_events", PROBE + ',event="cycles",function="unpin_user_pages"', LINEAR, 10, 500)

    catalogue_families(family, hist, set(l.split()[2] for l in out if l.startswith("# TYPE")))

    family("gupstat_walk_returns_total", "counter", "follow_page_pte() returns")
    for r in ("pages", "fault", "emlink", "eexist", "efault", "other"):
        out.append(f'gupstat_walk_returns_total{{{PROBE},result="{r}"}} {n if r == "pages" else 0}')
    for fam in ("gupstat_gup_calls_total", "gupstat_gup_errors_total"):
        family(fam, "counter", "__get_user_pages() calls")
        for kind in ("pin", "get", "noref"):
            out.append(f'{fam}{{{PROBE},kind="{kind}"}} {n if fam.endswith("calls_total") else 0}')
    for fam, v in (("gupstat_gup_longterm_calls_total", n), ("gupstat_state_misses_total", 2),
                   ("gupstat_pmu_read_misses_total", 0), ("gupstat_pte_held_lost_total", 0)):
        family(fam, "counter", "count")
        out.append(f"{fam}{{{PROBE}}} {v}")
    # Two programs; run time 100 ns a run.
    family("gupstat_probe_runs_total", "counter", "BPF program runs (bpf_prog_info.run_cnt)")
    family("gupstat_probe_run_seconds_total", "counter", "BPF program run time (bpf_prog_info.run_time_ns)")
    for prog, fn in (("walk_exit", "follow_page_pte"), ("gup_exit", "__get_user_pages")):
        out.append(f'gupstat_probe_runs_total{{program="{prog}",function="{fn}"}} {n}')
        out.append(f'gupstat_probe_run_seconds_total{{program="{prog}",function="{fn}"}} {fmt(n * 1e-7)}')
    family("gupstat_probe_misses_total", "counter", "BPF program runs skipped (bpf_prog_info.recursion_misses)")
    for prog, fn in (("walk_exit", "follow_page_pte"), ("gup_exit", "__get_user_pages")):
        out.append(f'gupstat_probe_misses_total{{program="{prog}",function="{fn}"}} 0')
    family("gupstat_bpf_stats_enabled", "gauge", "kernel.bpf_stats_enabled")
    out.append("gupstat_bpf_stats_enabled 1")

    cgroups = {"/": (1, 1), "/system.slice/db.service": (4, 1), "/user.slice": (2, 2)}
    per_cgroup = {
        "walk_calls": lambda p, u: n, "walk_pages": lambda p, u: n,
        "gup_calls": lambda p, u: n, "gup_pages": lambda p, u: n * p,
        "pin_pages": lambda p, u: n * p, "longterm_pin_pages": lambda p, u: n * (p - u),
        "unpin_calls": lambda p, u: n, "unpin_pages": lambda p, u: n * u,
        # --waits: the waiters' spins, 2 us each
        "pte_waits": lambda p, u: n // 10, "pte_wait_seconds": lambda p, u: fmt(n // 10 * 2e-6),
    }
    for what, f in per_cgroup.items():
        fam = f"gupstat_cgroup_{what}_total"
        family(fam, "counter", f"per cgroup: {what}")
        for cg, (p, u) in cgroups.items():
            out.append(f'{fam}{{cgroup="{cg}"}} {f(p, u)}')
    family("gupstat_cgroup_series_dropped_total", "counter", "cgroups given no series")
    out.append(f"gupstat_cgroup_series_dropped_total {n // 100}")
    for a in ("walk", "gup", "unpin"):
        for b in ("calls", "pages"):
            fam = f"gupstat_process_{a}_{b}_total"
            family(fam, "counter", f"per process: {a} {b}")
            out.append(f'{fam}{{pid="42",comm="gupwork"}} {n}')
    for what, v in (("pte_waits", n // 10), ("pte_wait_seconds", fmt(n // 10 * 2e-6))):
        fam = f"gupstat_process_{what}_total"
        family(fam, "counter", f"per process: {what}")
        out.append(f'{fam}{{pid="43",comm="faulter"}} {v}')
    family("gupstat_process_series_dropped_total", "counter", "processes given no series")
    out.append("gupstat_process_series_dropped_total 3")

    family("gupstat_kernel_info", "gauge", "the kernel")
    out.append('gupstat_kernel_info{release="6.12.0-test",walk="pointer"} 1')
    family("gupstat_probe_info", "gauge", "an attached probe")
    out.append('gupstat_probe_info{function="follow_page_pte",method="fentry+fexit"} 1')
    family("gupstat_build_info", "gauge", "gupstat")
    out.append('gupstat_build_info{version="test"} 1')
    return "\n".join(out) + "\n"


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path != "/metrics":
            self.send_error(404)
            return
        body = exposition(time.monotonic() - START + 1).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    if sys.argv[1:] == ["--once"]:
        sys.stdout.write(exposition(1))
        sys.exit(0)
    srv = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    print(srv.server_address[1], flush=True)
    srv.serve_forever()
