#!/usr/bin/env bash
# ctest's nvdisasm_wheel set-up (tests/CMakeLists.txt): the pip wheel nvidia-cuda-nvdisasm in a
# venv of the build tree, unpacked as `pip install` lays it out for a user
# (site-packages/nvidia/cu13/bin/nvdisasm). The suites that test SASS run with this venv's python3
# first on PATH, so the toolkit's own search finds the wheel: a discovery test, not a shortcut.
# The wheel is downloaded once into the tests' download folder (tests/TestDownloads.sh) and kept. Without a network this still exits 0, writing why to
# VENV/nvdisasm-status: those suites then skip, saying so. Not a dependency of the product.
set -u
venv=$1
version=${NVPG_NVDISASM_WHEEL:-13.2.51}  # the oldest CUDA 13 wheel: there is none for 13.0
status=$venv/nvdisasm-status
. "$(dirname "$0")/TestDownloads.sh"
mkdir -p "$venv"
wheels=$(test_downloads nvdisasm) || { echo "unavailable: no folder for the tests' downloads" > "$status"; exit 0; }
say() { printf '%s\n' "$1" > "$status"; printf '%s\n' "$1"; exit 0; }
if [ ! -x "$venv/bin/python3" ]; then
  python3 -m venv --without-pip "$venv" > "$venv/venv.log" 2>&1 ||
    say "unavailable: python3 -m venv $venv failed: $(tail -n 2 "$venv/venv.log" | tr '\n' ' ')"
fi
site=$("$venv/bin/python3" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') ||
  say "unavailable: the venv's python3 does not run"
wheel=$(ls "$wheels"/nvidia_cuda_nvdisasm-"$version"-*.whl 2> /dev/null | head -n 1)
if [ -z "$wheel" ]; then
  if ! timeout 300 python3 -m pip download --no-deps --only-binary=:all: -d "$wheels" \
      "nvidia-cuda-nvdisasm==$version" > "$venv/download.log" 2>&1; then
    say "unavailable: pip download nvidia-cuda-nvdisasm==$version failed (no network?): $(grep -v '^ ' "$venv/download.log" | tail -n 2 | tr '\n' ' ')"
  fi
  wheel=$(ls "$wheels"/nvidia_cuda_nvdisasm-"$version"-*.whl 2> /dev/null | head -n 1)
  [ -n "$wheel" ] || say "unavailable: pip download gave no nvidia_cuda_nvdisasm-$version wheel"
fi
if [ ! -x "$site/nvidia/cu13/bin/nvdisasm" ]; then
  # As pip installs it (tests/UnpackWheel.py).
  "$venv/bin/python3" "$(dirname "$0")/UnpackWheel.py" "$wheel" "$site" || say "unavailable: could not unpack $wheel into $site"
fi
[ -x "$site/nvidia/cu13/bin/nvdisasm" ] || say "unavailable: the wheel has no nvidia/cu13/bin/nvdisasm"
say "ok: $site/nvidia/cu13/bin/nvdisasm"
