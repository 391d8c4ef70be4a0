#include "core/cache/Key.h"

#include <sys/stat.h>

#include <xxhash.h>

#include <fmt/format.h>

#include "core/gpu/Devices.h"
#include "core/nvvm/Options.h"

namespace nvpg::cache {

FileStamp stampOf(std::string role, const std::filesystem::path& path) {
    FileStamp s{std::move(role), path, 0, 0};
    struct stat st {};
    if (!path.empty() && ::stat(path.c_str(), &st) == 0) {
        s.size = uint64_t(st.st_size);
        s.mtimeNs = int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    }
    return s;
}

Environment environmentOf(const pipeline::Job& job, const toolkit::Toolkit& toolkit) {
    Environment env;
    auto add = [&](const toolkit::LibraryReport& r) {
        env.files.push_back(stampOf(r.name, r.found ? r.path : std::filesystem::path()));
    };
    add(toolkit.nvvmReport());
    add(toolkit.libdeviceReport());
    // By its file, found without opening it: a compile to PTX never opens nvJitLink.
    env.files.push_back(stampOf("nvJitLink", toolkit.nvJitLinkFile()));
    add(toolkit.ptxasReport());
    if (job.outputs & pipeline::kSass) add(toolkit.nvdisasmReport());
    // The code that turns libNVVM's answers into diagnostics, hints and maps is this program's:
    // a new build may say things differently.
    std::error_code ec;
    env.files.push_back(stampOf("nvpg", std::filesystem::read_symlink("/proc/self/exe", ec)));
    if (!job.options.arch && job.archFromGpu) env.gpu = gpu::gpuIdentity();
    return env;
}

namespace {

// Feeds length-prefixed fields, so that no two different inputs serialize alike.
class Hasher {
public:
    Hasher() : st_(XXH3_createState()) { XXH3_128bits_reset(st_); }
    ~Hasher() { XXH3_freeState(st_); }
    Hasher(const Hasher&) = delete;
    Hasher& operator=(const Hasher&) = delete;

    void text(std::string_view s) {
        number(s.size());
        XXH3_128bits_update(st_, s.data(), s.size());
    }
    void number(uint64_t n) { XXH3_128bits_update(st_, &n, sizeof n); }
    std::string hex() const {
        const XXH128_hash_t h = XXH3_128bits_digest(st_);
        return fmt::format("{:016x}{:016x}", h.high64, h.low64);
    }

private:
    XXH3_state_t* st_;
};

}  // namespace

std::string keyOf(const pipeline::Job& job, const Environment& env) {
    Hasher h;
    h.text("nvpg result cache");
    h.number(kCacheFormatVersion);
    h.number(job.modules.size());
    for (const auto& m : job.modules) {
        h.text(m.name);
        h.text(m.bytes);
        h.number(m.isBitcode() ? 1 : 0);
        h.number(m.lazy ? 1 : 0);
    }
    // Every option of the table by name, set or not, then the extra flags.
    for (const auto& o : nvvm::optionTable()) {
        h.text(o.name);
        const auto v = job.options.get(o.name);
        h.number(v ? 1 : 0);
        if (v) h.text(*v);
    }
    h.number(job.options.extraFlags.size());
    for (const auto& f : job.options.extraFlags) h.text(f);
    h.number(job.libdevice);
    h.number(job.verify);
    h.number(job.verifyOnly);
    h.number(unsigned(job.ltoMode));
    h.number(job.outputs);
    h.number(job.lineMap);
    h.number(job.archFromGpu);
    h.number(env.files.size());
    for (const auto& f : env.files) {
        h.text(f.role);
        h.text(f.path.string());
        h.number(f.size);
        h.number(uint64_t(f.mtimeNs));
    }
    h.text(env.gpu);
    return h.hex();
}

}  // namespace nvpg::cache
