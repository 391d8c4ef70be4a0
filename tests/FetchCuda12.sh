#!/usr/bin/env bash
# ctest's cuda12_wheels set-up (tests/CMakeLists.txt): a second, real CUDA toolkit for the
# comparison tests, CUDA 12.9's libNVVM, libdevice, ptxas and nvJitLink from NVIDIA's pip wheels
# nvidia-cuda-nvcc-cu12 and nvidia-nvjitlink-cu12, unpacked as `pip install` lays them out for a
# user (DIR/site-packages/nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so, .../nvjitlink/lib/libnvJitLink.so.12,
# each with its .dist-info beside nvidia/). The suites get DIR/site-packages/nvidia as a toolkit,
# as a user gives it to --cuda-path. The wheels are downloaded once into the tests' download folder
# (tests/TestDownloads.sh) and kept. Without a network
# this still exits 0, writing why to DIR/status: those tests then skip, saying so. Not a
# dependency of the product.
set -u
dir=$1
version=${NVPG_CUDA12_WHEELS:-12.9.86}
status=$dir/status
site=$dir/site-packages
mkdir -p "$site"
. "$(dirname "$0")/TestDownloads.sh"
wheels=$(test_downloads cuda12) || { echo "unavailable: no folder for the tests' downloads" > "$status"; exit 0; }
say() { printf '%s\n' "$1" > "$status"; printf '%s\n' "$1"; exit 0; }
for package in nvidia-cuda-nvcc-cu12 nvidia-nvjitlink-cu12; do
  file=$(echo "$package" | tr - _)
  wheel=$(ls "$wheels"/"$file"-"$version"-*.whl 2> /dev/null | head -n 1)
  if [ -z "$wheel" ]; then
    if ! timeout 300 python3 -m pip download --no-deps --only-binary=:all: -d "$wheels" \
        "$package==$version" > "$dir/download.log" 2>&1; then
      say "unavailable: pip download $package==$version failed (no network?): $(grep -v '^ ' "$dir/download.log" | tail -n 2 | tr '\n' ' ')"
    fi
    wheel=$(ls "$wheels"/"$file"-"$version"-*.whl 2> /dev/null | head -n 1)
    [ -n "$wheel" ] || say "unavailable: pip download gave no $file-$version wheel"
  fi
  if [ ! -d "$site/$file-$version.dist-info" ]; then
    # As pip installs it (tests/UnpackWheel.py).
    python3 "$(dirname "$0")/UnpackWheel.py" "$wheel" "$site" || say "unavailable: could not unpack $wheel into $site"
  fi
done
[ -f "$site/nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so" ] || say "unavailable: the wheel has no nvidia/cuda_nvcc/nvvm/lib64/libnvvm.so"
say "ok: $site/nvidia"
