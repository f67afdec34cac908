# install.mk — `make install`, `make uninstall`, `make dist` and their
# checks (issue 26), included by the Makefile. GNU conventions: PREFIX
# (default /usr/local) and the directories below it, DESTDIR for staged
# installs (packagers), INSTALL for the install program.
#
# Installed: the tool (bin/clusterfit), the shared library with its soname
# (lib/libclusterfit.so.MAJOR.MINOR.PATCH, the links .so.MAJOR and .so),
# the static library, the public headers (include/clusterfit/*.h), the man
# page, clusterfit.pc, and LICENSE, README.md, CHANGELOG.md under the doc
# directory. Nothing else: the catalog data and the web page's assets are
# built into the library and the tool (tools/embed.sh), so serve reads no
# file but the catalog database.

PREFIX      ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR      ?= $(EXEC_PREFIX)/bin
LIBDIR      ?= $(EXEC_PREFIX)/lib
INCLUDEDIR  ?= $(PREFIX)/include
DATAROOTDIR ?= $(PREFIX)/share
MANDIR      ?= $(DATAROOTDIR)/man
DOCDIR      ?= $(DATAROOTDIR)/doc/clusterfit
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
INSTALL     ?= install

SOLIB       := libclusterfit.so.$(CF_VERSION_NUM)
SONAME      := libclusterfit.so.$(CF_SOMAJOR)
PUB_HEADERS := $(sort $(wildcard include/clusterfit/*.h))
DOC_FILES   := LICENSE README.md CHANGELOG.md

.PHONY: install uninstall install-check dist dist-check container-check catalog-release

$(BUILD)/clusterfit.pc: packaging/clusterfit.pc.in VERSION
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	    -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(CF_VERSION_NUM)|' $< > $@.tmp
	mv $@.tmp $@

# The .pc file is written at install time: it names PREFIX, which may
# differ from the last install's.
install: all $(BUILD)/libclusterfit.a
	@rm -f $(BUILD)/clusterfit.pc
	$(MAKE) --no-print-directory $(BUILD)/clusterfit.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
	    $(DESTDIR)$(INCLUDEDIR)/clusterfit $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)
	$(INSTALL) -m 755 $(BUILD)/clusterfit $(DESTDIR)$(BINDIR)/clusterfit
	$(INSTALL) -m 755 $(BUILD)/libclusterfit.so $(DESTDIR)$(LIBDIR)/$(SOLIB)
	ln -sf $(SOLIB) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libclusterfit.so
	$(INSTALL) -m 644 $(BUILD)/libclusterfit.a $(DESTDIR)$(LIBDIR)/libclusterfit.a
	$(INSTALL) -m 644 $(PUB_HEADERS) $(DESTDIR)$(INCLUDEDIR)/clusterfit/
	$(INSTALL) -m 644 $(BUILD)/docs/clusterfit.1 $(DESTDIR)$(MANDIR)/man1/clusterfit.1
	$(INSTALL) -m 644 $(BUILD)/clusterfit.pc $(DESTDIR)$(PKGCONFIGDIR)/clusterfit.pc
	$(INSTALL) -m 644 $(DOC_FILES) $(DESTDIR)$(DOCDIR)/

# Removes what install wrote, and the directories that are clusterfit's
# own; the shared ones (bin, lib, man1 ...) are left even when empty.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/clusterfit $(DESTDIR)$(LIBDIR)/$(SOLIB) \
	    $(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libclusterfit.so \
	    $(DESTDIR)$(LIBDIR)/libclusterfit.a $(DESTDIR)$(PKGCONFIGDIR)/clusterfit.pc \
	    $(DESTDIR)$(MANDIR)/man1/clusterfit.1
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/clusterfit/,$(notdir $(PUB_HEADERS)))
	rm -f $(addprefix $(DESTDIR)$(DOCDIR)/,$(DOC_FILES))
	-rmdir $(DESTDIR)$(INCLUDEDIR)/clusterfit $(DESTDIR)$(DOCDIR) 2>/dev/null

# Installs into a temporary DESTDIR, builds and runs a program against the
# installed headers and library with pkg-config, then uninstalls.
install-check: all
	@sh tests/install/run.sh

# The release tarball: HEAD's tracked files (git archive) and a COMMIT file
# naming it, so that a build outside git still says which commit it is.
dist:
	@sh tools/dist.sh $(BUILD) $(CF_VERSION_NUM)

# The tarball unpacked in a temporary directory, built and its quick tests
# run there (`make test`'s unit and CLI runners), without .git.
dist-check:
	@sh tests/dist-check.sh $(BUILD) $(CF_VERSION_NUM)

# The container image built and its /healthz asked (docker or podman);
# skipped with a message when neither is installed.
container-check:
	@sh tests/container/run.sh

# A catalog release file of data/offerings.csv (include/clusterfit/release.h)
# for users to install with `clusterfit import --catalog FILE`:
# make catalog-release SOURCE=https://.../clusterfit-catalog-DATE.csv
catalog-release: $(BUILD)/clusterfit
	@sh tools/catalog-release.sh $(BUILD) "$(SOURCE)" $(BUILD)/clusterfit
