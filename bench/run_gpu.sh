#!/usr/bin/env bash
# Runs every speed benchmark of the engine and prints one table of their goals, for the GPU machine
# (see ../shared/gpu-machine/README.md: a bundle made with bundle.sh, run through its run.sh).
#   bash bench/run_gpu.sh BUILD_DIR [REPETITIONS]
# BUILD_DIR holds app/cli/nvpg and bench/*; each benchmark's own output goes to
# $OUT_DIR (default: a temporary directory) as NAME.log, and the GOAL lines of all of them end up
# in the table printed last. A benchmark that is missing or fails is named in the table.
set -u
build=${1:?usage: run_gpu.sh BUILD_DIR [REPETITIONS]}
reps=${2:-15}
src=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$out"
export NVPG_SOURCE_DIR=${NVPG_SOURCE_DIR:-$src}
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
nvpg=$build/app/cli/nvpg
# A wrapper that runs each program (the bundle's run.sh sets the library path); plain otherwise.
runner=${BENCH_RUNNER:-}

status=()
bench() {  # NAME PROGRAM ARGS...
    local name=$1 prog=$2
    shift 2
    if [ ! -x "$prog" ]; then
        status+=("$name: not built ($prog)")
        return
    fi
    echo "== $name: $prog $*" | tee "$out/$name.log"
    local start=$SECONDS
    $runner "$prog" "$@" 2>&1 | tee -a "$out/$name.log"
    local rc=${PIPESTATUS[0]}
    status+=("$name: exit $rc, $((SECONDS - start)) s")
}

echo "machine: $(nproc) cores; $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bench process "$build/bench/nvpg_bench_process" --runs "$reps" --nvpg "$nvpg"
bench warm "$build/bench/nvpg_bench_warm" --repetitions "$reps" --nvpg "$nvpg"
bench cache "$build/bench/nvpg_bench_cache" --repetitions 5 --kernels 300
bench progressive "$build/bench/nvpg_bench_progressive" --repetitions "$reps" --nvpg "$nvpg"
bench large "$build/bench/nvpg_bench_large"

echo
echo "== issue 14's goals (logs in $out) =="
echo "| goal | measured | target | |"
echo "|---|---|---|---|"
cat "$out"/*.log | sed -n 's/^GOAL | \(.*\)$/| \1 |/p'
echo
for s in "${status[@]}"; do echo "  $s"; done
