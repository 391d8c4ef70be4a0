#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/cache/Key.h"
#include "core/engine/Protocol.h"
#include "core/gpu/Devices.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"

namespace nvpg::engine {

// An engine on another machine, reached with the user's own OpenSSH client (their keys, agent
// and ~/.ssh/config): `ssh DEST 'nvpg engine'` speaks the engine protocol on ssh's stdin and
// stdout as a local engine does on its socket. The far engine ends when its stdin closes, so
// ending ssh ends it.
struct FarEnd {
    std::string destination;          // as ssh takes it: host, user@host, a Host alias, ssh://user@host:port
    std::string remoteNvpg = "nvpg";  // the far nvpg: a path, or a name on the far PATH
    int connectTimeoutSeconds = 10;   // ssh's ConnectTimeout
};

// The environment's names for them: where the engine runs (as --on), and the ssh command with
// its options (as git's GIT_SSH_COMMAND: "ssh -F FILE -i KEY"), else `ssh`.
inline constexpr const char* kOnVariable = "NVPG_ON";
inline constexpr const char* kSshCommandVariable = "NVPG_SSH_COMMAND";

// Splits a command line into words as a POSIX shell would, with single and double quotes and
// backslashes, and nothing else: no variables, globs, `~` or operators, which are words like any
// other. An unclosed quote, or a line with no word, is a Usage error naming `what`.
support::Result<std::vector<std::string>> splitShellWords(std::string_view text, std::string_view what);
// `word` as a POSIX shell reads it back: as it is where it holds only characters no shell treats
// specially (a leading `~` stays unquoted, so that the far shell expands it), else in single quotes.
std::string shellQuoted(std::string_view word);

// A destination ssh would take as an option (a leading '-'), an empty one or one with a control
// character or a space is a Usage error; `given` names where it came from (--on, NVPG_ON).
support::Status checkDestination(std::string_view destination, std::string_view given);

// How the front end starts its engine: the command (empty: in this process), and the far end
// when that command is ssh to another machine.
struct EngineLauncher {
    std::vector<std::string> argv;
    std::optional<FarEnd> far;
};
// The one place that makes the engine's command: with `far`, the ssh command of
// NVPG_SSH_COMMAND (else `ssh` from PATH), always with BatchMode (ssh never asks for a password
// or a host key: such a question would wait for ever on a terminal nobody reads), a connect
// timeout, no terminal and no escape character (the protocol's bytes pass as they are), then
// `--` and the destination, so that it cannot be read as an option, and the far nvpg's
// `engine`; without, NVPG_ENGINE's command, else this executable with `engineArgument`.
support::Result<EngineLauncher> engineLauncher(const std::string& engineArgument, const std::optional<FarEnd>& far);

// ssh's own failure, in words that say what to do, from its exit status and what it wrote to
// stderr (`stderrTail`, its last lines): host unreachable, authentication refused, host key
// unknown or changed, the far nvpg missing or not executable, the connection cut. Nothing when
// the words are not ssh's (the far engine itself ended: a crash, a kill).
std::optional<std::string> describeSshFailure(const FarEnd& far, int exitStatus, std::string_view stderrTail);

// What the far engine said about itself and its toolkit (the toolkit reply, kToolkitReply,
// asked with makeFarRequest): for `nvpg info`, the result cache's key and what a front end
// decides from the toolkit (nvdisasm for SASS, nvJitLink for LTO).
struct FarToolkit {
    std::string host;         // the far machine's name (gethostname)
    std::string nvpgVersion;  // the far nvpg's version
    int protocol = 0;         // the engine protocol version it speaks
    std::string release;      // "CUDA 13.0.88 (version.json)", else why not known
    int cudaMajor = 0;
    std::vector<toolkit::LibraryReport> libraries;  // libNVVM, libdevice, nvJitLink, nvdisasm, ptxas...
    bool hasNvJitLink = false;
    bool hasNvdisasm = false;
    std::string nvdisasmProblem;
    std::vector<gpu::DeviceInfo> gpus;  // when asked for; empty with noGpuReason
    std::string noGpuReason;
    // The far toolkit's files (and the far nvpg's) and GPU identity, as the far engine stamps
    // them: with the destination, what the result cache keys a far compile on.
    cache::Environment identity;
};
// The arch a far compile uses when none is given: the far first GPU's ("compute_90 (the far
// GPU's)"), else "libNVVM's default".
std::string farDefaultArch(const FarToolkit& tk);
// What a far engine said of its machine, toolkit and GPUs, as `nvpg info --on` prints it and the
// app's Settings ▸ Engine ▸ Test connection shows it: lines of a 12-column label and its text.
std::string describeFarMachine(const FarEnd& far, const FarToolkit& tk);

// Why a far machine cannot run kernels, naming it: "gpu-server (node7) has no GPU the engine
// there can use: REASON".
std::string describeNoFarGpu(const FarEnd& far, const FarToolkit& tk);

// The toolkit request for a far engine: opens the toolkit (`cudaPath`, a far folder, else the far
// search) and describes it, its GPUs too when `withGpus` (which may initialise the far driver).
Frame makeFarRequest(const std::optional<std::string>& cudaPath, bool withGpus);
// The toolkit reply as a FarToolkit; an error reply is the error it carries.
support::Result<FarToolkit> readFarToolkit(const Frame& reply);
// The environment a far compile's cache key is made of: the far identity, with the destination.
cache::Environment farEnvironment(const FarEnd& far, const FarToolkit& tk);

}  // namespace nvpg::engine
