# SPDX-License-Identifier: GPL-2.0
# The cache model: its plugin for QEMU (sim/), the known access patterns
# run in a guest under it, and the guest's side of a counting run.
# make check-sim (mk/guests.mk) and the counted benchmarks
# (mk/bench.mk) use them.

.PHONY: sim

# The cache-model plugin for QEMU (sim/), against the plugin API header
# of the QEMU installed here (fetched once from its source package).
SIM_SRCS	:= $(wildcard sim/*.c)
SIM_PLUGIN	:= $(OUT)/gupsim.so
SIM_CFLAGS	:= $(filter-out -MMD -MP,$(CFLAGS_COMMON))

##@ Building
## the cache-model plugin for QEMU and its helpers
sim: $(SIM_PLUGIN) $(OUT)/tests/sim-pattern $(OUT)/gupsim-ctl

$(SIM_PLUGIN): $(SIM_SRCS) $(wildcard sim/*.h) include/gupsim.h | $(OUT)/tests
	$(call msg,PLUGIN,$@)
	$(Q)inc=$$(tools/qemu-plugin-header) && \
	$(CC) $(SIM_CFLAGS) -fPIC -shared -Iinclude -I"$$inc" $(CFLAGS) -o $@ $(SIM_SRCS) -lpthread

# Known access patterns for the model, run in the guest (tests/sim/).
$(OUT)/tests/sim-pattern: tests/sim/pattern.c $(OUT)/src/gupsim/simlog.o | $(OUT)/tests
	$(call msg,TEST-CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(CFLAGS) -static -o $@ $^

# The guest's side of a counting run of a workload other than gupstat.
SIMCTL_OBJS	:= $(addprefix $(OUT)/src/,gupsim/simctl.o gupsim/simlog.o kernel/ksyms.o util/msg.o util/input.o)
$(OUT)/gupsim-ctl: tools/sim/gupsim-ctl.c $(SIMCTL_OBJS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(USER_CFLAGS) $(CFLAGS) -static -o $@ $^
