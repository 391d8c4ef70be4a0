#!/usr/bin/env bash
# The README's two commands, for a fresh Debian bookworm machine with the CUDA toolkit:
#   ./quickstart.sh app    install what is missing, build, start on the example workspace
#   ./quickstart.sh test   install what is missing, build, run the whole test suite, then
#                          again under ASan/UBSan with the fuzz targets (build-sanitize/)
# Set CUDA_PATH to use a toolkit that is not in a standard place.
set -euo pipefail
cd "$(dirname "$0")"
mode=${1:-app}
case "$mode" in app|test) ;; *) echo "usage: $0 app|test" >&2; exit 2 ;; esac
build=${NVPG_BUILD_DIR:-build}

# 1. The CUDA toolkit (headers at build time; libNVVM, libdevice, nvJitLink at run time).
#    The same places, in the same order, as CMake and the program search.
roots=()
for v in CUDA_PATH CUDA_HOME CONDA_PREFIX; do [ -n "${!v:-}" ] && roots+=("${!v}"); done
roots+=(/usr/local/cuda)
newest=$(ls -d /usr/local/cuda-[0-9]* 2>/dev/null | sort -V | tail -n 1 || true)
[ -n "$newest" ] && roots+=("$newest")
roots+=(/opt/cuda)
cuda=""
for r in "${roots[@]}"; do
  if [ -f "$r/include/nvJitLink.h" ] && { [ -f "$r/include/nvvm.h" ] || [ -f "$r/nvvm/include/nvvm.h" ]; }; then
    cuda=$r; break
  fi
done
if [ -z "$cuda" ]; then
  echo "No CUDA toolkit found (looked for include/nvJitLink.h and nvvm.h) in:" >&2
  printf '  %s\n' "${roots[@]}" >&2
  echo "Install the CUDA toolkit, or point at one: CUDA_PATH=/path/to/cuda $0 $mode" >&2
  exit 1
fi
echo "CUDA toolkit: $cuda"

# 2. Debian packages, only those missing.
# Every package named: nothing here may come only as an apt Recommends (Qt6Charts' CMake files
# need Qt6OpenGL's, which qt6-base-dev only recommends).
packages=(cmake ninja-build g++ pkg-config qt6-base-dev libqt6opengl6-dev libqscintilla2-qt6-dev qt6-charts-dev
          nlohmann-json3-dev libcli11-dev libfmt-dev libxxhash-dev libre2-dev libdtl-dev libgraphviz-dev llvm-14
          xvfb xdotool imagemagick clang-14 libclang-rt-14-dev ccache)
# The packaging test builds the .deb (dpkg-shlibdeps) and checks it with the validators and lintian;
# the format test runs clang-format; tst_cli_remote starts an sshd of its own.
[ "$mode" = test ] && packages+=(dpkg-dev desktop-file-utils appstream shared-mime-info lintian groff-base man-db gzip clang-format-14
                                 openssh-server openssh-client)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# 3. Build: the app command builds what it starts (the app, which is also its own engine
#    process, and nvpg) and what `cmake --install build` installs, nothing else; the test command
#    builds everything. Both configure build/ the same way, so the test command after the app
#    command compiles only what the app command did not: with -Werror, since warnings stay at
#    zero on this platform (the test command and CI check it); ccache when installed
#    (cmake/CompilerCache.cmake).
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDA_PATH="$cuda" -DNVPG_WERROR=ON
if [ "$mode" = test ]; then
  cmake --build "$build" -j "$(nproc)"
else
  cmake --build "$build" -j "$(nproc)" --target nvpg_installable
fi

# 4. Start, or test. The suites spend much of their time waiting for the processes they start
#    (engines, nvdisasm, python, the app under Xvfb): twice as many at once as there are cores
#    keeps the cores busy (docs/dev/testing.md).
jobs=$(( $(nproc) * 2 ))
if [ "$mode" = test ]; then
  ctest --test-dir "$build" --output-on-failure -j "$jobs"
  # 5. Core and the command line again under AddressSanitizer and UBSan (clang-14), with the
  #    fuzz targets; -O1 and line tables only keep this build quick. See docs/dev/testing.md, "Sanitizers and fuzzing".
  sanitize=${NVPG_SANITIZE_BUILD_DIR:-build-sanitize}
  CC=clang-14 CXX=clang++-14 cmake -S . -B "$sanitize" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_C_FLAGS_DEBUG=-O1 -gline-tables-only" "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -gline-tables-only" \
    -DNVPG_BUILD_GUI=OFF -DNVPG_BUILD_FUZZ=ON -DNVPG_WERROR=ON -DCUDA_PATH="$cuda"
  cmake --build "$sanitize" -j "$(nproc)"
  exec ctest --test-dir "$sanitize" --output-on-failure -j "$jobs"
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "No display to open the app on; compiling the example with nvpg instead:" >&2
  exec "$build/app/cli/nvpg" compile resources/examples/saxpy.nvpg
fi
exec "$build/app/gui/nvvm-playground" resources/examples/saxpy.nvpg
