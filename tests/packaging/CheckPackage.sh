#!/usr/bin/env bash
# The .deb as a user gets it: built by CPack from this build, unpacked into a temporary root
# (dpkg-deb -x), its desktop entry, AppStream metadata and MIME types checked by their validators,
# lintian's errors fatal, every file the programs need at run time present, and the unpacked nvpg
# and app run from there on a bundled example with a clean environment, mapping nothing from the
# source or build tree.
#   CheckPackage.sh BUILD_DIR SOURCE_DIR
set -uo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/nvpg-package.XXXXXX")
keep=$build/packaging-test  # what a person may want to look at afterwards: the .deb, the screenshot
rm -rf "$keep" && mkdir -p "$keep"
app_pid=""; xvfb_pid=""
cleanup() {
  [ -n "$app_pid" ] && kill -9 "$app_pid" 2>/dev/null
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
need() { command -v "$1" >/dev/null || { echo "FAIL: $1 is missing (apt-get install $2)" >&2; exit 1; }; }
need cpack cmake; need dpkg-deb dpkg; need dpkg-shlibdeps dpkg-dev; need desktop-file-validate desktop-file-utils
need appstreamcli appstream; need update-mime-database shared-mime-info; need lintian lintian
need Xvfb xvfb; need xdotool xdotool

# 1. Build it, as the README says.
if ! cpack --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1; then
  cat "$work/cpack.log" >&2; echo "FAIL: cpack" >&2; exit 1
fi
deb=$(ls "$work"/out/nvvm-playground_*.deb 2>/dev/null | head -n 1)
[ -f "$deb" ] || { cat "$work/cpack.log" >&2; echo "FAIL: cpack made no nvvm-playground_*.deb" >&2; exit 1; }
cp "$deb" "$keep/"
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# 2. Its control fields. (Read whole before grep -q: with pipefail, a grep -q that stops at its
#    match makes the writer's SIGPIPE fail the pipeline, a check that failed one run in four.)
field() { dpkg-deb -f "$deb" "$1"; }
depends=$(field Depends)
version=$(sed -n 's/^project(nvvm-playground VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ "$(field Package)" = nvvm-playground ] && ok "Package" || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version-1" ] && ok "Version $version-1 (the project's)" || fail "Version '$(field Version)', project $version"
[ "$(field Section)" = devel ] && ok "Section devel" || fail "Section '$(field Section)'"
for dep in libqt6widgets6 libqt6core6 libqscintilla2-qt6 libqt6charts6 qt6-qpa-plugins libfmt9 libre2-9 libc6; do
  grep -q "$dep" <<<"$depends" && ok "Depends names $dep" || fail "Depends lacks $dep: $depends"
done
grep -qw llvm-14 <<<"$(field Recommends)" && ok "Recommends llvm-14" || fail "Recommends: '$(field Recommends)'"
grep -q "CUDA toolkit" <<<"$(field Description | tr '\n' ' ')" && ok "the description says the CUDA toolkit is needed" \
  || fail "the description does not mention the CUDA toolkit"
grep -q "($version-1)" <<<"$(head -n 1 "$src/packaging/debian/changelog")" && ok "changelog's top entry is $version-1" \
  || fail "packaging/debian/changelog's top entry is not $version-1: add one"

# 3. Unpacked, as dpkg would install it (no maintainer scripts to run).
root=$work/root
dpkg-deb -x "$deb" "$root"
id=io.github.nvvm_playground.NvvmPlayground
share=$root/usr/share
files=(usr/bin/nvpg usr/bin/nvvm-playground
       "usr/share/applications/$id.desktop" "usr/share/metainfo/$id.metainfo.xml" "usr/share/mime/packages/$id.xml"
       "usr/share/icons/hicolor/scalable/apps/$id.svg"
       usr/share/man/man1/nvpg.1.gz usr/share/man/man1/nvvm-playground.1.gz
       usr/share/doc/nvvm-playground/README.md usr/share/doc/nvvm-playground/copyright
       usr/share/doc/nvvm-playground/changelog.Debian.gz usr/share/doc/nvvm-playground/LICENSE)
for size in 16 22 24 32 48 64 128 256; do files+=("usr/share/icons/hicolor/${size}x${size}/apps/$id.png"); done
for f in "$src"/resources/examples/*.nvpg "$src"/resources/examples/src/*/*; do
  files+=("usr/share/nvvm-playground/examples/${f#"$src"/resources/examples/}")
done
# The course, built lessons and their sources (make_lessons.py stays in the source tree).
for f in "$src"/resources/lessons/*.nvpg "$src"/resources/lessons/src/*/* "$src"/resources/lessons/[0-9]*/*; do
  [ -e "$f" ] && files+=("usr/share/nvvm-playground/lessons/${f#"$src"/resources/lessons/}")
done
for f in "$src"/resources/docs/*.json; do files+=("usr/share/nvvm-playground/docs/$(basename "$f")"); done
# The documentation Help shows, and the screenshots it shows.
for f in "$src"/docs/*/*.md "$src"/resources/screenshots/*.png; do
  files+=("usr/share/doc/nvvm-playground/${f#"$src"/}")
done
# What nvpg import numba and File > Import from numba run in the user's Python.
files+=(usr/share/nvvm-playground/python/nvpg_numba_import.py)
missing=0
for f in "${files[@]}"; do [ -e "$root/$f" ] || { fail "not in the package: /$f"; missing=1; }; done
[ $missing = 0 ] && ok "all ${#files[@]} files the programs and the desktop need are in it"
for size in 16 22 24 32 48 64 128 256; do
  got=$(identify -format '%wx%h' "$share/icons/hicolor/${size}x${size}/apps/$id.png" 2>/dev/null)
  [ "$got" = "${size}x${size}" ] || fail "the ${size}x${size} icon is $got"
done
if find "$root" -type f -print0 | xargs -0 grep -l -F -e "$build" >"$work/refs" 2>/dev/null; [ -s "$work/refs" ]; then
  fail "files naming the build tree $build: $(tr '\n' ' ' <"$work/refs")"
else
  ok "no file names the build tree"
fi

# 4. The validators.
if out=$(desktop-file-validate "$share/applications/$id.desktop" 2>&1) && ! grep -q "error\|warning" <<<"$out"; then
  ok "desktop-file-validate"; else fail "desktop-file-validate: $out"; fi
if out=$(appstreamcli validate --no-net --no-color "$share/metainfo/$id.metainfo.xml" 2>&1); then
  ok "appstreamcli validate --no-net"; else fail "appstreamcli validate: $out"; fi
for shot in $(sed -n 's|.*<image>.*/resources/screenshots/\([^<]*\)</image>.*|\1|p' "$share/metainfo/$id.metainfo.xml"); do
  [ -f "$src/resources/screenshots/$shot" ] && grep -q "resources/screenshots/$shot" "$src/README.md" \
    || fail "the metainfo's screenshot $shot is not one of the README's (resources/screenshots)"
done
grep -q "<release version=\"$version\"" "$share/metainfo/$id.metainfo.xml" && ok "metainfo has release $version" \
  || fail "the metainfo's releases lack $version"
for t in $(sed -n 's/^MimeType=//p' "$share/applications/$id.desktop" | tr ';' ' '); do
  grep -q "type=\"$t\"" "$share/mime/packages/$id.xml" /usr/share/mime/packages/*.xml \
    || fail "the desktop entry handles $t, which no MIME package defines"
done
if out=$(bash "$src/packaging/linux/check-mime.sh" "$share/mime/packages/$id.xml" 2>&1); then
  ok "MIME types (update-mime-database)"; else fail "MIME check: $out"; fi
lintian --tag-display-limit 0 "$deb" >"$keep/lintian.txt" 2>&1
if grep -q "^E:" "$keep/lintian.txt"; then fail "lintian errors:"; grep "^E:" "$keep/lintian.txt" >&2
else ok "lintian: no errors ($(grep -c "^W:" "$keep/lintian.txt") warnings, in $keep/lintian.txt)"; fi

# 5. The unpacked programs, from a folder of their own with a fresh home and nothing of ours in
#    the environment: every library resolves, and they find their examples under the root.
for exe in nvpg nvvm-playground; do
  if grep -q "not found" <<<"$(ldd "$root/usr/bin/$exe")"; then fail "$exe: $(ldd "$root/usr/bin/$exe" | grep "not found")"; fi
done
home=$work/home run=$work/cwd
mkdir -p "$home" "$run"
clean_env=(env -i PATH=/usr/bin:/bin HOME="$home" XDG_CONFIG_HOME="$home/.config" XDG_CACHE_HOME="$home/.cache"
           XDG_DATA_HOME="$home/.local/share" XDG_RUNTIME_DIR="$home/run" LANG=C.UTF-8)
for v in CUDA_PATH CUDA_HOME; do [ -n "${!v:-}" ] && clean_env+=("$v=${!v}"); done
mkdir -p "$home/run" && chmod 700 "$home/run"
cd "$run"
examples=$root/usr/share/nvvm-playground/examples
if out=$("${clean_env[@]}" "$root/usr/bin/nvpg" examples 2>&1) && grep -qF "$examples" <<<"$out" \
   && grep -q "^saxpy " <<<"$out"; then
  ok "unpacked nvpg examples lists the unpacked examples"
else
  fail "unpacked nvpg examples: $out"
fi
if "${clean_env[@]}" "$root/usr/bin/nvpg" compile saxpy -o "$run/saxpy.ptx" >"$work/compile.log" 2>&1 \
   && grep -q "^\.visible \.entry saxpy" "$run/saxpy.ptx"; then
  ok "unpacked nvpg compile saxpy wrote PTX with the saxpy kernel"
  # The same bytes as the build's own nvpg gives for the source tree's example.
  if "$build/app/cli/nvpg" compile "$src/resources/examples/saxpy.nvpg" -o "$work/built.ptx" >/dev/null 2>&1 \
     && cmp -s "$run/saxpy.ptx" "$work/built.ptx"; then ok "its PTX is byte-identical to the build's"
  else fail "the unpacked nvpg's PTX differs from the build's"; fi
else
  fail "unpacked nvpg compile saxpy: $(cat "$work/compile.log")"
fi
manpage() { gzip -dc "$root/usr/share/man/man1/$1.1.gz"; }
for page in nvpg nvvm-playground; do
  if w=$(manpage $page | LC_ALL=C.UTF-8 groff -man -ww -z 2>&1) && [ -z "$w" ]; then ok "man $page: no groff warnings"
  else fail "man $page: $w"; fi
done

# 6. The unpacked app on an unpacked example, on a real X server: its window shows the example,
#    its engine is the unpacked binary, and neither maps a file of the source or build tree.
exec 3< <(Xvfb -displayfd 1 -screen 0 1400x900x24 -nolisten tcp 2>"$work/xvfb.log" & echo "pid $!")
read -r _ xvfb_pid <&3
read -r -t 30 display <&3 || { fail "Xvfb did not start: $(cat "$work/xvfb.log")"; exit 1; }
"${clean_env[@]}" DISPLAY=":$display" QT_QPA_PLATFORM=xcb "$root/usr/bin/nvvm-playground" "$examples/saxpy.nvpg" \
  >"$work/app.log" 2>&1 &
app_pid=$!
if windows=$(DISPLAY=":$display" timeout 60 xdotool search --sync --onlyvisible --name "saxpy" 2>/dev/null) \
   && [ -n "$windows" ]; then
  ok "the unpacked app's window shows saxpy"
  engine=""
  for _ in $(seq 1 100); do
    engine=$(pgrep -P "$app_pid" | head -n 1); [ -n "$engine" ] && break; sleep 0.2
  done
  if [ -n "$engine" ] && [ "$(readlink "/proc/$engine/exe")" = "$root/usr/bin/nvvm-playground" ]; then
    ok "its engine process is the unpacked app"
  else
    fail "no engine process of the unpacked app (child: ${engine:-none})"
  fi
  sleep 3  # the first compile shows
  mapped=0
  for pid in $app_pid $engine; do
    if grep -F -e "$src" -e "$build" "/proc/$pid/maps" >"$work/maps" 2>/dev/null; then
      fail "process $pid maps files of the source or build tree: $(awk '{print $6}' "$work/maps" | sort -u | tr '\n' ' ')"
      mapped=1
    fi
  done
  [ $mapped = 0 ] && ok "neither maps a file of the source or build tree"
  DISPLAY=":$display" import -window root "$keep/app.png" 2>/dev/null && echo "screenshot: $keep/app.png"
else
  fail "the unpacked app showed no window named saxpy: $(cat "$work/app.log")"
fi
kill "$app_pid" 2>/dev/null; wait "$app_pid" 2>/dev/null; app_pid=""
if grep -qi "warning\|not found\|cannot" <<<"$(grep -v "^QStandardPaths\|XDG_RUNTIME_DIR" "$work/app.log")"; then
  echo "the app said:" && cat "$work/app.log"
fi

echo
[ $failures = 0 ] && echo "the package installs and runs" || echo "$failures check(s) failed"
exit $((failures > 0))
