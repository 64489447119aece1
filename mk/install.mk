# SPDX-License-Identifier: GPL-2.0
# Packaging: the man pages, make install and uninstall (a static
# gupstat, its man pages, completion and service) and the Debian
# package built from a copy of the tree.

.PHONY: man install uninstall deb

# make install: the statically linked gupstat (the same objects as
# build/gupstat, linked -static-pie: it runs on any x86-64 Linux with no
# library installed), its man pages (scdoc), its bash completion, its
# systemd service with the service's options file and its JSON schemas, under
# $(DESTDIR)$(PREFIX) and $(DESTDIR)/etc; make uninstall removes those
# files alone.
# tools/install does both, as install(1) does (docs/install.md).
PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
MAN8DIR		?= $(PREFIX)/share/man/man8
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions
SCDOC		?= scdoc
MAN_PAGES	:= $(patsubst man/%.scd,$(OUT)/man/%,$(wildcard man/*.scd))
# The service (contrib/systemd, installed disabled) goes where systemd
# looks for units of this PREFIX: under /usr, where the distribution's
# systemd.pc says (/lib/systemd/system on Debian 12), else
# PREFIX/lib/systemd/system, which systemd reads too
# (/usr/local/lib/systemd/system). Its options file is read at
# /etc/default/gupstat whatever PREFIX is: the unit names that path.
SYSTEMDUNITDIR	?= $(if $(filter /usr,$(PREFIX)),$(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system),$(PREFIX)/lib/systemd/system)
DEFAULTSDIR	?= /etc/default
# The JSON schemas of report -j and compare -j (and of the live view's
# NDJSON), where their --help says: the directory is compiled into the
# two option tables that name it, which a new one rebuilds.
SCHEMADIR	?= $(PREFIX)/share/gupstat/schemas
SCHEMAS		:= $(wildcard docs/schemas/*.schema.json)
INSTALLED	:= $(OUT)/static/gupstat completion/gupstat $(MAN_PAGES) \
		   contrib/systemd/gupstat.service contrib/default/gupstat $(SCHEMAS)

SCHEMADIR_USERS	:= $(OUT)/src/report/options.o $(OUT)/src/compare/options.o
$(SCHEMADIR_USERS): USER_CFLAGS += -DGUPSTAT_SCHEMADIR='"$(SCHEMADIR)"'
$(SCHEMADIR_USERS): $(OUT)/schemadir

# Rewritten only when it changes, so that a build with the same PREFIX
# recompiles nothing.
$(OUT)/schemadir: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '$(SCHEMADIR)' | cmp -s - $@ || echo '$(SCHEMADIR)' >$@

# No file, no recipe: what depends on it is always looked at again.
FORCE:

$(OUT)/static/gupstat: $(OBJS) $(LIBBPF_A) | $(OUT)/static
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -static-pie -o $@ $(OBJS) $(LIBBPF_A) $(LIBPFM_A) $(LIBDW_A_LIBS) -lelf -lz -lm -ljson-c -levent

$(OUT)/man/%: man/%.scd | $(OUT)/man
	$(call msg,SCDOC,$@)
	$(Q)command -v $(SCDOC) >/dev/null || { echo "$(SCDOC) not found: run 'make deps' (Debian: scdoc)" >&2; exit 2; }
	$(Q)$(SCDOC) <$< >$@

$(OUT)/static $(OUT)/man:
	$(Q)mkdir -p $@

##@ Building
## the man pages (scdoc)
man: $(MAN_PAGES)

##@ Installing
# tools/install reads these from its environment: a DESTDIR with spaces
# or quotes needs no quoting here.
install uninstall: export DESTDIR := $(DESTDIR)
install uninstall: export SBINDIR := $(SBINDIR)
install uninstall: export MAN8DIR := $(MAN8DIR)
install uninstall: export BASHCOMPDIR := $(BASHCOMPDIR)
install uninstall: export SYSTEMDUNITDIR := $(SYSTEMDUNITDIR)
install uninstall: export DEFAULTSDIR := $(DEFAULTSDIR)
install uninstall: export SCHEMADIR := $(SCHEMADIR)
## gupstat (static), its man pages, completion, service (disabled) and schemas
install: $(INSTALLED)
	$(Q)tools/install install $(INSTALLED)

## remove what install put there
uninstall:
	$(Q)tools/install uninstall $(INSTALLED)

# A Debian binary package, build/deb/gupstat_VERSION_amd64.deb, built by
# dpkg-buildpackage from a copy of this tree and checked with lintian.
## a Debian package in build/deb/, checked with lintian
deb:
	$(Q)tools/deb $(OUT)/deb
