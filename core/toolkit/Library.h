#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "core/support/Result.h"

namespace nvpg::toolkit {

// A shared library opened with dlopen. Never closed: libNVVM and the driver keep global state
// that does not survive an unload, and a process opens each at most a few times.
class Library {
public:
    // Opens `file` (a path, or a bare soname for the system loader).
    static support::Result<std::shared_ptr<Library>> open(const std::string& file);

    // Null when the library lacks the symbol.
    void* symbol(const char* name) const;
    template <class Fn>
    bool resolve(Fn& fn, const char* name) const {
        fn = reinterpret_cast<Fn>(symbol(name));
        return fn != nullptr;
    }
    // The file the loader actually mapped (resolved for sonames).
    const std::filesystem::path& path() const { return path_; }

private:
    void* handle_ = nullptr;
    std::filesystem::path path_;
};

}  // namespace nvpg::toolkit
