#include "core/toolkit/Library.h"

#include <dlfcn.h>
#include <link.h>

namespace nvpg::toolkit {

support::Result<std::shared_ptr<Library>> Library::open(const std::string& file) {
    ::dlerror();
    void* h = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char* why = ::dlerror();
        return support::makeError(support::ErrorKind::Environment, why ? why : "dlopen failed");
    }
    auto lib = std::make_shared<Library>();
    lib->handle_ = h;
    lib->path_ = file;
    link_map* map = nullptr;
    if (::dlinfo(h, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name && *map->l_name) lib->path_ = map->l_name;
    return lib;
}

void* Library::symbol(const char* name) const {
    return handle_ ? ::dlsym(handle_, name) : nullptr;
}

}  // namespace nvpg::toolkit
