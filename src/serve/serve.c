// SPDX-License-Identifier: GPL-2.0
/*
 * gupstat serve: the live view's probes, kept attached, and their
 * aggregates read afresh for every scrape of /metrics. Nothing is reset
 * while it runs, so every counter and histogram only grows, as Prometheus
 * expects; one event loop answers scrapes and notices the run's end.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <event2/event.h>
#include <bpf/libbpf.h>
#include "gupstat.skel.h"
#include "probe/view.h"
#include "serve/http.h"
#include "serve/metrics.h"
#include "serve/options.h"
#include "serve/progs.h"
#include "serve/series.h"
#include "serve/serve.h"
#include "util/input.h"
#include "util/msg.h"

struct serve {
	struct serve_opts o;
	struct view v;
	struct utsname uts;
	struct series procs, cgroups;
	struct prog_stats progs;
	struct event_base *base;
	int fd;
};

static time_t now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec;
}

/* -P's and --per-cgroup's tables, read afresh. */
static int series_read(struct serve *s)
{
	time_t now = now_s();
	int err = 0;

	if (s->v.o->per_process)
		err = series_update(&s->procs, bpf_map__fd(s->v.s.skel->maps.procs), now);
	if (!err && s->v.o->per_cgroup)
		err = series_update(&s->cgroups, bpf_map__fd(s->v.s.skel->maps.cgroups), now);
	return err;
}

static int scrape(void *arg, FILE *f, bool openmetrics)
{
	struct serve *s = arg;
	struct metrics_ctx m = {
		.view = &s->v.cv, .release = s->uts.release, .openmetrics = openmetrics,
		.ns_first_slot = s->o.ns_first_slot, .ns_last_slot = s->o.ns_last_slot,
		.progs = &s->progs,
		.procs = s->v.o->per_process ? &s->procs : NULL,
		.cgroups = s->v.o->per_cgroup ? &s->cgroups : NULL,
	};
	struct snapshot snap;
	int err;

	err = snapshot_read(&snap, s->v.s.skel, false) ?:
	      series_read(s);
	if (err)
		return err;
	progs_read(&s->progs, s->v.s.probes);
	metrics_write(f, &m, &snap);
	return 0;
}

/*
 * Every 100 ms: Ctrl-C, SIGTERM or -d end the loop. The COMMAND's exit
 * does not: its last numbers stay there to be scraped.
 */
static void tick(evutil_socket_t fd, short what, void *arg)
{
	struct serve *s = arg;
	int state = session_state(&s->v.s);

	if (state == SESSION_RUNNING)
		return;
	if (state >= SESSION_CHILD_EXIT) {
		fprintf(stderr, "%s: the command exited with status %d; still serving until Ctrl-C\n",
			msg_cmd(), session_exit_code(state));
		s->v.s.cmd = NULL;	/* reaped: not to be waited for again */
		return;
	}
	event_base_loopbreak(s->base);
}

/*
 * Said once attached, so that a run that fails says its failure alone;
 * and not made so: timing every BPF program on the host is the
 * operator's choice, not a tracer's.
 */
static void say_bpf_stats(void)
{
	if (progs_stats_enabled() != 1)
		fprintf(stderr, "%s: kernel.bpf_stats_enabled is not 1: the probes' own cost "
			"(gupstat_probe_run_seconds_total) is not exported until it is "
			"(sysctl -w kernel.bpf_stats_enabled=1)\n", msg_cmd());
}

static int loop(struct serve *s)
{
	struct timeval tv = { .tv_usec = 100 * 1000 };
	struct http *h = NULL;
	struct event *t = NULL;
	int err = -ENOMEM;

	s->base = event_base_new();
	if (s->base)
		t = event_new(s->base, -1, EV_PERSIST, tick, s);
	if (t && !event_add(t, &tv))
		h = http_start(s->base, s->fd, scrape, s);
	if (h) {
		char banner[128];

		s->fd = -1;	/* evhttp owns it now */
		snprintf(banner, sizeof(banner), "Serving http://%s/metrics ... Hit Ctrl-C to end.",
			 s->o.listen);
		say_bpf_stats();
		/* A client that hangs up mid-answer is evhttp's to notice, not a signal. */
		signal(SIGPIPE, SIG_IGN);
		session_start(&s->v.s, banner);
		if (s->v.s.cmd)		/* session_start() says it only without one */
			fprintf(stderr, "%s\n", input_safe(banner));
		err = event_base_dispatch(s->base) < 0 ? -EIO : 0;
	} else {
		session_abort(&s->v.s);
	}
	if (err)
		p_err("cannot serve: %s\n", strerror(-err));
	http_stop(h);
	if (t)
		event_free(t);
	if (s->base)
		event_base_free(s->base);
	return err ? 1 : 0;
}

static int start(struct serve *s)
{
	int err;

	if (series_init(&s->procs, SERIES_PROC, s->o.max_series, s->o.series_idle, NULL) ||
	    series_init(&s->cgroups, SERIES_CGROUP, s->o.max_series, s->o.series_idle,
			s->v.cgroup_names)) {
		p_err("out of memory\n");
		return 1;
	}
	view_pmu_setup(&s->v);
	err = view_load(&s->v) ?: session_attach(&s->v.s);
	if (err) {
		session_abort(&s->v.s);
		return 1;
	}
	return loop(s);
}

int cmd_serve(int argc, char **argv)
{
	struct serve s = {};
	int err;

	s.fd = -1;
	err = serve_opts_parse(&s.o, argc, argv);
	if (err)
		return err > 0 ? 0 : 2;
	s.v.o = &s.o.view;
	uname(&s.uts);
	/* The port first: one in use is the only line said, before any probe's. */
	s.fd = listen_open(&s.o.addr);
	if (s.fd < 0)
		p_err("cannot listen on %s: %s\n", s.o.listen, strerror(-s.fd));
	err = s.fd < 0 || view_prepare(&s.v) ? 1 : start(&s);
	if (s.fd >= 0)
		close(s.fd);
	series_free(&s.procs);
	series_free(&s.cgroups);
	view_close(&s.v);
	return err;
}
