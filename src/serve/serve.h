/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __GUPSTAT_SERVE_SERVE_H
#define __GUPSTAT_SERVE_SERVE_H

int cmd_serve(int argc, char **argv);

#endif /* __GUPSTAT_SERVE_SERVE_H */
