#!/usr/bin/env python3
"""Builds resources/examples/<example>.nvpg from resources/examples/src/<example>/.

Each src/<example>/ holds the IR as readable .ll files and a workspace.json:

    {
      "name": "...", "description": "...",
      "modules": [{"name": "kernel.ll", "file": "kernel.ll"},
                  {"name": "lib.bc", "file": "lib.ll", "bitcode": true, "lazy": true}],
      "options": {"opt": 3}, "libdevice": false, "lto": {"mode": "program"}
    }

A module with "bitcode": true is assembled from its .ll by llvm-as-14 (read from stdin, so
the bitcode does not depend on where the file lies) and stored base64-encoded; the .ll stays
in src/ for people to read. The output is byte for byte what NVVM Playground's own
serializer writes, so that opening and saving an example changes nothing (tst_core_examples
checks that).

    make_examples.py            rebuild every example
    make_examples.py --check    only report examples whose .nvpg is out of date (exit 1)
"""

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")

FORMAT = "nvvm-playground-workspace"
VERSION = 1
# The order the serializer writes options in; "g" only when true, as there.
OPTION_TYPES = [("arch", str), ("opt", int), ("ftz", bool), ("prec-div", bool),
                ("prec-sqrt", bool), ("fma", bool), ("g", bool),
                ("jump-table-density", int), ("extra-flags", list)]


class ExampleError(Exception):
    pass


def looks_like_bitcode(data):
    return data[:4] in (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")


def assemble(ll_path, llvm_as):
    with open(ll_path, "rb") as f:
        try:
            done = subprocess.run([llvm_as, "-", "-o", "-"], stdin=f, capture_output=True,
                                  check=False)
        except FileNotFoundError:
            raise ExampleError(f"{llvm_as} not found; install llvm-14 (Debian: apt install "
                               f"llvm-14) or pass --llvm-as")
    if done.returncode != 0:
        raise ExampleError(f"{ll_path}: {llvm_as} failed:\n{done.stderr.decode(errors='replace')}")
    if not looks_like_bitcode(done.stdout):
        raise ExampleError(f"{ll_path}: {llvm_as} did not write bitcode")
    return done.stdout


def options_in_order(opts, where):
    if not isinstance(opts, dict):
        raise ExampleError(f"{where}: \"options\" must be an object")
    unknown = set(opts) - {name for name, _ in OPTION_TYPES}
    if unknown:
        raise ExampleError(f"{where}: unknown options {sorted(unknown)}")
    out = {}
    for name, kind in OPTION_TYPES:
        if name not in opts:
            continue
        value = opts[name]
        # bool is an int in Python; keep the two apart as the C++ reader does.
        if type(value) is not kind:
            raise ExampleError(f"{where}: option {name} must be a {kind.__name__}")
        if name == "g" and not value:
            continue
        if name == "extra-flags" and not value:
            continue
        out[name] = value
    return out


def build(example, llvm_as):
    folder = os.path.join(SRC, example)
    spec_path = os.path.join(folder, "workspace.json")
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    modules = []
    for m in spec["modules"]:
        path = os.path.join(folder, m["file"])
        entry = {"name": m["name"]}
        if m.get("bitcode", False):
            entry["bitcode"] = base64.b64encode(assemble(path, llvm_as)).decode("ascii")
        else:
            with open(path, "rb") as f:
                raw = f.read()
            if looks_like_bitcode(raw):
                raise ExampleError(f"{path}: is bitcode; give the .ll and set \"bitcode\": true")
            entry["text"] = raw.decode("utf-8")
        entry["lazy"] = bool(m.get("lazy", False))
        modules.append(entry)
    names = [m["name"] for m in modules]
    if len(set(names)) != len(names) or "" in names:
        raise ExampleError(f"{spec_path}: module names must be non-empty and unique")
    mode = spec.get("lto", {}).get("mode", "program")
    if mode not in ("program", "separate"):
        raise ExampleError(f"{spec_path}: lto mode must be program or separate")
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "name": spec["name"],
        "description": spec.get("description", ""),
        "modules": modules,
        "options": options_in_order(spec.get("options", {}), spec_path),
        "libdevice": bool(spec.get("libdevice", False)),
        "lto": {"mode": mode},
        # nlohmann::json keeps object keys sorted, so the runs are written that way too.
        "runs": [{k: r[k] for k in sorted(r)} for r in spec.get("runs", [])],
    }
    # Matches nlohmann::json::dump(2): ", " and ": " separators, non-ASCII kept as UTF-8.
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def write_atomic(path, data):
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                               dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a .nvpg differs from its sources")
    parser.add_argument("--llvm-as", default="llvm-as-14", help="the LLVM 14 assembler")
    parser.add_argument("examples", nargs="*", help="only these (default: all in src/)")
    args = parser.parse_args()

    examples = args.examples or sorted(
        d for d in os.listdir(SRC) if os.path.isfile(os.path.join(SRC, d, "workspace.json")))
    stale = []
    try:
        for example in examples:
            data = build(example, args.llvm_as)
            out = os.path.join(HERE, example + ".nvpg")
            old = None
            if os.path.exists(out):
                with open(out, "rb") as f:
                    old = f.read()
            if old == data:
                continue
            stale.append(example)
            if not args.check:
                write_atomic(out, data)
                print(f"wrote {os.path.relpath(out)}")
    except (ExampleError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"make_examples.py: {e}", file=sys.stderr)
        return 2
    if args.check and stale:
        print("out of date: " + ", ".join(stale) + " (run make_examples.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
