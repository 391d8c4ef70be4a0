#!/usr/bin/env python3
"""Builds resources/lessons/<NN-name>.nvpg from resources/lessons/src/<NN-name>/lesson.json.

A lesson is a workspace file (format version 3) with a "lesson" object: steps, each with Markdown
instructions, a starting state, hints, a reference solution and checks (the format is described
in README.md beside this script). Each src/<NN-name>/ holds the IR as readable .ll files, the
steps' instructions as Markdown files, any .npy files the checks compare with, and a lesson.json:

    {
      "name": "01 A first kernel",
      "description": "...",
      "lesson": {
        "id": "nvvm-course/01-first-kernel",
        "title": "A first kernel",
        "summary": "One line for File > Lessons.",
        "steps": [
          {
            "title": "Make it a kernel",
            "instructions": {"file": "1-kernel.md"},
            "start": {"modules": [{"name": "scale.ll", "file": "scale-start.ll"}],
                      "options": {}, "libdevice": false, "lto": {"mode": "program"},
                      "runs": [...]},
            "hints": ["gentle", "less gentle", "nearly the answer"],
            "solution": {"modules": [{"name": "scale.ll", "file": "scale-kernel.ll"}]},
            "checks": [{"check": "kernel-exists", "kernel": "scale", "message": "..."}]
          },
          {"title": "...", "instructions": {"file": "2-index.md"}, "start": "continue", ...}
        ]
      }
    }

"instructions" is a string or {"file": "X.md"} (the file's text, read as UTF-8). In every state
(a step's "start" or "solution") a module is {"name": ..., "file": ...} as in
make_examples.py's workspace.json: a text module's .ll is embedded as "text"; with
"bitcode": true the .ll is assembled by llvm-as-14 (read from stdin, so the bitcode does not
depend on where the file lies) and embedded base64-encoded as "bitcode"; "lazy" defaults to false.

The built file's own workspace state (modules, options, libdevice, verify, lto, runs) is step 1's
start, which is written in full (a new workspace's defaults filled in: options {}, libdevice
false, lto program, runs []), so the file opens at step 1 and step 1's start says everything. A
later step's start or solution is written with the keys it gives, in the order modules, options,
libdevice, verify, lto, runs. Keys are written in a fixed order (the file: format, version,
name, description, modules, options, libdevice, verify only when false, lto, runs, lesson; the
lesson: id, title, summary, steps, files; a step: title, instructions, start, hints, solution,
checks, hide-fixes; a check: check, its fields, required ones first, description, message), and
the JSON as NVVM Playground's serializer writes it (2-space indent, UTF-8), so that the output is byte-stable and opening and
saving a lesson at step 1 changes nothing but what the app adds (lesson.current).

Data files: an "output" check's "equals" names a .npy file as "<NN-name>/<file>.npy": the file is
src/<NN-name>/<file>.npy, carried in the built .nvpg under the lesson's "files" (base64, keyed by
that name), so that the lesson and every copy of it saved anywhere has it.

A step's "hide-fixes" lists the kinds of one-click fix (core/nvvm/Fix.h) not offered while the
learner is on it: the mend the step teaches.

    make_lessons.py                 rebuild every lesson
    make_lessons.py 03-libdevice    only that one
    make_lessons.py --check         only report lessons whose .nvpg is out of date (exit 1)
    make_lessons.py --validate      after building, run `nvpg lesson validate` on each lesson
                                    (--nvpg PATH; default: the build tree's, else nvpg on PATH)

Python 3.11 standard library only, plus llvm-as-14 for bitcode modules.
"""

import argparse
import base64
import json
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing written beside the shared module in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
from workspace_source import (FORMAT, SourceError, check_module_names, dump,  # noqa: E402
                              module_entry, options_in_order, read_or_none, write_atomic)

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "src")
REPO = os.path.dirname(os.path.dirname(HERE))

