/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_LIVE_LIVE_H
#define __GUPSTAT_LIVE_LIVE_H

int cmd_live(int argc, char **argv);

#endif /* __GUPSTAT_LIVE_LIVE_H */
