#!/usr/bin/env python3
"""The cuda.core side of nvpg_bench_warm: warm NVVM compiles with cuda.core's Program.

For each input (a numba-cuda fixture .ll; NAME.1.ll takes NAME.2.ll... along; options from
NAME.options), one untimed compile, then REPETITIONS timed ones of
Program(code, "nvvm", ProgramOptions(...)).compile("ptx" or "ltoir"), each on the module with a
comment line "; edit N" appended, as the C++ side does. Prints one line per input: NAME ms ms ...
Lines starting with "#" are notes (what was loaded, or why nothing was measured).
"""
import argparse
import pathlib
import re
import sys
import time


def fixture(path):
    path = pathlib.Path(path)
    stem = re.sub(r"\.\d+$", "", path.stem)
    if stem != path.stem:
        parts, i = [], 1
        while (path.parent / f"{stem}.{i}{path.suffix}").exists():
            parts.append(path.parent / f"{stem}.{i}{path.suffix}")
            i += 1
    else:
        parts = [path]
    options = {}
    opt_file = path.parent / f"{stem}.options"
    if opt_file.exists():
        for line in opt_file.read_text().split():
            name, _, value = line.lstrip("-").partition("=")
            options[name] = value if value else "1"
    texts = [p.read_bytes() for p in parts]
    return stem, [p.name for p in parts], texts, options


def program_options(ProgramOptions, options, names, texts, libdevice):
    kw = {"arch": options.get("arch", "compute_90"), "name": names[0]}
    # numba's flags, by cuda.core's names; -opt=3 is libNVVM's default, so it is left to it.
    for flag, field in (("ftz", "ftz"), ("prec-div", "prec_div"), ("prec-sqrt", "prec_sqrt"), ("fma", "fma")):
        if flag in options:
            kw[field] = options[flag] == "1"
    if "gen-lto" in options:
        kw["link_time_optimization"] = True
    if len(texts) > 1:
        kw["extra_sources"] = tuple(zip(names[1:], texts[1:]))
    if libdevice:
        kw["use_libdevice"] = True
    return ProgramOptions(**kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repetitions", type=int, default=15)
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    try:
        import cuda.core
        from cuda.core import Program, ProgramOptions
    except Exception as e:  # noqa: BLE001 - any import failure means: not measured
        print(f"# cuda.core cannot be imported: {e}")
        return 0
    version = getattr(cuda.core, "__version__", "?")
    try:
        from cuda.bindings import nvvm
        major, minor = nvvm.version()
        print(f"# cuda.core {version}, libNVVM {major}.{minor}")
    except Exception as e:  # noqa: BLE001
        print(f"# cuda.core {version}, libNVVM version unknown ({e})")
    try:
        from cuda.pathfinder import load_nvidia_dynamic_lib
        print(f"# cuda.core's libNVVM: {load_nvidia_dynamic_lib('nvvm').abs_path}")
    except Exception:  # noqa: BLE001
        pass
    for path in args.inputs:
        stem, names, texts, options = fixture(path)
        libdevice = any(b"__nv_" in t for t in texts)
        target = "ltoir" if "gen-lto" in options else "ptx"
        times = []
        for rep in range(-1, args.repetitions):
            edited = [texts[0] + f"\n; edit {rep + 2}\n".encode()] + texts[1:]
            t0 = time.perf_counter()
            opts = program_options(ProgramOptions, options, names, edited, libdevice)
            out = Program(edited[0], "nvvm", options=opts).compile(target)
            ms = (time.perf_counter() - t0) * 1000
            if not out.code:
                print(f"# {stem}: cuda.core gave an empty {target}")
                return 1
            if rep >= 0:
                times.append(ms)
        print(stem, " ".join(f"{t:.3f}" for t in times))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
