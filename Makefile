# The two commands of the README's Quick start, and the heavier checks beside them.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PREFIX ?= /usr/local

.PHONY: demo test deps build install lint

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

## Installs the release build under PREFIX: bin/lifesim, share/lifesim/lib (the modules
## `require` finds without --lib) and share/lifesim/types (the LuaLS annotations). The Swift
## runtime is linked in statically: nothing to find and relocate at start-up (6 ms of CPU instead
## of 9 for a one-verb run), and the binary runs without the toolchain.
install: deps
	$(SWIFT) build -c release --product lifesim --static-swift-stdlib
	install -D -m 755 .build/release/lifesim $(PREFIX)/bin/lifesim
	install -d $(PREFIX)/share/lifesim/lib $(PREFIX)/share/lifesim/types
	install -m 644 Scripts/lib/*.lua $(PREFIX)/share/lifesim/lib/
	install -m 644 Scripts/types/*.lua $(PREFIX)/share/lifesim/types/
