#!/usr/bin/env python3
"""Capture the NVVM IR and options that numba-cuda hands to libNVVM.

This is a development helper that regenerates the fixtures in this directory.
numba-cuda is NOT a dependency of NVVM Playground; install it only in a
throwaway virtual environment (see README.md).

How it works: numba-cuda drives libNVVM through one class,
numba.cuda.cudadrv.nvvm.CompilationUnit (add_module, lazy_add_module, verify,
compile). We wrap those methods to record every call in order, with the exact
bytes of each module buffer and the exact option strings, then write them out:

  <name>.ll / <name>.<n>.ll   user modules, byte for byte as passed to
                              nvvmAddModuleToProgram, in the order added
  <name>.options              the option strings passed to nvvmCompileProgram,
                              one per line
  <name>.json                 everything: module files, options, the call
                              sequence, whether libdevice was added (lazily)
  <name>.ptx / <name>.ltoir   the result of nvvmGetCompiledResult, byte for byte
                              (reference only)

No GPU is needed: compile_ptx / compile with an explicit cc only use libNVVM.

Usage:  CUDA_HOME=/usr/local/cuda python capture.py [OUTPUT_DIR]
"""

import hashlib
import json
import math
import os
import platform
import re
import sys
from importlib import metadata

os.environ.setdefault("CUDA_HOME", "/usr/local/cuda")

from numba import cuda  # noqa: E402
from numba.cuda import dispatcher as _dispatcher  # noqa: E402
from numba.cuda.cudadrv import nvvm  # noqa: E402
from numba.cuda.cudadrv.libs import get_libdevice, open_libdevice  # noqa: E402

CC = (9, 0)
OUT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(__file__))

LIBDEVICE = open_libdevice()


# ---------------------------------------------------------------------------
# Recording wrapper around numba's CompilationUnit
# ---------------------------------------------------------------------------

class Recording:
    """What one CompilationUnit (one nvvmProgram) received, in order."""

    def __init__(self):
        self.calls = []      # ("add_module" | "lazy_add_module", bytes) or ("verify"|"compile", [str])
        self.result = None   # bytes returned by compile()


recordings = []

_orig = {
    name: getattr(nvvm.CompilationUnit, name)
    for name in ("__init__", "add_module", "lazy_add_module", "verify", "compile")
}


def _init(self, options):
    _orig["__init__"](self, options)
    self._rec = Recording()
    recordings.append(self._rec)


def _add_module(self, buffer):
    self._rec.calls.append(("add_module", bytes(buffer)))
    return _orig["add_module"](self, buffer)


def _lazy_add_module(self, buffer):
    self._rec.calls.append(("lazy_add_module", bytes(buffer)))
    return _orig["lazy_add_module"](self, buffer)


def _verify(self):
    self._rec.calls.append(("verify", list(self._options_str)))
    return _orig["verify"](self)


def _compile(self):
    self._rec.calls.append(("compile", list(self._options_str)))
    result = _orig["compile"](self)
    self._rec.result = bytes(result)
    return result


nvvm.CompilationUnit.__init__ = _init
nvvm.CompilationUnit.add_module = _add_module
nvvm.CompilationUnit.lazy_add_module = _lazy_add_module
nvvm.CompilationUnit.verify = _verify
nvvm.CompilationUnit.compile = _compile


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

def axpy(r, a, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = a * x[i] + y[i]


def math_kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i]) + math.exp(x[i]) + math.pow(x[i], 2.5)


# A kernel calling a separately-jitted device function: numba keeps the device
# function in its own LLVM module, so one nvvmProgram receives TWO user modules.
@cuda.jit(device=True)
def saxpy_dev(a, x, y):
    return a * x + y


def call_device(r, a, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = saxpy_dev(a, x[i], y[i])


# A 5-point stencil over a 2-D grid: 2-D arrays make numba's longest symbols (about 250
# characters), the kind that once widened the app's window.
def stencil_2d(out, a):
    i, j = cuda.grid(2)
    if 0 < i < a.shape[0] - 1 and 0 < j < a.shape[1] - 1:
        out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1]) - a[i, j]


AXPY_SIG = "void(float32[::1], float32, float32[::1], float32[::1])"
MATH_SIG = "void(float32[::1], float32[::1])"
STENCIL_SIG = "void(float32[:, ::1], float32[:, ::1])"

# name -> (function, signature, output kind, extra keyword arguments)
FIXTURES = {
    "axpy": (axpy, AXPY_SIG, "ptx", {}),
    "math_kernel": (math_kernel, MATH_SIG, "ptx", {}),
    "math_kernel_fastmath": (math_kernel, MATH_SIG, "ptx", {"fastmath": True}),
    "call_device": (call_device, AXPY_SIG, "ptx", {}),
    "axpy_lto": (axpy, AXPY_SIG, "ltoir", {}),
    "math_kernel_lto": (math_kernel, MATH_SIG, "ltoir", {}),
    "stencil_2d": (stencil_2d, STENCIL_SIG, "ptx", {}),
}


