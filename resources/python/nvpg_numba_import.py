"""What numba-cuda hands to libNVVM for one kernel: nvpg import numba runs this.

    python3 nvpg_numba_import.py --file FILE.py --function NAME --sig SIG --cc 9.0 \
        [--cuda-home DIR] --out RESULT.json

It imports FILE.py as a module (named after the file, as `import` would), takes NAME from it (a
@cuda.jit dispatcher or a plain Python function), and compiles it as a kernel with
numba.cuda.compile_ptx for SIG and the compute capability --cc, with the dispatcher's own
options (fastmath, debug, lineinfo, opt). Meanwhile it records what numba gives libNVVM through
numba.cuda.cudadrv.nvvm.CompilationUnit, its only path there: each module added, in order,
whether libdevice was added lazily, and the option strings of the compile.

It writes one JSON object to --out:
  {"ok": true, "modules": [text...], "options": [str...], "libdevice": bool,
   "libdevice_lazy": bool, "kernel": mangled .entry name, "function": NAME, "module": module name,
   "signature": SIG as numba reads it, "args": [{"name", "type", "kind": "array"|"scalar",
   "dtype", "ndim", "layout", "itemsize"}], "cc": [major, minor], "versions": {...}}
or {"ok": false, "kind": "no-numba"|"file"|"function"|"signature"|"args"|"compile", "message": str}.
With --args, each argument also gets what the .npz holds for it: "npy" (a file written in
--args-dir), "shape" and "strides" (bytes) for an array, "value" for a scalar.
Exit status 0 with a result, 1 with an error in the file, 3 when numba-cuda is missing.

Nothing here imports numba before knowing that it is there.
"""

import argparse
import importlib.util
import json
import os
import re
import sys
import traceback

NO_NUMBA = 3


def write(path, obj):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")


