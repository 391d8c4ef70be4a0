# Sourced by the tests' download set-ups (Fetch*.sh): where what they download is kept, outside
# any build tree, so that a second build folder, the sanitizer build and later clones reuse it and
# need no network: $NVPG_TEST_DOWNLOADS, else $XDG_CACHE_HOME/nvvm-playground-tests, else
# ~/.cache/nvvm-playground-tests. Only downloads go there; what is unpacked stays in the build tree.
test_downloads() {
  local base
  if [ -n "${NVPG_TEST_DOWNLOADS:-}" ]; then
    base=$NVPG_TEST_DOWNLOADS
  elif [ -n "${XDG_CACHE_HOME:-}" ] && [ "${XDG_CACHE_HOME#/}" != "$XDG_CACHE_HOME" ]; then
    base=$XDG_CACHE_HOME/nvvm-playground-tests
  else
    base=${HOME:-/tmp}/.cache/nvvm-playground-tests
  fi
  mkdir -p "$base/$1" && printf '%s\n' "$base/$1"
}
