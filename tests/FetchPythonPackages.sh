#!/usr/bin/env bash
# ctest's python_packages set-up (tests/CMakeLists.txt): numpy, cuda-core and numba-cuda from PyPI
# in a venv of the build tree, for the suites that check nvpg against them (nvpg import numba's PTX
# against numba's own). numba-cuda[cu13] brings CUDA 13.x wheels of libNVVM, nvJitLink and NVRTC;
# they are uninstalled again so that numba uses the toolkit the tests use (CUDA_HOME). cuda-core 1.x
# needs cuda-bindings of the toolkit's major release beside it, named here rather than left to
# numba-cuda's extra (nvpg export's scripts use both). Installed
# once and kept. Without a network this still exits 0, writing why to VENV/status ("ok: ..." or
# "unavailable: why"): those suites then skip, saying so. Not a dependency of the product.
set -u
venv=$1
status=$venv/status
mkdir -p "$venv"
say() { printf '%s\n' "$1" > "$status"; printf '%s\n' "$1"; exit 0; }
check() { "$venv/bin/python" -c 'import numpy, numba.cuda, cuda.core, cuda.bindings.nvvm' > /dev/null 2>&1; }
if [ -x "$venv/bin/python" ] && check; then
  say "ok: $("$venv/bin/python" -m pip list 2> /dev/null | grep -iE '^(numba-cuda|numba|numpy|cuda-core) ' | tr -s ' ' | paste -sd, -)"
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" > "$venv/venv.log" 2>&1 ||
    say "unavailable: python3 -m venv $venv failed: $(tail -n 2 "$venv/venv.log" | tr '\n' ' ')"
fi
# The wheels are downloaded once into the tests' download folder (tests/TestDownloads.sh) and
# installed from there without the index, so that later venvs (the sanitizer build's, a second
# clone's) need no network.
. "$(dirname "$0")/TestDownloads.sh"
wheels=$(test_downloads python-wheels) || say "unavailable: no folder for the tests' downloads"
packages=(numpy cuda-core "cuda-bindings==13.*" "numba-cuda[cu13]")
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
# --no-compile, then compileall on every core: pip compiles one module at a time. The modules must
# be compiled here: where PYTHONDONTWRITEBYTECODE is set (CI machines often set it) python never
# writes what it compiles on import, and every run of numba would compile numba again (twice as slow).
install=("${pip[@]}" install --no-compile --no-index --find-links "$wheels" "${packages[@]}")
if ! timeout 600 "${install[@]}" > "$venv/install.log" 2>&1; then
  if ! timeout 600 "${pip[@]}" download -d "$wheels" "${packages[@]}" > "$venv/download.log" 2>&1 ||
      ! timeout 600 "${install[@]}" > "$venv/install.log" 2>&1; then
    say "unavailable: pip install numpy cuda-core cuda-bindings==13.* numba-cuda[cu13] failed (no network?): $(cat "$venv/download.log" "$venv/install.log" 2> /dev/null | grep -v '^ ' | tail -n 2 | tr '\n' ' ')"
  fi
fi
"$venv/bin/python" -m pip uninstall -y nvidia-nvvm nvidia-nvjitlink nvidia-cuda-nvrtc cuda-toolkit >> "$venv/install.log" 2>&1
"$venv/bin/python" -m compileall -q -j 0 "$venv/lib" >> "$venv/install.log" 2>&1
check || say "unavailable: numba.cuda, numpy or cuda.core do not import in $venv after pip install (see $venv/install.log)"
say "ok: $("$venv/bin/python" -m pip list 2> /dev/null | grep -iE '^(numba-cuda|numba|numpy|cuda-core) ' | tr -s ' ' | paste -sd, -)"
