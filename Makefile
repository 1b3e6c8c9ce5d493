# Builds Lazuli for this machine with the fastest safe flags and copies the binary to $(EXE),
# the way OpenBench and other testing frameworks build engines:
#
#   make                   # ./lazuli
#   make EXE=/tmp/lazuli-dev
#
# The flags: -C target-cpu=native (every instruction this CPU has), and the `pext` feature
# (sliding attacks indexed with PEXT) only where PEXT is fast: Intel, and AMD from Zen 3 (CPU
# family 25) on. AMD before Zen 3 (families 23 and 24: Zen, Zen+, Zen 2) runs PEXT in microcode,
# which makes move generation twice as slow, so magic bitboards stay there.
# `make PEXT=yes` or `make PEXT=no` overrides the choice.

EXE ?= lazuli
CARGO ?= cargo
TARGET_DIR ?= target/make

ifeq ($(OS),Windows_NT)
BIN := $(TARGET_DIR)/release/lazuli.exe
else
BIN := $(TARGET_DIR)/release/lazuli
endif

CPUINFO := /proc/cpuinfo
VENDOR := $(shell awk -F': ' '/^vendor_id/ {print $$2; exit}' $(CPUINFO) 2>/dev/null)
FAMILY := $(shell awk -F': ' '/^cpu family/ {print $$2; exit}' $(CPUINFO) 2>/dev/null)
HAS_BMI2 := $(shell grep -m1 -ow bmi2 $(CPUINFO) 2>/dev/null)
PEXT ?= $(shell [ -n "$(HAS_BMI2)" ] && { [ "$(VENDOR)" = GenuineIntel ] || { [ "$(VENDOR)" = AuthenticAMD ] && [ "$(FAMILY)" -ge 25 ]; }; } && echo yes || echo no)

ifeq ($(PEXT),yes)
FEATURES := --features pext
else
FEATURES :=
endif

.PHONY: all build clean info

all: build
	cp "$(BIN)" "$(EXE)"

build:
	RUSTFLAGS="$(RUSTFLAGS) -C target-cpu=native" $(CARGO) build --release --bin lazuli --target-dir "$(TARGET_DIR)" $(FEATURES)

# What `make` would choose here.
info:
	@echo "CPU: $(VENDOR) family $(FAMILY), BMI2: $(if $(HAS_BMI2),yes,no); PEXT: $(PEXT); features: $(FEATURES)"

clean:
	$(CARGO) clean --target-dir "$(TARGET_DIR)"
