# clusterfit — build, tests and tools. `make run` and `make check` do all the
# set-up on a fresh Debian 12 machine (tools/deps.sh installs what is missing
# when run as root). BUILD=build-asan SAN=1 builds the sanitizer variant.

BUILD   ?= build
CC      ?= cc
CFLAGS  ?= -O2 -g
SAN     ?=
PKGS    := sqlite3 jansson libmicrohttpd
PKG_CONFIG ?= pkg-config
# $(call pkgflags,cflags|libs,PACKAGES,FALLBACK): what pkg-config says, or
# FALLBACK when it says nothing (PKG_CONFIG=false, no .pc files). The flags are
# read when make parses this file, so `run` and `check` install the packages
# (deps) first and then re-enter make, which parses it again.
pkgflags = $(or $(shell $(PKG_CONFIG) --$(1) $(2) 2>/dev/null),$(3))

# The library is built with -Ilib (its folders include one another's private
# headers as "base/base.h", "model/model_int.h" ...); the front ends (src/,
# server/) and the tests of the public API see only -Iinclude, plus their own
# folder's headers ("cli.h" next to src/*.c). One exception: src/cmd_serve.c
# alone gets -Iserver, for the one header the server publishes to the tool,
# server/serve.h (srv_config, srv_run); the rest of server/ stays private to
# it (tools/checksrc.sh checks that src/ includes nothing else from there).
# -MMD -MP writes each object's header dependencies next to it.
CF_CFLAGS := -std=c11 -D_DEFAULT_SOURCE -D_POSIX_C_SOURCE=200809L \
             -Wall -Wextra -Werror -Wshadow \
             -fvisibility=hidden -fPIC -MMD -MP -Iinclude \
             $(call pkgflags,cflags,$(PKGS),)
LIB_CFLAGS := -Ilib
# libclusterfit needs SQLite, jansson and libcsv; only the tool (its server)
# links libmicrohttpd.
LIB_LIBS  := $(call pkgflags,libs,sqlite3 jansson,-lsqlite3 -ljansson) -lcsv -lm
TOOL_LIBS := $(LIB_LIBS) $(call pkgflags,libs,libmicrohttpd,-lmicrohttpd) -lpthread
# Open MPI (issue 12): only src/probe_mpi.c includes <mpi.h>, and only the
# tool links libmpi; without ompi-c's .pc file (PKG_CONFIG=false) the tool
# is built without --mpi. Its headers are -isystem: not ours to warn about.
MPI_CFLAGS := $(patsubst -I%,-isystem %,$(shell $(PKG_CONFIG) --cflags ompi-c 2>/dev/null))
MPI_LIBS   := $(shell $(PKG_CONFIG) --libs ompi-c 2>/dev/null)
ifneq ($(MPI_LIBS),)
TOOL_LIBS  += $(MPI_LIBS)
MPI_DEFS   := -DCF_WITH_MPI
endif
ifeq ($(SAN),1)
CF_CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS   += -fsanitize=address,undefined
# The torture runs of `make test` thinned under the sanitizers (each run is
# several times slower): every 97th N, 20 kill trials per path.
TORTURE_TEST_ENV := TORTURE_STRIDE=97 TORTURE_TRIALS=20
endif

DATA_FILES   := $(sort $(wildcard data/*.csv) $(wildcard data/workloads/*.json) \
                        $(wildcard data/prices/*.csv) $(wildcard data/prices/*/*.csv))
WEB_FILES    := $(sort $(wildcard server/web/*))
LIB_SRC      := $(sort $(wildcard lib/*/*.c))
SERVER_SRC   := $(sort $(wildcard server/*.c))
TOOL_SRC     := $(sort $(wildcard src/*.c))
UNIT_SRC     := $(sort $(wildcard tests/unit/*/test_*.c))

