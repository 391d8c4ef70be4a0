// nvpg's standard output: scripts read it, so output that did not get out (a full disk, a
// closed descriptor, a pipe closed with SIGPIPE ignored) is an error, exit 2, never a silent loss.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nvpg::cli {

// Writes `bytes` to stdout and flushes; when not all got out, the message to print (the check
// at exit then says nothing more).
std::optional<std::string> writeStdout(std::string_view bytes);
// After printing with stdio or fmt: flushes stdout; `status`, or 2 after saying why it failed.
int flushStdout(int status);
// Once, at the start of main. A descriptor 0, 1 or 2 that the caller closed is taken by
// /dev/null, read-only for 1 and 2, so that no file nvpg opens gets it and writes to a closed
// stdout still fail (EBADF). At exit, stdout is closed and checked: exit 2 if what was written
// to it did not all get out.
void checkStdoutAtExit();

}  // namespace nvpg::cli