def installed(dists):
    """The installed version of each distribution in `dists` that is there, by name."""
    from importlib import metadata

    found = {}
    for dist in dists:
        try:
            found[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return found


def numpy_mismatch():
    """What to do when numba-cuda asks numpy for something it no longer has (numba-cuda 0.30
    overloads np.row_stack, which numpy 2.5 removed): the versions, and the way out."""
    found = ", ".join(f"{d} {v}" for d, v in installed(("numba-cuda", "numba", "numpy")).items())
    return (f"These do not work together: {found}; numba-cuda expects a numpy that has what the "
            f"error names. Install an older numpy into this Python (for example "
            f"pip install \"numpy<2.5\") or a numba-cuda that supports this numpy, then import again.")


def fail(out, kind, message, status=1):
    write(out, {"ok": False, "kind": kind, "message": message})
    sys.exit(status)


def short_traceback(exc, path):
    """The user's part of a traceback: the frames in their file, and the error."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if os.path.abspath(f.filename) == path]
    lines = [f"  {f.filename}:{f.lineno}: {f.line}" for f in frames[-3:]]
    return "\n".join(lines + [f"{type(exc).__name__}: {exc}"])


def take_args(a, args):
    """The example inputs of --args for each argument: an array written as a C-ordered .npy (F
    order for an F-layout argument, as the bytes numba would pass) with its shape and strides in
    bytes, a scalar's value. Entries are found by the argument's name, else as arr_K (np.savez
    with positional arrays)."""
    import numpy as np

    try:
        npz = np.load(a.args, allow_pickle=False)
    except Exception as e:
        fail(a.out, "args", f"{a.args} is not a NumPy .npz file numpy can read: {type(e).__name__}: {e}")
    used = set()
    for k, arg in enumerate(args):
        key = arg["name"] if arg["name"] in npz.files else f"arr_{k}" if f"arr_{k}" in npz.files else None
        if key is None:
            continue
        used.add(key)
        value = npz[key]
        if arg["kind"] == "array":
            want = np.dtype(arg["dtype"])
            if value.ndim != arg["ndim"]:
                fail(a.out, "args", f"{a.args}: {key} has {value.ndim} dimension(s), but {arg['name']} is {arg['type']}")
            if value.dtype != want and not (want == np.dtype(bool) and value.dtype == np.dtype(bool)):
                fail(a.out, "args", f"{a.args}: {key} holds {value.dtype}, but {arg['name']} is {arg['type']}")
            if arg["layout"] == "F":
                data = np.asfortranarray(value)
                flat = np.ascontiguousarray(data.T)  # the same bytes, in an order .npy readers take
            else:
                data = np.ascontiguousarray(value)
                flat = data
            if flat.dtype == np.dtype(bool):
                flat = flat.view(np.uint8)
            name = f"{a.args_prefix}{arg['name']}.npy"
            np.save(os.path.join(a.args_dir, name), flat, allow_pickle=False)
            arg["npy"] = name
            arg["shape"] = [int(x) for x in data.shape]
            arg["strides"] = [int(x) for x in data.strides]
        elif arg["kind"] == "scalar":
            if value.size != 1:
                fail(a.out, "args", f"{a.args}: {key} holds {value.size} values, but {arg['name']} is one {arg['type']}")
            v = value.reshape(()).item()
            if isinstance(v, complex):
                arg["value"] = [v.real, v.imag]
            elif isinstance(v, bool):
                arg["value"] = int(v)
            else:
                arg["value"] = v
    unused = [k for k in npz.files if k not in used]
    return unused


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--file", required=True)
    p.add_argument("--function", required=True)
    p.add_argument("--sig", required=True)
    p.add_argument("--cc", required=True, help="MAJOR.MINOR")
    p.add_argument("--cuda-home")
    p.add_argument("--args", help="example inputs: an .npz with an entry per argument (its name, or arr_K)")
    p.add_argument("--args-dir", help="where the arrays of --args are written, one .npy each")
    p.add_argument("--args-prefix", default="", help="the start of those files' names")
    p.add_argument("--out", required=True)
    a = p.parse_args()

    if a.cuda_home:
        os.environ["CUDA_HOME"] = a.cuda_home
    # numba-cuda is the package numba_cuda; numba alone still has the old built-in numba.cuda,
    # which is deprecated and is not what nvpg imports from.
    if importlib.util.find_spec("numba_cuda") is None:
        fail(a.out, "no-numba", f"numba-cuda is not installed for {sys.executable}", NO_NUMBA)
    try:
        from numba import cuda, types
        from numba.cuda import dispatcher as cuda_dispatcher
        from numba.cuda.cudadrv import nvvm
    except ImportError as e:
        fail(a.out, "no-numba", f"numba-cuda cannot be imported by {sys.executable}: {e}", NO_NUMBA)
    try:
        from numba.cuda.core import sigutils
    except ImportError:  # older numba-cuda, on numba's core
        from numba.core import sigutils

    cc = tuple(int(x) for x in a.cc.split("."))

    # A @cuda.jit(device=True) function called by the kernel is compiled at its call site for
    # get_current_device().compute_capability, which needs a GPU and its driver. The import
    # compiles for `cc` alone, with or without a GPU.
    class _Device:
        compute_capability = cc

    cuda_dispatcher.get_current_device = lambda: _Device()

    # Record what reaches libNVVM.
    programs = []
    orig = {n: getattr(nvvm.CompilationUnit, n) for n in ("__init__", "add_module", "lazy_add_module", "compile")}

    def _init(self, *args, **kwargs):
        orig["__init__"](self, *args, **kwargs)
        self._nvpg = {"modules": [], "lazy": [], "options": None}
        programs.append(self._nvpg)

    def _add_module(self, buffer):
        self._nvpg["modules"].append(bytes(buffer))
        return orig["add_module"](self, buffer)

    def _lazy_add_module(self, buffer):
        self._nvpg["lazy"].append(bytes(buffer))
        return orig["lazy_add_module"](self, buffer)

    def _compile(self, *args, **kwargs):
        self._nvpg["options"] = list(self._options_str)
        return orig["compile"](self, *args, **kwargs)

    nvvm.CompilationUnit.__init__ = _init
    nvvm.CompilationUnit.add_module = _add_module
    nvvm.CompilationUnit.lazy_add_module = _lazy_add_module
    nvvm.CompilationUnit.compile = _compile

    # The user's file, imported as a module named after it, its folder first on sys.path (as
    # `python FILE.py` would have it) so that its own imports work.
    path = os.path.abspath(a.file)
    if not os.path.isfile(path):
        fail(a.out, "file", f"{a.file}: no such file")
    modname = os.path.splitext(os.path.basename(path))[0]
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec = importlib.util.spec_from_file_location(modname, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[modname] = module
        spec.loader.exec_module(module)
    except BaseException as e:  # SystemExit and KeyboardInterrupt too: the user's code ended
        fail(a.out, "file", f"{a.file} failed as it was imported:\n{short_traceback(e, path)}")

    if not hasattr(module, a.function):
        names = sorted(
            n
            for n, v in vars(module).items()
            if not n.startswith("_")
            and (isinstance(v, cuda_dispatcher.CUDADispatcher) or getattr(v, "__module__", None) == modname)
            and callable(v)
        )
        fail(
            a.out,
            "function",
            f"{a.file} has no function {a.function}"
            + (f"; it has {', '.join(names)}" if names else ""),
        )
    func = getattr(module, a.function)
    options = {}
    if isinstance(func, cuda_dispatcher.CUDADispatcher):
        if func.targetoptions.get("device"):
            fail(a.out, "function", f"{a.function} is a device function (@cuda.jit(device=True)), not a kernel")
        for k in ("fastmath", "debug", "lineinfo", "opt", "launch_bounds"):
            if k in func.targetoptions:
                options[k] = func.targetoptions[k]
        pyfunc = func.py_func
    elif callable(func) and hasattr(func, "__code__"):
        pyfunc = func
    else:
        fail(a.out, "function", f"{a.function} in {a.file} is not a Python function or a @cuda.jit kernel")

    try:
        argtys, _ = sigutils.normalize_signature(a.sig)
    except BaseException as e:
        fail(a.out, "signature", f'the signature "{a.sig}" is not one numba reads: {type(e).__name__}: {e}')

    args = []
    names = list(pyfunc.__code__.co_varnames[: pyfunc.__code__.co_argcount])
    if len(names) != len(argtys):
        fail(
            a.out,
            "signature",
            f'the signature "{a.sig}" has {len(argtys)} argument(s) but {a.function}'
            f"({', '.join(names)}) takes {len(names)}",
        )
    for name, ty in zip(names, argtys):
        arg = {"name": name, "type": str(ty)}
        if isinstance(ty, types.Array):
            import numpy as np

            dt = np.dtype(str(ty.dtype)) if not isinstance(ty.dtype, types.Boolean) else np.dtype(bool)
            arg.update(kind="array", dtype=dt.str, ndim=ty.ndim, layout=ty.layout, itemsize=dt.itemsize)
        elif isinstance(ty, (types.Integer, types.Float, types.Boolean, types.Complex)):
            arg.update(kind="scalar", dtype=str(ty))
        else:
            arg.update(kind="other")
        args.append(arg)

    try:
        ptx, _ = cuda.compile_ptx(pyfunc, a.sig, cc=cc, **options)
    except BaseException as e:
        message = f"numba could not compile {a.function} for {a.sig}:\n{type(e).__name__}: {e}"
        if isinstance(e, AttributeError) and "module 'numpy'" in str(e):
            message += "\n" + numpy_mismatch()
        fail(a.out, "compile", message)

    # The example inputs' files are written only for a kernel numba compiled.
    unused = take_args(a, args) if a.args else []

    if len(programs) != 1:
        fail(a.out, "compile", f"numba made {len(programs)} libNVVM programs for one kernel; nvpg expects one")
    prog = programs[0]
    entries = re.findall(r"\.entry\s+([^\s(]+)\s*\(", ptx)
    if len(entries) != 1:
        fail(a.out, "compile", f"numba's PTX has {len(entries)} kernels (.entry); nvpg expects one")

    modules, libdevice = [], False
    for buf in prog["modules"]:
        modules.append(buf.decode("utf-8"))
    if prog["lazy"]:
        libdevice = True

    versions = {"python": sys.version.split()[0]}
    try:
        versions.update(installed(("numba-cuda", "numba", "llvmlite")))
        versions["libnvvm"] = ".".join(str(x) for x in nvvm.NVVM().get_version())
    except Exception:
        pass

    write(
        a.out,
        {
            "ok": True,
            "python": sys.executable,
            "file": path,
            "module": modname,
            "function": a.function,
            "signature": a.sig,
            "jit_options": {k: v for k, v in options.items() if isinstance(v, (bool, int, float, str, type(None)))},
            "cc": list(cc),
            "modules": modules,
            "options": prog["options"],
            "libdevice": libdevice,
            "libdevice_lazy": libdevice,
            "kernel": entries[0],
            "args": args,
            "unused_args": unused,
            "versions": versions,
        },
    )


if __name__ == "__main__":
    main()
