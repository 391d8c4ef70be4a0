#!/bin/sh
# check-mime.sh MIMEXML [WORKSPACE.nvpg...]
#
# Checks NVVM Playground's shared-mime-info package file the way the system will use it:
#   1. xmllint: the file is well-formed XML (when xmllint is installed);
#   2. update-mime-database builds a database from it in a temporary folder, printing nothing
#      (it exits 0 even when it reports bad elements, attributes or magic, so any output at all,
#      on stdout or stderr, fails the check);
#   3. the database's globs2 maps *.nvpg, *.ll and *.bc to our types, and its magic file has
#      rules for the workspace and bitcode types;
#   4. when gio is installed: files without a name extension are recognised by their contents
#      alone (magic): each WORKSPACE given (e.g. resources/examples/*.nvpg), a made-up workspace,
#      raw and wrapped bitcode.
# Exits 0 with "check-mime: OK" on success, non-zero with a line saying what failed otherwise.
set -u

ws_type=application/x-nvvm-playground-workspace
ir_type=text/x-llvm-ir
bc_type=application/x-llvm-bitcode

fail() {
    echo "check-mime: FAIL: $*" >&2
    exit 1
}

[ $# -ge 1 ] || { echo "usage: $0 MIMEXML [WORKSPACE.nvpg...]" >&2; exit 2; }
xml=$1
shift
[ -f "$xml" ] || fail "$xml: no such file"
command -v update-mime-database >/dev/null 2>&1 ||
    fail "update-mime-database not found (Debian: apt-get install shared-mime-info)"

d=$(mktemp -d "${TMPDIR:-/tmp}/check-mime.XXXXXX") || fail "mktemp failed"
trap 'rm -rf "$d"' EXIT INT TERM
mkdir -p "$d/share/mime/packages" "$d/home" || fail "cannot create $d"

# 1. well-formed
if command -v xmllint >/dev/null 2>&1; then
    xmllint --noout "$xml" 2>"$d/xmllint.err" || fail "xmllint: $xml is not well-formed XML:
$(cat "$d/xmllint.err")"
fi

# 2. update-mime-database, with the temporary folder on the search path so that it does not
#    print its "not in the search path" note either.
cp "$xml" "$d/share/mime/packages/" || fail "cannot copy $xml"
XDG_DATA_HOME="$d/home" XDG_DATA_DIRS="$d/share" \
    update-mime-database "$d/share/mime" >"$d/umd.out" 2>"$d/umd.err"
rc=$?
[ $rc -eq 0 ] || fail "update-mime-database exited with $rc:
$(cat "$d/umd.err")"
# It exits 0 even on errors in the file ("Error in type ...: Invalid offset.") and prints those
# on stdout, warnings on stderr; on success it prints nothing at all.
[ ! -s "$d/umd.err" ] || fail "update-mime-database printed on stderr:
$(cat "$d/umd.err")"
[ ! -s "$d/umd.out" ] || fail "update-mime-database reported:
$(cat "$d/umd.out")"

# 3. the generated globs2 and magic
db="$d/share/mime"
for want in "$ws_type:*.nvpg" "$ir_type:*.ll" "$bc_type:*.bc"; do
    grep -Eq "^[0-9]+:$(printf '%s' "$want" | sed 's/[.*]/\\&/g')\$" "$db/globs2" ||
        fail "globs2 has no line '<weight>:$want'; it has:
$(grep -v '^#' "$db/globs2")"
done
for t in "$ws_type" "$bc_type"; do
    grep -aq "^\[[0-9]*:$t\]\$" "$db/magic" || fail "the magic file names no rule for $t"
done
grep -aqF '"format": "nvvm-playground-workspace"' "$db/magic" ||
    fail "the magic file does not hold the string '\"format\": \"nvvm-playground-workspace\"'"
grep -q "^text/x-llvm $ir_type\$" "$db/aliases" || fail "aliases does not map text/x-llvm to $ir_type"
grep -q "^$ws_type application/json\$" "$db/subclasses" || fail "$ws_type is not a sub-class of application/json"

# 4. detection by contents, through GIO (the library file managers use)
if command -v gio >/dev/null 2>&1; then
    mkdir -p "$d/files"
    type_of() {
        XDG_DATA_HOME="$d/home" XDG_DATA_DIRS="$d/share:${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" \
            gio info -a standard::content-type "$1" 2>&1 | sed -n 's/^ *standard::content-type: //p'
    }
    expect() { # FILE TYPE WHAT
        got=$(type_of "$1")
        [ "$got" = "$2" ] || fail "$3: gio says '${got:-nothing}', not $2"
    }
    printf '{\n  "format": "nvvm-playground-workspace",\n  "version": 1,\n  "modules": []\n}\n' \
        >"$d/files/workspace"
    expect "$d/files/workspace" "$ws_type" "a workspace without its .nvpg name"
    printf '{"description":"sorted keys","format":"nvvm-playground-workspace","modules":[],"version":1}' \
        >"$d/files/compact"
    expect "$d/files/compact" "$ws_type" "a compact workspace with sorted keys"
    printf 'BC\300\336\065\024\000\000\005\000\000\000' >"$d/files/raw"
    expect "$d/files/raw" "$bc_type" "raw bitcode without its .bc name"
    printf '\336\300\027\013\000\000\000\000\024\000\000\000' >"$d/files/wrapped"
    expect "$d/files/wrapped" "$bc_type" "wrapped bitcode without its .bc name"
    printf '; ModuleID = %s\nsource_filename = "k.cu"\n' "'k.cu'" >"$d/files/module"
    expect "$d/files/module" "$ir_type" "LLVM IR without its .ll name"
    # By name alone (GIO calls any empty file text/plain, so these have some contents).
    printf '{}\n' >"$d/files/other.nvpg"
    expect "$d/files/other.nvpg" "$ws_type" "a file named *.nvpg"
    printf 'target triple = "nvptx64-nvidia-cuda"\n' >"$d/files/kernel.ll"
    expect "$d/files/kernel.ll" "$ir_type" "a file named *.ll"
    n=0
    for w in "$@"; do
        n=$((n + 1))
        [ -f "$w" ] || fail "$w: no such file"
        cp "$w" "$d/files/given$n" || fail "cannot copy $w"
        expect "$d/files/given$n" "$ws_type" "$w (copied to a name without .nvpg)"
    done
else
    echo "check-mime: gio not found; skipped the detection-by-contents checks"
    [ $# -eq 0 ] || echo "check-mime: (so the $# WORKSPACE files given were not checked)"
fi

echo "check-mime: OK ($xml)"
