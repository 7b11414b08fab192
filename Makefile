# The two commands of the README's Quick start, and the heavier checks beside them.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= /usr/local

.PHONY: demo test test-quick deps test-tools build install lint release static-libs release-build image-tree image

## What building needs: liblua5.4-dev (Lua) and libssl-dev (libcrypto's SHA-256 hashes the log),
## installed through apt when pkg-config cannot find them. `make demo` needs nothing more.
deps:
	@if ! pkg-config --exists lua5.4 libcrypto 2>/dev/null; then \
	  echo "lifesim: pkg-config cannot find lua5.4 or libcrypto; installing liblua5.4-dev and libssl-dev with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq liblua5.4-dev libssl-dev pkg-config; \
	fi

## What the test suite needs beyond building, each installed only when missing and announced first:
## luacheck (lua-check) and stock lua5.4 with apt; for the export checks Chromium with apt and
## Python's playwright, duckdb and junitparser with pip; PyYAML with pip for the manifest's test; jsonschema for the SARIF test. A browser or duckdb that cannot be
## installed is not fatal: those tests say they skipped and why.
test-tools: deps
	@if ! command -v luacheck >/dev/null || ! command -v lua5.4 >/dev/null; then \
	  echo "lifesim: installing lua-check (luacheck) and lua5.4 for the test suite with apt-get"; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq lua-check lua5.4; \
	fi
	@if [ ! -x /usr/bin/chromium ]; then \
	  echo "lifesim: installing chromium with apt-get for the HTML page tests (headless)"; \
	  { $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium; } || echo "lifesim: chromium could not be installed; the browser tests will be skipped"; \
	fi
	@for pair in playwright:playwright duckdb:duckdb junitparser:junitparser yaml:PyYAML jsonschema:jsonschema; do \
	  module=$${pair%%:*} package=$${pair#*:}; \
	  if ! python3 -c "import $$module" 2>/dev/null; then \
	    echo "lifesim: installing Python's $$package with pip for the export and deployment tests"; \
	    python3 -m pip install -q $$package || echo "lifesim: $$package could not be installed; the tests that need it say so"; \
	  fi; \
	done

## Checks the bundled Lua scripts with luacheck and .luacheckrc (the test suite runs it too).
lint: test-tools
	luacheck Scripts

build: deps
	$(SWIFT) build --product lifesim

## Builds lifesim and runs a bundled scenario, printing its trace.
demo: build
	.build/debug/lifesim run Scripts/scenarios/cold_launch.lua

## The two tests that build lifesim again from its source: the release tarball (`make release`)
## and a package that depends on lifesim by version. Most of the suite's time; run after the rest.
REBUILD_TESTS = theReleaseBinaryRunsTheBundledSuiteOutsideTheRepoWithoutSwift|aPackageDependsOnLifesimByVersionAndBuilds

## Runs the whole test suite (what .ci/run runs): unit and binary tests, the two that build lifesim
## again, then the short reliability suite.
test: test-quick
	@test "$$($(SWIFT) test list --skip-build | grep -cE '$(REBUILD_TESTS)')" = 2 || \
	  { echo "lifesim: REBUILD_TESTS in the Makefile names tests that no longer exist: rename them there"; exit 2; }
	$(SWIFT) test --skip-build --filter '$(REBUILD_TESTS)'
	reliability/run --quick

## Every test but the two that build lifesim again: what to run while working (about 3 minutes
## once built).
test-quick: test-tools
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(REBUILD_TESTS)'

## The archives every release build links instead of shared libraries: Lua (liblua5.4-dev's
## liblua5.4.a) and libstdc++. A folder holding only archives, searched before the system's:
## -llua5.4 and -lstdc++ find the .a files there. Its lua5.4.pc replaces the system one, whose -L
## names the .so's folder. With the Swift runtime linked in too (--static-swift-stdlib) and the
## executable fully static (-static-executable: the C library too, position-dependent), start-up
## loads no shared library and applies no relocations to the Swift metadata (a PIE needs about
## 79,000; a dynamic libc another 0.8 ms of system time in a one-verb run). The code calls each
## generic type's metadata accessor instead of having the runtime decode its mangled name and
## check its conformances by scanning every conformance record in the binary (a quarter of a
## one-verb run's instructions). The result runs on any x86-64 or arm64 Linux with a kernel of
## 3.2 or later. These flags live here, not in Package.swift: a plain `swift build -c release`
## links an ordinary dynamic binary, and SwiftPM accepts the package as a dependency (it refuses
## unsafeFlags there). The release build leaves out the run-time checks of exclusive access
## (-enforce-exclusivity=unchecked): every access to a class's stored property paid a call into the
## runtime's access set, 7 % of a long run's main thread; the debug build the tests run keeps them,
## so a conflicting access still traps there.
##
## Every static build (release, install, bench/run) shares one scratch folder, so the binary is
## compiled once; `swift build` and `swift build -c release` keep .build to themselves.
STATIC_LIBS := $(CURDIR)/.build/static-libs
STATIC_BUILD := .build/static
LUA_LIBDIR = $(shell pkg-config --variable=libdir lua5.4)
LUA_CFLAGS = $(shell pkg-config --cflags lua5.4)
STDCXX_ARCHIVE = $(shell $(CC) -print-file-name=libstdc++.a)
RELEASE_BUILD = PKG_CONFIG_PATH=$(STATIC_LIBS) $(SWIFT) build -c release --scratch-path $(STATIC_BUILD) \
  --static-swift-stdlib -Xswiftc -static-executable \
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors -Xswiftc -enforce-exclusivity=unchecked
static-libs: deps
	@test -f "$(LUA_LIBDIR)/liblua5.4.a" || { echo "lifesim: $(LUA_LIBDIR)/liblua5.4.a is missing (liblua5.4-dev ships it)"; exit 2; }
	@test -f "$(STDCXX_ARCHIVE)" || { echo "lifesim: libstdc++.a is missing (install libstdc++-dev)"; exit 2; }
	@mkdir -p $(STATIC_LIBS)
	@ln -sf "$(LUA_LIBDIR)/liblua5.4.a" $(STATIC_LIBS)/liblua5.4.a
	@ln -sf "$(STDCXX_ARCHIVE)" $(STATIC_LIBS)/libstdc++.a
	@printf 'Name: Lua\nDescription: Lua 5.4, static\nVersion: 5.4\nLibs: -L%s -llua5.4 -lm\nCflags: %s\n' \
	  "$(STATIC_LIBS)" "$(LUA_CFLAGS)" > $(STATIC_LIBS)/lua5.4.pc

## The static release build: PRODUCT=lifesim-bench for the benchmarks' binary (bench/run).
PRODUCT ?= lifesim
release-build: static-libs
	$(RELEASE_BUILD) --product $(PRODUCT)

## Installs the static release build under PREFIX: bin/lifesim, share/lifesim/lib (the modules
## `require` finds without --lib), share/lifesim/types (the LuaLS annotations) and share/lifesim/scan
## (`lifesim scan --check`'s battery). The binary
## runs without the toolchain, Lua or even the C library's shared objects. After `make release`
## nothing is compiled again (one scratch folder, see above).
install: release-build
	install -D -m 755 $(STATIC_BUILD)/release/lifesim $(PREFIX)/bin/lifesim
	install -d $(PREFIX)/share/lifesim/lib $(PREFIX)/share/lifesim/types $(PREFIX)/share/lifesim/scan
	install -m 644 Scripts/lib/*.lua $(PREFIX)/share/lifesim/lib/
	install -m 644 Scripts/types/*.lua $(PREFIX)/share/lifesim/types/
	install -m 644 Scripts/scan/*.lua.in $(PREFIX)/share/lifesim/scan/

## A self-contained Linux binary for machines without Swift or Lua (the build of `install`), in a
## tarball with the bundled scripts and the LuaLS types: dist/lifesim-VERSION-linux-ARCH.tar.gz.
release: release-build
	@set -e; version=$$($(STATIC_BUILD)/release/lifesim --version); arch=$$(uname -m); \
	  name=lifesim-$$version-linux-$$arch; stage=$(STATIC_BUILD)/stage/$$name; \
	  rm -rf $(STATIC_BUILD)/stage; mkdir -p $$stage/bin dist; \
	  cp $(STATIC_BUILD)/release/lifesim $$stage/bin/; strip $$stage/bin/lifesim; \
	  cp -R Scripts $$stage/Scripts; cp README.md $$stage/; \
	  tar -C $(STATIC_BUILD)/stage -czf dist/$$name.tar.gz $$name; \
	  echo "dist/$$name.tar.gz"

## The container image (Containerfile): its tree is laid out from the release tarball by
## deploy/image-tree, then built with podman (CONTAINER=docker works too) and tagged IMAGE, the
## name deploy/kubernetes/explore-job.yaml runs. Push it where your cluster pulls from:
## `make image IMAGE=registry.example.com/team/lifesim:latest && podman push $IMAGE`.
IMAGE ?= lifesim:latest
CONTAINER ?= podman
IMAGE_TREE := $(STATIC_BUILD)/image
image-tree: release
	@rm -rf $(IMAGE_TREE)
	@deploy/image-tree dist/lifesim-$$($(STATIC_BUILD)/release/lifesim --version)-linux-$$(uname -m).tar.gz $(IMAGE_TREE)

image: image-tree
	$(CONTAINER) build -f Containerfile -t $(IMAGE) $(IMAGE_TREE)
