# The two commands of the README's Quick start, and the heavier checks beside them.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= /usr/local

.PHONY: demo test deps build install lint release static-libs release-build

## Installs liblua5.4-dev (and libssl-dev, for SHA-256) through apt when pkg-config cannot find them,
## and the test suite's tools when missing: luacheck (lua-check) and stock lua5.4.
deps:
	@if ! pkg-config --exists lua5.4 libcrypto 2>/dev/null; then \
	  echo "lifesim: pkg-config cannot find lua5.4 or libcrypto; installing liblua5.4-dev and libssl-dev with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq liblua5.4-dev libssl-dev pkg-config; \
	fi
	@if ! command -v luacheck >/dev/null || ! command -v lua5.4 >/dev/null; then \
	  echo "lifesim: installing lua-check (luacheck) and lua5.4 for the test suite with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq lua-check lua5.4; \
	fi

## Checks the bundled Lua scripts with luacheck and .luacheckrc (the test suite runs it too).
lint: deps
	luacheck Scripts

build: deps
	$(SWIFT) build --product lifesim

## Builds lifesim and runs a bundled scenario, printing its trace.
demo: build
	.build/debug/lifesim run Scripts/scenarios/cold_launch.lua

## Runs the whole test suite (what .ci/run runs): unit and binary tests, then the short reliability suite.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	reliability/run --quick

## The archives every release build links instead of shared libraries: Lua (liblua5.4-dev's
## liblua5.4.a) and libstdc++. A folder holding only archives, searched before the system's:
## -llua5.4 and -lstdc++ find the .a files there. Its lua5.4.pc replaces the system one, whose -L
## names the .so's folder. With the Swift runtime linked in too (--static-swift-stdlib) and the
## release executable fully static and position-dependent (Package.swift), start-up loads no
## shared library and applies no relocations to the Swift metadata. The code calls each generic
## type's metadata accessor instead of having the runtime decode its mangled name and check its
## conformances by scanning every conformance record in the binary (a quarter of a one-verb
## run's instructions).
STATIC_LIBS := $(CURDIR)/.build/static-libs
LUA_LIBDIR = $(shell pkg-config --variable=libdir lua5.4)
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4)
STDCXX_ARCHIVE = $(shell $(CC) -print-file-name=libstdc++.a)
RELEASE_BUILD = PKG_CONFIG_PATH=$(STATIC_LIBS) $(SWIFT) build -c release --static-swift-stdlib \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors
static-libs: deps
	@test -f "$(LUA_LIBDIR)/liblua5.4.a" || { echo "lifesim: $(LUA_LIBDIR)/liblua5.4.a is missing (liblua5.4-dev ships it)"; exit 2; }
	@test -f "$(STDCXX_ARCHIVE)" || { echo "lifesim: libstdc++.a is missing (install libstdc++-dev)"; exit 2; }
	@mkdir -p $(STATIC_LIBS)
	@ln -sf "$(LUA_LIBDIR)/liblua5.4.a" $(STATIC_LIBS)/liblua5.4.a
	@ln -sf "$(STDCXX_ARCHIVE)" $(STATIC_LIBS)/libstdc++.a
	@printf 'Name: Lua\nDescription: Lua 5.4, static\nVersion: 5.4\nLibs: -L%s -llua5.4 -lm\nCflags: %s\n' \
	  "$(STATIC_LIBS)" "$(LUA_CFLAGS)" > $(STATIC_LIBS)/lua5.4.pc

## The release build of `install` and bench/run: PRODUCT=lifesim-bench for the benchmarks' binary.
PRODUCT ?= lifesim
release-build: static-libs
	$(RELEASE_BUILD) --product $(PRODUCT)

## Installs the release build under PREFIX: bin/lifesim, share/lifesim/lib (the modules
## `require` finds without --lib) and share/lifesim/types (the LuaLS annotations). No shared
## library is loaded at start-up (see static-libs), and the binary runs without the toolchain,
## Lua or even the C library's shared objects.
install: release-build
	install -D -m 755 .build/release/lifesim $(PREFIX)/bin/lifesim
	install -d $(PREFIX)/share/lifesim/lib $(PREFIX)/share/lifesim/types
	install -m 644 Scripts/lib/*.lua $(PREFIX)/share/lifesim/lib/
	install -m 644 Scripts/types/*.lua $(PREFIX)/share/lifesim/types/

## A self-contained Linux binary for machines without Swift or Lua (the build of `install`), in a
## tarball with the bundled scripts and the LuaLS types: dist/lifesim-VERSION-linux-ARCH.tar.gz.
DIST_BUILD := .build/dist
release: static-libs
	$(RELEASE_BUILD) --product lifesim --scratch-path $(DIST_BUILD)
	@set -e; version=$$($(DIST_BUILD)/release/lifesim --version); arch=$$(uname -m); \
	  name=lifesim-$$version-linux-$$arch; stage=$(DIST_BUILD)/stage/$$name; \
	  rm -rf $(DIST_BUILD)/stage; mkdir -p $$stage/bin dist; \
	  cp $(DIST_BUILD)/release/lifesim $$stage/bin/; strip $$stage/bin/lifesim; \
	  cp -R Scripts $$stage/Scripts; cp README.md $$stage/; \
	  tar -C $(DIST_BUILD)/stage -czf dist/$$name.tar.gz $$name; \
	  echo "dist/$$name.tar.gz"
