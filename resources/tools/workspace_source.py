"""What make_examples.py and make_lessons.py share: turning readable sources (.ll files, option
objects) into the pieces of a workspace file, written byte for byte as NVVM Playground's own
serializer writes them (core/workspace). Not installed; the scripts stay in the source tree.
"""

import base64
import json
import os
import subprocess
import tempfile

FORMAT = "nvvm-playground-workspace"
# The order the serializer writes options in; "g" only when true, as there.
OPTION_TYPES = [("arch", str), ("opt", int), ("ftz", bool), ("prec-div", bool),
                ("prec-sqrt", bool), ("fma", bool), ("g", bool),
                ("jump-table-density", int), ("extra-flags", list)]


class SourceError(Exception):
    """A source that cannot be built; the message says which file and why."""


def looks_like_bitcode(data):
    return data[:4] in (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")


def assemble(ll_path, llvm_as):
    """The .ll assembled by llvm_as, read from stdin so the bitcode does not name the file."""
    with open(ll_path, "rb") as f:
        try:
            done = subprocess.run([llvm_as, "-", "-o", "-"], stdin=f, capture_output=True,
                                  check=False)
        except FileNotFoundError:
            raise SourceError(f"{llvm_as} not found; install llvm-14 (Debian: apt install "
                              f"llvm-14) or pass --llvm-as")
    if done.returncode != 0:
        raise SourceError(f"{ll_path}: {llvm_as} failed:\n{done.stderr.decode(errors='replace')}")
    if not looks_like_bitcode(done.stdout):
        raise SourceError(f"{ll_path}: {llvm_as} did not write bitcode")
    return done.stdout


def module_entry(name, path, bitcode, lazy, llvm_as, assembled=None):
    """A workspace module: the .ll as "text", or assembled and base64-encoded as "bitcode".
    `assembled` (a dict) keeps bitcode already made, for a file several modules use."""
    entry = {"name": name}
    if bitcode:
        cache = assembled if assembled is not None else {}
        if path not in cache:
            cache[path] = assemble(path, llvm_as)
        entry["bitcode"] = base64.b64encode(cache[path]).decode("ascii")
    else:
        with open(path, "rb") as f:
            raw = f.read()
        if looks_like_bitcode(raw):
            raise SourceError(f"{path}: is bitcode; give the .ll and set \"bitcode\": true")
        entry["text"] = raw.decode("utf-8")
    entry["lazy"] = bool(lazy)
    return entry


def check_module_names(modules, where):
    names = [m["name"] for m in modules]
    if len(set(names)) != len(names) or "" in names:
        raise SourceError(f"{where}: module names must be non-empty and unique")


def options_in_order(opts, where):
    if not isinstance(opts, dict):
        raise SourceError(f"{where}: \"options\" must be an object")
    unknown = set(opts) - {name for name, _ in OPTION_TYPES}
    if unknown:
        raise SourceError(f"{where}: unknown options {sorted(unknown)}")
    out = {}
    for name, kind in OPTION_TYPES:
        if name not in opts:
            continue
        value = opts[name]
        # bool is an int in Python; keep the two apart as the C++ reader does.
        if type(value) is not kind:
            raise SourceError(f"{where}: option {name} must be a {kind.__name__}")
        if name == "g" and not value:
            continue
        if name == "extra-flags" and not value:
            continue
        out[name] = value
    return out


def dump(doc):
    """The file's bytes as nlohmann::json::dump(2) writes them: ", " and ": " separators,
    non-ASCII kept as UTF-8, a newline at the end."""
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def read_or_none(path):
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        return f.read()


def write_atomic(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
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
