#!/usr/bin/env python3
"""nvpg import numba, then nvpg run, against numba's own kernel call on the same inputs.

For the GPU test machine, which has numba-cuda; not part of ctest. Usage:
    python3 tests/gpu/numba_import_compare.py NVPG [WORKDIR]

For each kernel in tests/data/numba/import: random inputs in an .npz; `nvpg import numba ...
--args in.npz` (run configuration in numba's ABI, the arrays as .npy beside the workspace);
`nvpg run WS --save-outputs DIR`; then the kernel called by numba itself with the same grid and
block on the same inputs. Every array must come back bit for bit the same.
"""
import importlib.util
import json
import os
import subprocess
import sys

import numpy as np

if not hasattr(np, "row_stack"):  # numba-cuda releases older than NumPy 2.4
    np.row_stack = np.vstack
from numba import cuda  # noqa: E402

NVPG = sys.argv[1]
WORK = sys.argv[2] if len(sys.argv) > 2 else "/tmp/numba_import_compare"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "numba", "import")
os.makedirs(WORK, exist_ok=True)
rng = np.random.default_rng(31)

# file, function, signature, inputs (by argument name)
CASES = [
    ("math_kernel.py", "math_kernel", "void(float32[::1], float32[::1])",
     {"out": np.zeros(5000, np.float32), "x": rng.random(5000, dtype=np.float32)}),
    ("axpy.py", "axpy", "void(float32[::1], float32, float32[::1], float32[::1])",
     {"r": np.zeros(5000, np.float32), "a": np.float32(2.5), "x": rng.random(5000, dtype=np.float32),
      "y": rng.random(5000, dtype=np.float32)}),
    ("matadd.py", "matadd", "void(float32[:,:], float32[:,:], float32[:,:])",
     {"c": np.zeros((100, 60), np.float32), "a": rng.random((100, 60), dtype=np.float32),
      "b": rng.random((100, 60), dtype=np.float32)}),
]


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


failures = 0
for file, function, sig, inputs in CASES:
    npz = os.path.join(WORK, f"{function}.npz")
    np.savez(npz, **inputs)
    ws = os.path.join(WORK, f"{function}.nvpg")
    out = os.path.join(WORK, f"{function}-out")
    subprocess.run([NVPG, "import", "numba", os.path.join(DATA, file), function, "--sig", sig, "--args", npz,
                    "--python", sys.executable, "-o", ws, "--force"], check=True)
    subprocess.run([NVPG, "run", ws, "--save-outputs", out, "--force"], check=True)
    run = json.load(open(ws))["runs"][0]
    grid, block = tuple(run["grid"]), tuple(run["block"])

    # numba's own call, same inputs, same launch.
    kernel = getattr(load(os.path.join(DATA, file)), function)
    args = [cuda.to_device(v) if isinstance(v, np.ndarray) and v.ndim > 0 else v for v in inputs.values()]
    kernel[grid, block](*args)
    cuda.synchronize()

    # Each array's data buffer is kernel parameter 4 of its 5 + 2*ndim; a scalar is one.
    param = 0
    for (name, value), dev in zip(inputs.items(), args):
        if isinstance(value, np.ndarray) and value.ndim > 0:
            ours = np.load(os.path.join(out, f"arg{param + 4}.npy")).reshape(value.shape)
            theirs = dev.copy_to_host()
            same = ours.tobytes() == theirs.tobytes()
            print(f"{function}: {name} {'same' if same else 'DIFFERENT'} "
                  f"(max |diff| {np.max(np.abs(ours.astype(np.float64) - theirs)):.3g})")
            failures += not same
            param += 5 + 2 * value.ndim
        else:
            param += 1
print("all the same" if failures == 0 else f"{failures} array(s) differ")
sys.exit(1 if failures else 0)