class _FakeDevice:
    """Stands in for the GPU this machine may not have.

    numba compiles a @cuda.jit(device=True) function lazily, at the call
    site, for get_current_device().compute_capability -- which needs a CUDA
    driver. Only the compute capability is read there, so we supply CC.
    """

    compute_capability = CC


_dispatcher.get_current_device = lambda: _FakeDevice()


def run_numba(pyfunc, sig, output, extra):
    if output == "ptx":
        return cuda.compile_ptx(pyfunc, sig, cc=CC, **extra)
    return cuda.compile(pyfunc, sig, device=False, abi="numba", cc=CC, output="ltoir", **extra)


# ---------------------------------------------------------------------------
# Writing fixtures
# ---------------------------------------------------------------------------

def write(name, data):
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(data)
    assert len(data) < 200 * 1024, f"{name} is {len(data)} bytes"


def capture(name, pyfunc, sig, output, extra):
    recordings.clear()
    run_numba(pyfunc, sig, output, extra)
    assert len(recordings) == 1, f"{name}: expected one nvvmProgram, got {len(recordings)}"
    rec = recordings[0]

    user = [buf for kind, buf in rec.calls if kind == "add_module"]
    module_files = (
        [f"{name}.ll"] if len(user) == 1 else [f"{name}.{n}.ll" for n in range(1, len(user) + 1)]
    )

    sequence = []
    libdevice_added = libdevice_lazy = False
    n = 0
    for kind, arg in rec.calls:
        if kind in ("add_module", "lazy_add_module"):
            is_libdevice = arg == LIBDEVICE
            if is_libdevice:
                libdevice_added = True
                libdevice_lazy = kind == "lazy_add_module"
                sequence.append({"call": kind, "module": "libdevice"})
            else:
                assert kind == "add_module", "unexpected lazily added user module"
                sequence.append({"call": kind, "module": module_files[n]})
                n += 1
        else:
            sequence.append({"call": kind, "options": arg})

    options = next(arg for kind, arg in rec.calls if kind == "compile")
    result_file = f"{name}.{'ptx' if output == 'ptx' else 'ltoir'}"

    for fname, buf in zip(module_files, user):
        write(fname, buf)
    write(f"{name}.options", "".join(o + "\n" for o in options).encode())
    write(result_file, rec.result)

    # Functions numba listed in @llvm.used (its kernels), per user module.
    llvm_used = {
        fname: re.findall(r'@"([^"]+)"', line.split("[", 2)[2])
        for fname, buf in zip(module_files, user)
        for line in buf.decode().splitlines()
        if line.startswith('@"llvm.used"')
    }

    info = {
        "kernel": pyfunc.__name__,
        "signature": sig,
        "numba_call": (
            f"cuda.compile_ptx({pyfunc.__name__}, sig, cc={CC}"
            if output == "ptx"
            else f"cuda.compile({pyfunc.__name__}, sig, device=False, abi='numba', cc={CC}, output='ltoir'"
        ) + "".join(f", {k}={v!r}" for k, v in extra.items()) + ")",
        "modules": module_files,
        "options": options,
        "llvm_used": llvm_used,
        "libdevice": libdevice_added,
        "libdevice_lazy": libdevice_lazy,
        "libdevice_sha256": hashlib.sha256(LIBDEVICE).hexdigest() if libdevice_added else None,
        "call_sequence": sequence,
        "result": result_file,
        "result_bytes": len(rec.result),
        "result_sha256": hashlib.sha256(rec.result).hexdigest(),
    }
    write(f"{name}.json", (json.dumps(info, indent=2) + "\n").encode())
    print(f"{name}: modules={module_files} options={options} "
          f"libdevice={'lazy' if libdevice_lazy else libdevice_added} "
          f"{result_file}={len(rec.result)} bytes")


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (pyfunc, sig, output, extra) in FIXTURES.items():
        capture(name, pyfunc, sig, output, extra)

    drv = nvvm.NVVM()
    env = {
        "python": platform.python_version(),
        "numba": metadata.version("numba"),
        "numba-cuda": metadata.version("numba-cuda"),
        "llvmlite": metadata.version("llvmlite"),
        "cuda-bindings": metadata.version("cuda-bindings"),
        "libnvvm_version": list(drv.get_version()),
        "nvvm_ir_version": list(drv.get_ir_version()),
        "libdevice_path": get_libdevice(),
        "libdevice_sha256": hashlib.sha256(LIBDEVICE).hexdigest(),
        "cc": list(CC),
    }
    write("environment.json", (json.dumps(env, indent=2) + "\n").encode())
    print(json.dumps(env, indent=2))


if __name__ == "__main__":
    main()
