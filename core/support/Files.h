#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/support/Result.h"

namespace nvpg::support {

// The most a file read as one kind of input may hold, checked before a byte is read: generous
// for real inputs (libdevice is 0.5 MiB, large numba modules a few MiB), and small enough that
// a wrong or hostile path fails at once with a message instead of taking the machine's memory.
struct SizeLimit {
    uint64_t bytes;
    std::string_view what;  // the kind of input, as messages name it
};
inline constexpr SizeLimit kModuleFileLimit{uint64_t(1) << 30, "an NVVM IR module"};
// A workspace holds its modules as text (bitcode as base64) and is parsed whole into JSON.
inline constexpr SizeLimit kWorkspaceFileLimit{uint64_t(1) << 30, "a workspace"};
// A buffer goes to the engine process as one blob, which may be 16 GiB (engine::kMaxBlobBytes).
inline constexpr SizeLimit kBufferFileLimit{uint64_t(16) << 30, "a buffer file"};

// The whole file as bytes, or an error naming the file and the reason; never a part of it.
// Only regular files are read: a device (/dev/zero), FIFO or socket is refused by its type
// without being opened, since it may never end or block until a writer comes. A file over
// `limit`, a file that does not fit in memory and one that changes size while it is read are
// errors too.
Result<std::string> readFile(const std::filesystem::path& path, SizeLimit limit = kModuleFileLimit);

struct WriteOptions {
    // Replace a file that is read-only (no write permission), which is otherwise refused.
    bool replaceReadOnly = false;
    // How the user asks for that, for the message that refuses: "give --force to replace it".
    std::string_view howToReplaceReadOnly;
    // Flush the new file to the disk before it replaces the old one, so that it survives a power
    // loss. A compiler's output, which the same command makes again, does without (as gcc's and
    // clang's do): the rename still never leaves a half-written file where the old one was.
    bool durable = true;
};
// Writes to a temporary file beside `path`, then renames it over `path`, so that a crash or a
// full disk never leaves a half-written file where the old one was. What the user set on the
// file is kept: its mode (and owner, where allowed); its other names (a file with several hard
// links is rewritten in place, after its new size is reserved on the disk); symbolic links
// (the file a chain of links names is written, and created when it is not there yet). A
// read-only file is refused unless `options` allow it. A device or FIFO (/dev/null,
// /dev/stdout) is written in place.
Status writeFileAtomic(const std::filesystem::path& path, std::string_view bytes, const WriteOptions& options = {});

// Why `path` is no file to read or replace as a document: "/tmp/p is a FIFO (named pipe), not a
// regular file" (links followed and named). Nothing for a regular file, and for a path that does
// not exist (reading it says so; writing creates it).
std::optional<std::string> notRegularFileReason(const std::filesystem::path& path);

// Whether two paths name one existing file, whatever their spelling: through symbolic links,
// hard links, "./" or "..", by device and inode. False when either does not exist.
bool sameFile(const std::filesystem::path& a, const std::filesystem::path& b);

// The one rule for "would this write destroy what it read?", asked by every writer before it
// writes. `output` is a file to be written, or with `outputIsFolder` a folder whose contents are
// written or replaced. The answer is the first of `inputs` that the write would replace: the same
// file by identity (symbolic links, hard links, "..", any other spelling), or, for a folder, an
// input that lies inside it (after links are resolved). Nothing when the write is safe. Inputs
// that do not exist are no inputs.
std::optional<std::filesystem::path> inputOverwrittenBy(const std::filesystem::path& output,
                                                        const std::vector<std::filesystem::path>& inputs,
                                                        bool outputIsFolder = false);

// Where this user's caches go: $XDG_CACHE_HOME/nvvm-playground, else ~/.cache/nvvm-playground
// (the XDG base directory rules; a relative XDG_CACHE_HOME is ignored, as they say). Empty when
// neither variable gives an absolute path: then nothing is cached on disk. Not created here.
std::filesystem::path userCacheDir();

}  // namespace nvpg::support
