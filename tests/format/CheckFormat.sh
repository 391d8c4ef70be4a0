#!/usr/bin/env bash
# Fails when a C or C++ source under ROOT's app, core, tests or bench differs from what
# clang-format makes of it with the project's .clang-format (one rule: 120 columns).
#   tests/format/CheckFormat.sh CLANG_FORMAT ROOT [EXTENSION...]
# Lists each file that differs and the command that formats them all.
set -uo pipefail
clang_format=${1:?usage: CheckFormat.sh CLANG_FORMAT ROOT [EXTENSION...]}
root=${2:?usage: CheckFormat.sh CLANG_FORMAT ROOT [EXTENSION...]}
shift 2
extensions=("$@"); [ ${#extensions[@]} -eq 0 ] && extensions=(cpp h c)
cd "$root" || exit 2
names=(); for e in "${extensions[@]}"; do names+=(-o -name "*.$e"); done
mapfile -d '' files < <(find . -path ./build -prune -o -path './build-*' -prune -o -path ./.device -prune \
    -o -type f \( -false "${names[@]}" \) -print0 | sort -z)
if [ ${#files[@]} -eq 0 ]; then echo "no sources under $root"; exit 2; fi
# Many files to one clang-format, which names each file that differs ("FILE:LINE:COL: error: code
# should be clang-formatted"); a failure that names none (clang-format could not run) fails too.
report=$(printf '%s\0' "${files[@]}" | xargs -0 -n 64 "$clang_format" --style=file --dry-run --Werror 2>&1 >/dev/null)
rc=$?
mapfile -t bad < <(printf '%s\n' "$report" |
    sed -n 's|^\./\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*|\1|p' | sort -u)
if [ "$rc" -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
    echo "$clang_format failed:"
    printf '%s\n' "$report" | tail -n 5
    exit 2
fi
if [ ${#bad[@]} -gt 0 ]; then
    echo "${#bad[@]} of ${#files[@]} file(s) not formatted as .clang-format says:"
    printf '  %s\n' "${bad[@]}"
    echo "Format them with: $clang_format -i --style=file <files> (from $root)"
    exit 1
fi
echo "${#files[@]} files formatted as .clang-format says"
