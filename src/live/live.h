/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_LIVE_H
#define __GUPSTAT_LIVE_LIVE_H

#include "live/options.h"
#include "live/print.h"
#include "probe/view.h"

/* One run of the live view: what it counts (@v), and how it prints it. */
struct live {
	struct live_opts o;
	struct view v;
	struct live_print_ctx rc;
};

int cmd_live(int argc, char **argv);

#endif /* __GUPSTAT_LIVE_LIVE_H */
