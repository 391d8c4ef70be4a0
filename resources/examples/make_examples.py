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
import json
import os
import sys

sys.dont_write_bytecode = True  # nothing written beside the shared module in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from workspace_source import (FORMAT, SourceError, check_module_names, dump,  # noqa: E402
                              module_entry, options_in_order, read_or_none, write_atomic)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")

VERSION = 1


class ExampleError(SourceError):
    pass


def build(example, llvm_as):
    folder = os.path.join(SRC, example)
    spec_path = os.path.join(folder, "workspace.json")
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    modules = []
    for m in spec["modules"]:
        modules.append(module_entry(m["name"], os.path.join(folder, m["file"]), m.get("bitcode", False),
                                    m.get("lazy", False), llvm_as))
    check_module_names(modules, spec_path)
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
    return dump(doc)


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
            if read_or_none(out) == data:
                continue
            stale.append(example)
            if not args.check:
                write_atomic(out, data)
                print(f"wrote {os.path.relpath(out)}")
    except (SourceError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"make_examples.py: {e}", file=sys.stderr)
        return 2
    if args.check and stale:
        print("out of date: " + ", ".join(stale) + " (run make_examples.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
