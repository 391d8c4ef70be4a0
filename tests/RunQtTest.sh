#!/usr/bin/env bash
# Runs one Qt Test suite for ctest. Qt Test exits 0 when every test function skipped (no GPU, a
# tool missing), which ctest would show as "Passed": such a run exits 77 instead, the
# SKIP_RETURN_CODE of every suite, so that ctest shows it as skipped. A suite where at least one
# test function passed is passed, whatever else it skipped.
set -u
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# LeakSanitizer's own tracer can crash while it stops the threads at exit (seen once in CI on a
# suite whose tests had all passed, under load): then no leak check was made, neither passed nor
# failed. The suite runs once more for a real one. A leak found, or any other failure, stays.
if [ "$rc" -ne 0 ] && grep -q 'LeakSanitizer has encountered a fatal error' "$log" &&
    ! grep -q 'LeakSanitizer: detected memory leaks' "$log"; then
    echo "LeakSanitizer itself failed (no leak was reported, no test failed because of it): running the suite once more"
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
fi
[ "$rc" -eq 0 ] || exit "$rc"
passed=$(grep -E '^PASS   : ' "$log" | grep -cvE '::(initTestCase|cleanupTestCase)\(')
skipped=$(grep -cE '^SKIP   : ' "$log")
if [ "$passed" -eq 0 ] && [ "$skipped" -gt 0 ]; then
    echo "every test function of this suite skipped: reported to ctest as skipped"
    exit 77
fi
exit 0