LIB_OBJ    := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/data_embed.o
SERVER_OBJ := $(SERVER_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/web_embed.o
TOOL_OBJ   := $(TOOL_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN   := $(patsubst %.c,$(BUILD)/tests/%,$(notdir $(UNIT_SRC)))

.PHONY: all deps run check test unit cli cases replay web-test hostile torture soak bench fuzz clean man FORCE
all: $(BUILD)/clusterfit $(BUILD)/libclusterfit.so $(BUILD)/docs/clusterfit.1

deps:
	@sh tools/deps.sh

$(BUILD)/lib/%.o: lib/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CF_CFLAGS) $(LIB_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CF_CFLAGS) $(CFLAGS) -c $< -o $@

$(BUILD)/src/cmd_serve.o: CF_CFLAGS += -Iserver
# The release and the commit (issue 26): tools/version.sh runs on every make
# and rewrites version_gen.h only when what it says changes.
$(BUILD)/lib/base/version.o: CF_CFLAGS += -I$(BUILD)/gen
$(BUILD)/lib/base/version.o: $(BUILD)/gen/version_gen.h
$(BUILD)/gen/version_gen.h: FORCE
	@mkdir -p $(dir $@)
	@sh tools/version.sh . > $@.tmp && { cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@; }
FORCE:
$(BUILD)/src/probe_mpi.o: CF_CFLAGS += $(MPI_CFLAGS) $(MPI_DEFS)

-include $(wildcard $(BUILD)/lib/*/*.d $(BUILD)/src/*.d $(BUILD)/server/*.d $(BUILD)/gen/*.d)

$(BUILD)/gen/data_embed.c: $(DATA_FILES) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh cf__embedded_files cf__embedded_file $(DATA_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/web_embed.c: $(WEB_FILES) tools/embed.sh
	@mkdir -p $(dir $@)
	sh tools/embed.sh cf_web_files cf_web_file $(WEB_FILES) > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/%.o: $(BUILD)/gen/%.c
	$(CC) $(CF_CFLAGS) $(LIB_CFLAGS) $(CFLAGS) -Wno-missing-field-initializers -c $< -o $@

$(BUILD)/libclusterfit.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The soname carries the major version (libclusterfit.so.0); make install
# names the file by the whole release (packaging/install.mk).
CF_VERSION_NUM := $(shell cat VERSION)
CF_SOMAJOR     := $(firstword $(subst ., ,$(CF_VERSION_NUM)))
$(BUILD)/libclusterfit.so: $(LIB_OBJ)
	$(CC) -shared $(LDFLAGS) -Wl,-soname,libclusterfit.so.$(CF_SOMAJOR) -o $@ $^ $(LIB_LIBS)

$(BUILD)/clusterfit: $(TOOL_OBJ) $(SERVER_OBJ) $(BUILD)/libclusterfit.a
	$(CC) $(LDFLAGS) -o $@ $(TOOL_OBJ) $(SERVER_OBJ) $(BUILD)/libclusterfit.a $(TOOL_LIBS)

# Unit tests reach the private headers too (-Ilib): they test cf__ pieces.
vpath test_%.c $(sort $(dir $(UNIT_SRC)))
$(BUILD)/tests/%: %.c $(BUILD)/libclusterfit.a
	@mkdir -p $(dir $@)
	$(CC) $(CF_CFLAGS) $(LIB_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libclusterfit.a $(LIB_LIBS) -lcmocka

-include $(wildcard $(BUILD)/tests/*.d)

# The torture driver (issue 21, tests/torture/): the tool linked in, its
# main renamed, with the fault injector's cf__ setters of the archive.
TORTURE_OBJ := $(filter-out $(BUILD)/src/main.o,$(TOOL_OBJ)) $(BUILD)/tests/torture/tool_main.o
$(BUILD)/tests/torture/tool_main.o: src/main.c
	@mkdir -p $(dir $@)
	$(CC) $(CF_CFLAGS) $(CFLAGS) -Dmain=torture_tool_main -c $< -o $@
$(BUILD)/tests/torture/torture: tests/torture/torture.c $(TORTURE_OBJ) $(SERVER_OBJ) $(BUILD)/libclusterfit.a
	$(CC) $(CF_CFLAGS) $(LIB_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(TORTURE_OBJ) $(SERVER_OBJ) \
		$(BUILD)/libclusterfit.a $(TOOL_LIBS)
-include $(wildcard $(BUILD)/tests/torture/*.d)

# The man page is assembled from one fragment per command (docs/man/*.man).
$(BUILD)/docs/clusterfit.1: $(sort $(wildcard docs/man/*.man)) VERSION
	@mkdir -p $(dir $@)
	cat $(filter %.man,$^) | sed "s/@VERSION@/$$(cat VERSION)/" > $@

man: $(BUILD)/docs/clusterfit.1
	man -l $<

run: deps
	$(MAKE) all
	./$(BUILD)/clusterfit plan --workload llama3-70b --deadline 2160

# Every test runner prints "N passed, N failed"; any failure fails `make`.
# `test` runs them in turn; `make unit`, `cli`, `cases`, `replay` and
# `web-test` run one runner each, with what that runner needs built.
RUN_UNIT   = sh tests/run-unit.sh $(UNIT_BIN)
RUN_CLI    = sh tests/cli/run.sh $(BUILD)/clusterfit
RUN_CASES  = sh tests/cases/run.sh $(BUILD)/clusterfit
RUN_REPLAY = sh tests/fuzz/replay.sh $(BUILD)
RUN_WEB    = sh tests/web/run.sh $(BUILD)/clusterfit
RUN_HOSTILE = sh tests/hostile/run.sh $(BUILD)/clusterfit
RUN_TORTURE = sh tests/torture/run.sh $(BUILD)

test: all $(UNIT_BIN) $(BUILD)/tests/torture/torture
	@$(RUN_UNIT)
	@$(RUN_CLI)
	@if [ -x tests/cases/run.sh ]; then $(RUN_CASES); fi
	@if [ -x tests/fuzz/replay.sh ]; then $(RUN_REPLAY); fi
	@$(RUN_HOSTILE)
	@$(TORTURE_TEST_ENV) $(RUN_TORTURE)
	@sh tests/check-symbols.sh $(BUILD)/libclusterfit.so
	@sh tools/checksrc.sh . $(BUILD)/libclusterfit.a

unit: $(UNIT_BIN)
	@$(RUN_UNIT)

cli: all
	@$(RUN_CLI)

cases: all
	@$(RUN_CASES)

replay: $(BUILD)/libclusterfit.a
	@$(RUN_REPLAY)

web-test: all
	@$(RUN_WEB)

# The hostile-input suite alone (issue 15; also part of `test`), and the
# 10-minute soak under load (wrk), figures into bench/RESULTS.md by hand.
hostile: all
	@$(RUN_HOSTILE)

# The catalog's write paths failed one call at a time and killed at random
# (issue 21, tests/torture/): `make test` runs a strided subset, `make
# torture` every N of every kind and 1,000 kill trials per path (minutes).
torture: $(BUILD)/tests/torture/torture
	@$(RUN_TORTURE) full

torture-quick: $(BUILD)/tests/torture/torture
	@$(RUN_TORTURE)

soak: all
	@sh bench/soak.sh $(BUILD)/clusterfit

check: deps
	$(MAKE) test
	$(MAKE) fit-check
	$(MAKE) BUILD=build-asan SAN=1 CFLAGS="-O1 -g" test
	@sh tests/build-without-pkg-config.sh
	@sh tests/install/run.sh $(BUILD)
	@sh tests/container/run.sh $(BUILD)
	@if [ -x tests/web/run.sh ]; then $(RUN_WEB); fi

# Fitting as code (issue 20): the validation files every fitted constant
# and every interval constant of lib/model/constants.def comes from.
# `make fit` prints the fit, its rows and residuals, and the out-of-sample
# error by class; `make fit-update` writes the fitted values into
# constants.def; `make check` fails when constants.def differs (fit-check).
FIT_FILES = tests/data/shared/data/validation/collectives.csv \
	tests/data/validation/collectives-holdout.csv tests/data/validation/collectives-sweeps.csv \
	tests/data/shared/data/validation/training.csv tests/data/validation/training-holdout.csv \
	tests/data/validation/training-megatron-bridge.csv \
	tests/data/validation/training-megatron-bridge-holdout.csv \
	tests/data/validation/training-moe.csv tests/data/validation/training-moe-holdout.csv \
	tests/data/validation/serving.csv

fit: all
	./$(BUILD)/clusterfit validate refit --intervals $(FIT_FILES)

fit-update: all
	./$(BUILD)/clusterfit validate refit --intervals --format json $(FIT_FILES) > $(BUILD)/fit.json
	python3 tools/fit-update.py $(BUILD)/fit.json lib/model/constants.def docs/model.md docs/model-step.md docs/model-serve.md

fit-check: all
	@./$(BUILD)/clusterfit validate refit --check --intervals $(FIT_FILES) > /dev/null && \
		echo "fit: constants.def is what make fit gives"

validate-cv: all
	./$(BUILD)/clusterfit validate training --cv source $(FIT_FILES)
	./$(BUILD)/clusterfit validate collectives --cv source $(FIT_FILES)
	./$(BUILD)/clusterfit validate serving --cv source $(FIT_FILES)

bench: all
	@sh bench/run.sh $(BUILD)

include packaging/install.mk

fuzz:
	@sh tools/deps.sh fuzz
	@sh tests/fuzz/run.sh

clean:
	rm -rf build build-asan build-fuzz build-nopc build-nopc.log
