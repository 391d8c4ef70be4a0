#!/usr/bin/env python3
"""Runs numba-cuda's own kernels and the NVVM IR numba wrote for them (tests/data/numba, run
through `nvpg run`) on the same inputs, and checks that the outputs are the same.

For the GPU test machine, which has numba-cuda; not part of ctest. Usage:
    python3 tests/gpu/numba_compare.py NVPG [WORKDIR]

numba passes each 1-d float32 array as 7 kernel parameters (meminfo, parent, nitems, itemsize,
data, shape, stride); nvpg run gets them as ptr:null ptr:null i64:N i64:4 buf:... i64:N i64:4.
"""
import math
import os
import re
import subprocess
import sys

import numpy as np

# numba-cuda releases that predate NumPy 2.4 still name np.row_stack, which 2.4 removed.
if not hasattr(np, "row_stack"):
    np.row_stack = np.vstack
from numba import cuda  # noqa: E402

NVPG = sys.argv[1]
WORK = sys.argv[2] if len(sys.argv) > 2 else "/tmp/numba_compare"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "numba")
N = 4096
os.makedirs(WORK, exist_ok=True)


@cuda.jit
def axpy(r, a, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = a * x[i] + y[i]


@cuda.jit
def math_kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i]) + math.exp(x[i]) + math.pow(x[i], 2.5)


def array_args(spec):
    return ["ptr:null", "ptr:null", f"i64:{N}", "i64:4", spec, f"i64:{N}", "i64:4"]


def kernel_name(ll):
    ptx = subprocess.run([NVPG, "compile", "--libdevice", ll], check=True, capture_output=True, text=True).stdout
    return re.search(r"\.entry\s+(\S+?)\(", ptx).group(1)


def nvpg_run(ll, args, out_dir):
    cmd = [NVPG, "run", ll, "--libdevice", "--opt", "3", "--kernel", kernel_name(ll), "--grid", str(N // 256),
           "--block", "256", "--save-outputs", out_dir] + [a for spec in args for a in ("--arg", spec)]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=WORK)
    print("$", " ".join(c if len(c) < 60 else c[:57] + "..." for c in cmd))
    print(p.stdout + p.stderr, end="")
    if p.returncode != 0:
        sys.exit(f"nvpg run failed with exit status {p.returncode}")


x = np.linspace(0.0, 4.0, N, dtype=np.float32)
y = np.full(N, 1.0, dtype=np.float32)
np.save(os.path.join(WORK, "x.npy"), x)
np.save(os.path.join(WORK, "y.npy"), y)
ok = True

# axpy: r = 2 x + y
r = cuda.device_array(N, dtype=np.float32)
axpy[N // 256, 256](r, np.float32(2.0), cuda.to_device(x), cuda.to_device(y))
numba_r = r.copy_to_host()
nvpg_run(os.path.join(DATA, "axpy.ll"),
         array_args(f"buf:f32:{N}:zeros") + ["f32:2"] + array_args("buf:@x.npy") + array_args("buf:@y.npy"),
         os.path.join(WORK, "axpy"))
nvpg_r = np.load(os.path.join(WORK, "axpy", "arg4.npy"))
same = np.array_equal(numba_r, nvpg_r)
print(f"axpy: numba and nvpg outputs {'identical' if same else 'DIFFER'}; max |diff| "
      f"{np.max(np.abs(numba_r - nvpg_r)):.3g}; r[:4] = {nvpg_r[:4]}")
ok &= same

# math_kernel: sin + exp + pow through libdevice
out = cuda.device_array(N, dtype=np.float32)
math_kernel[N // 256, 256](out, cuda.to_device(x))
numba_out = out.copy_to_host()
nvpg_run(os.path.join(DATA, "math_kernel.ll"), array_args(f"buf:f32:{N}:zeros") + array_args("buf:@x.npy"),
         os.path.join(WORK, "math"))
nvpg_out = np.load(os.path.join(WORK, "math", "arg4.npy"))
same = np.array_equal(numba_out, nvpg_out)
print(f"math_kernel: numba and nvpg outputs {'identical' if same else 'DIFFER'}; max |diff| "
      f"{np.max(np.abs(numba_out - nvpg_out)):.3g}; out[:4] = {nvpg_out[:4]}")
ok &= same
sys.exit(0 if ok else 1)