VERSION = 3
LTO_MODES = ("program", "separate")  # core/lto/Mode.h
STATE_KEYS = ("modules", "options", "libdevice", "verify", "lto", "runs")
LESSON_KEYS = ("id", "title", "summary", "steps")
STEP_KEYS = ("title", "instructions", "start", "hints", "solution", "checks", "hide-fixes")
# Each check's fields besides "check" and "message": required, optional (core/lesson/Lesson.cpp).
CHECKS = {
    "compiles": ((), ()),
    "no-diagnostics": ((), ()),
    "ptx-contains": (("pattern",), ("kernel", "output")),
    "ptx-lacks": (("pattern",), ("kernel", "output")),
    "sass-contains": (("pattern",), ("kernel",)),
    "sass-lacks": (("pattern",), ("kernel",)),
    "kernel-exists": (("kernel",), ("in",)),
    "registers": (("kernel", "max"), ()),
    "spills": (("kernel",), ()),
    "libdevice-uses": (("function",), ()),
    "libdevice-unused": ((), ()),
    "option": (("name", "value"), ()),
    "runs": (("run",), ("kernel",)),
    "output": (("run", "arg", "equals"), ("tolerance",)),
}


class LessonError(SourceError):
    pass


class Builder:
    def __init__(self, lesson, llvm_as):
        self.lesson = lesson
        self.folder = os.path.join(SRC, lesson)
        self.llvm_as = llvm_as
        self.assembled = {}  # .ll path -> bitcode bytes (a module used by several states)
        self.data = {}       # an output check's "equals" -> its .npy in src/, carried in "files"

    def path(self, name, where):
        if not isinstance(name, str) or not name or os.path.isabs(name) or ".." in name.split("/"):
            raise LessonError(f"{where}: \"{name}\" is not a file name inside src/{self.lesson}/")
        p = os.path.join(self.folder, name)
        if not os.path.isfile(p):
            raise LessonError(f"{where}: src/{self.lesson}/{name} does not exist")
        return p

    def text_of(self, value, where):
        """A string, or {"file": "X.md"}: the file's text."""
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and set(value) == {"file"}:
            with open(self.path(value["file"], where), encoding="utf-8") as f:
                return f.read()
        raise LessonError(f"{where}: expected a string or {{\"file\": ...}}")

    def module(self, m, where):
        if not isinstance(m, dict) or "name" not in m or "file" not in m:
            raise LessonError(f"{where}: a module is {{\"name\": ..., \"file\": ...}}")
        unknown = set(m) - {"name", "file", "bitcode", "lazy"}
        if unknown:
            raise LessonError(f"{where}: unknown module keys {sorted(unknown)}")
        return module_entry(m["name"], self.path(m["file"], where), m.get("bitcode", False),
                            m.get("lazy", False), self.llvm_as, self.assembled)

    def state(self, s, where, complete=False):
        if not isinstance(s, dict):
            raise LessonError(f"{where}: a state is an object (or \"continue\" for a later "
                              f"step's start)")
        unknown = set(s) - set(STATE_KEYS)
        if unknown:
            raise LessonError(f"{where}: unknown state keys {sorted(unknown)}; a state sets "
                              f"{', '.join(STATE_KEYS)}")
        if complete:
            s = {"options": {}, "libdevice": False, "lto": {"mode": "program"}, "runs": [], **s}
            if "modules" not in s:
                raise LessonError(f"{where}: step 1's start needs \"modules\"")
        out = {}
        if "modules" in s:
            if not isinstance(s["modules"], list):
                raise LessonError(f"{where}/modules: expected an array")
            out["modules"] = [self.module(m, f"{where}/modules/{i}")
                              for i, m in enumerate(s["modules"])]
            check_module_names(out["modules"], f"{where}/modules")
        if "options" in s:
            out["options"] = options_in_order(s["options"], f"{where}/options")
        for key in ("libdevice", "verify"):
            if key in s:
                if type(s[key]) is not bool:
                    raise LessonError(f"{where}/{key}: expected true or false")
                # The workspace writes "verify" only when it is off; so does step 1's start.
                if key == "verify" and complete and s[key]:
                    continue
                out[key] = s[key]
        if "lto" in s:
            lto = s["lto"]
            mode = lto.get("mode", "program") if isinstance(lto, dict) and set(lto) <= {"mode"} \
                else None
            if mode not in LTO_MODES:
                raise LessonError(f"{where}/lto: expected {{\"mode\": \"program\"}} or "
                                  f"{{\"mode\": \"separate\"}}")
            out["lto"] = {"mode": mode}
        if "runs" in s:
            if not isinstance(s["runs"], list) or not all(isinstance(r, dict) for r in s["runs"]):
                raise LessonError(f"{where}/runs: expected an array of run configurations")
            # nlohmann::json keeps object keys sorted, so the runs are written that way too.
            out["runs"] = [{k: r[k] for k in sorted(r)} for r in s["runs"]]
        return out

    def check(self, c, where):
        if not isinstance(c, dict) or not isinstance(c.get("check"), str):
            raise LessonError(f"{where}: a check is {{\"check\": KIND, ..., \"message\": ...}}")
        kind = c["check"]
        if kind not in CHECKS:
            raise LessonError(f"{where}: unknown check \"{kind}\"; the checks are "
                              f"{', '.join(CHECKS)}")
        required, optional = CHECKS[kind]
        unknown = set(c) - {"check", "message", "description"} - set(required) - set(optional)
        if unknown:
            raise LessonError(f"{where}: {sorted(unknown)} not fields of a {kind} check")
        missing = [k for k in (*required, "message") if k not in c]
        if missing:
            raise LessonError(f"{where}: a {kind} check needs {', '.join(missing)}")
        if not isinstance(c["message"], str) or not c["message"].strip():
            raise LessonError(f"{where}/message: say what the learner should look at or do")
        if "description" in c and (not isinstance(c["description"], str) or not c["description"].strip()):
            raise LessonError(f"{where}/description: say in plain words what the check asks, or leave it out")
        if "pattern" in c:
            try:
                re.compile(c["pattern"])  # close enough to RE2 to catch typos (nvpg lesson validate has the last word)
            except re.error as e:
                raise LessonError(f"{where}/pattern: {e}")
        if kind == "output":
            equals = c["equals"]
            parts = equals.split("/") if isinstance(equals, str) else []
            if len(parts) != 2 or parts[0] != self.lesson or not parts[1].endswith(".npy"):
                raise LessonError(f"{where}/equals: name the file as \"{self.lesson}/FILE.npy\" "
                                  f"(it is src/{self.lesson}/FILE.npy, carried in the .nvpg)")
            if equals not in self.data:
                self.data[equals] = self.path(parts[1], f"{where}/equals")
        # A fixed order, whatever lesson.json's: the kind, its fields, the description, the message.
        return {k: c[k] for k in ("check", *required, *optional, "description", "message") if k in c}

    def build(self):
        spec_path = os.path.join(self.folder, "lesson.json")
        with open(spec_path, encoding="utf-8") as f:
            spec = json.load(f)
        where = f"src/{self.lesson}/lesson.json"
        lesson = spec.get("lesson")
        if not isinstance(lesson, dict):
            raise LessonError(f"{where}: needs a \"lesson\" object")
        unknown = set(lesson) - set(LESSON_KEYS)
        if unknown:
            raise LessonError(f"{where}: unknown lesson keys {sorted(unknown)}")
        steps = lesson.get("steps")
        if not isinstance(steps, list) or not steps:
            raise LessonError(f"{where}: a lesson needs steps")
        out_steps = []
        for i, s in enumerate(steps):
            p = f"{where}: /lesson/steps/{i}"
            unknown = set(s) - set(STEP_KEYS)
            if unknown:
                raise LessonError(f"{p}: unknown step keys {sorted(unknown)}")
            for key in ("title", "instructions", "start", "checks"):
                if key not in s:
                    raise LessonError(f"{p}: a step needs \"{key}\"")
            step = {"title": s["title"],
                    "instructions": self.text_of(s["instructions"], f"{p}/instructions")}
            if s["start"] == "continue":
                if i == 0:
                    raise LessonError(f"{p}/start: step 1 cannot continue; give its state")
                step["start"] = "continue"
            else:
                step["start"] = self.state(s["start"], f"{p}/start", complete=(i == 0))
            if "hints" in s:
                if not isinstance(s["hints"], list) or not all(isinstance(h, str)
                                                               for h in s["hints"]):
                    raise LessonError(f"{p}/hints: expected an array of strings")
                step["hints"] = list(s["hints"])
            if "solution" in s:
                step["solution"] = self.state(s["solution"], f"{p}/solution")
            if not isinstance(s["checks"], list) or not s["checks"]:
                raise LessonError(f"{p}/checks: a step needs at least one check")
            step["checks"] = [self.check(c, f"{p}/checks/{j}") for j, c in enumerate(s["checks"])]
            if "hide-fixes" in s:
                if not isinstance(s["hide-fixes"], list) or not all(isinstance(k, str)
                                                                    for k in s["hide-fixes"]):
                    raise LessonError(f"{p}/hide-fixes: expected an array of fix kinds")
                step["hide-fixes"] = list(s["hide-fixes"])
            out_steps.append(step)
        first = out_steps[0]["start"]
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "name": spec["name"],
            "description": spec.get("description", ""),
            "modules": first["modules"],
            "options": first["options"],
            "libdevice": first["libdevice"],
        }
        if "verify" in first:
            doc["verify"] = False
        doc["lto"] = first["lto"]
        doc["runs"] = first["runs"]
        out_lesson = {key: lesson[key] for key in ("id", "title", "summary") if key in lesson}
        out_lesson["steps"] = out_steps
        if self.data:
            files = {}
            for equals, path in self.data.items():
                with open(path, "rb") as f:
                    files[equals] = base64.b64encode(f.read()).decode("ascii")
            out_lesson["files"] = files
        doc["lesson"] = out_lesson
        return dump(doc)


def find_nvpg(given):
    if given:
        return given
    built = os.path.join(REPO, "build", "app", "cli", "nvpg")
    if os.access(built, os.X_OK):
        return built
    return shutil.which("nvpg")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a .nvpg differs from its "
                             "sources")
    parser.add_argument("--llvm-as", default="llvm-as-14", help="the LLVM 14 assembler")
    parser.add_argument("--validate", action="store_true",
                        help="run `nvpg lesson validate` on each lesson after building it")
    parser.add_argument("--nvpg", help="the nvpg to validate with")
    parser.add_argument("lessons", nargs="*", help="only these (default: all in src/)")
    args = parser.parse_args()

    lessons = args.lessons or sorted(
        d for d in os.listdir(SRC) if os.path.isfile(os.path.join(SRC, d, "lesson.json")))
    stale = []
    try:
        for lesson in lessons:
            builder = Builder(lesson, args.llvm_as)
            data = builder.build()
            outputs = [(os.path.join(HERE, lesson + ".nvpg"), data)]
            for out, content in outputs:
                if read_or_none(out) == content:
                    continue
                stale.append(os.path.relpath(out, HERE))
                if not args.check:
                    write_atomic(out, content)
                    print(f"wrote {os.path.relpath(out)}")
    except (SourceError, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"make_lessons.py: {e}", file=sys.stderr)
        return 2
    if args.check and stale:
        print("out of date: " + ", ".join(stale) + " (run make_lessons.py)", file=sys.stderr)
        return 1
    if args.validate and not args.check:
        nvpg = find_nvpg(args.nvpg)
        if not nvpg:
            print("make_lessons.py: --validate: no nvpg found; pass --nvpg", file=sys.stderr)
            return 2
        failed = []
        for lesson in lessons:
            done = subprocess.run([nvpg, "lesson", "validate",
                                   os.path.join(HERE, lesson + ".nvpg")], check=False)
            if done.returncode != 0:
                failed.append(lesson)
        if failed:
            print("not valid: " + ", ".join(failed), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
