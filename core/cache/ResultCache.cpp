#include "core/cache/ResultCache.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <xxhash.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/cache/Key.h"
#include "core/inspect/LineMap.h"
#include "core/pipeline/ResultJson.h"
#include "core/support/Files.h"
#include "core/support/Json.h"

namespace fs = std::filesystem;

namespace nvpg::cache {

namespace {

// A file: this header, then the payload (u64 JSON length, the JSON {"result", "line_map"}, u32
// blob count, per blob u64 length and bytes). All integers little-endian.
//   "NVPGRES\0"  u32 format version  u32 header size  32 hex digits of the key
//   u64 payload length  u64 XXH64 of the payload
constexpr std::string_view kMagic{"NVPGRES\0", 8};
constexpr size_t kKeyChars = 32;
constexpr size_t kHeaderBytes = 8 + 4 + 4 + kKeyChars + 8 + 8;
constexpr const char* kExtension = ".nvpgr";
// Temporary files a writer left behind (killed between write and rename) are removed after this.
constexpr auto kStaleTemporary = std::chrono::hours(1);

void putU32(std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}
void putU64(std::string& out, uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(char((v >> (8 * i)) & 0xff));
}
uint64_t getLE(std::string_view bytes, size_t at, int width) {
    uint64_t v = 0;
    for (int i = 0; i < width; ++i) v |= uint64_t(uint8_t(bytes[at + i])) << (8 * i);
    return v;
}

std::string encodePayload(const pipeline::CompileResult& r) {
    std::vector<std::string> blobs;
    nlohmann::json j = {{"result", pipeline::resultToJson(r, blobs)},
                        {"line_map", r.lineMap ? inspect::toJson(*r.lineMap) : nlohmann::json()}};
    const auto text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    size_t size = 8 + text.size() + 4;
    for (const auto& b : blobs) size += 8 + b.size();
    std::string out;
    out.reserve(size);
    putU64(out, text.size());
    out += text;
    putU32(out, uint32_t(blobs.size()));
    for (const auto& b : blobs) {
        putU64(out, b.size());
        out += b;
    }
    return out;
}

// What is wrong with a file's bytes, as the warning says it, or the result they hold.
support::Result<pipeline::CompileResult> decodeFile(std::string_view bytes, const std::string& key) {
    auto damaged = [](std::string why) { return support::makeError(support::ErrorKind::Input, std::move(why)); };
    if (bytes.empty()) return damaged("it is empty");
    if (bytes.size() < kHeaderBytes)
        return damaged(fmt::format("it is {} bytes, shorter than its header", bytes.size()));
    if (bytes.substr(0, kMagic.size()) != kMagic) return damaged("it does not start as a cached result does");
    if (const auto v = getLE(bytes, 8, 4); v != kCacheFormatVersion)
        return damaged(fmt::format("its format is version {}, not {}", v, kCacheFormatVersion));
    if (getLE(bytes, 12, 4) != kHeaderBytes) return damaged("its header has another size");
    if (bytes.substr(16, kKeyChars) != key) return damaged("it holds the result of another key");
    const auto length = getLE(bytes, 48, 8);
    const auto payload = bytes.substr(kHeaderBytes);
    if (length != payload.size())
        return damaged(fmt::format("it holds {} bytes of result where its header says {}", payload.size(), length));
    if (XXH64(payload.data(), payload.size(), 0) != getLE(bytes, 56, 8)) return damaged("its checksum does not match");
    // The checksum matched: what follows was written by a cache of this format, but is read as
    // carefully as any other input.
    size_t at = 0;
    auto take = [&](size_t n) -> std::optional<std::string_view> {
        if (payload.size() - at < n) return std::nullopt;
        const auto part = payload.substr(at, n);
        at += n;
        return part;
    };
    const auto jsonLength = take(8);
    if (!jsonLength) return damaged("its result is cut short");
    const auto text = take(getLE(*jsonLength, 0, 8));
    const auto count = take(4);
    if (!text || !count) return damaged("its result is cut short");
    std::vector<std::string> blobs;
    for (uint64_t i = 0, n = getLE(*count, 0, 4); i < n; ++i) {
        const auto blobLength = take(8);
        const auto blob = blobLength ? take(getLE(*blobLength, 0, 8)) : std::nullopt;
        if (!blob) return damaged("its outputs are cut short");
        blobs.emplace_back(*blob);
    }
    if (at != payload.size()) return damaged("it has bytes after its outputs");
    auto parsed = support::parseJson(*text);
    if (parsed.problem) return damaged("its result is not JSON: " + parsed.problem->reason);
    auto result = pipeline::resultFromJson(support::field(parsed.doc, "result", nlohmann::json()), std::move(blobs));
    if (!result) return damaged(result.error().message);
    if (const auto map = support::field(parsed.doc, "line_map", nlohmann::json()); !map.is_null()) {
        auto read = inspect::lineMapFromJson(map);
        if (!read) return damaged("its line map: " + read.error().message);
        result->lineMap = std::make_shared<const inspect::LineMap>(std::move(*read));
    }
    return result;
}

// A hit makes the file the most recently used, for eviction; it may have gone meanwhile.
void touch(const fs::path& path) {
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

uint64_t envBytes(const char* name, uint64_t fallback) {
    const char* text = std::getenv(name);
    if (!text || !*text) return fallback;
    uint64_t v = 0;
    const auto end = text + std::strlen(text);
    const auto r = std::from_chars(text, end, v);
    return r.ec == std::errc() && r.ptr == end ? v : fallback;
}

}  // namespace

ResultCache::ResultCache(CacheConfig config) : config_(std::move(config)) {}

std::shared_ptr<ResultCache> ResultCache::openDefault(uint64_t memoryBytes) {
    if (const char* off = std::getenv("NVPG_NO_CACHE"); off && *off && std::string_view(off) != "0") return nullptr;
    CacheConfig config;
    config.memoryBytes = memoryBytes;
    config.diskBytes = envBytes("NVPG_CACHE_MAX_BYTES", kDefaultCacheBytes);
    if (const char* dir = std::getenv("NVPG_CACHE_DIR"); dir && *dir)
        config.dir = dir;
    else if (const auto base = support::userCacheDir(); !base.empty())
        config.dir = base / "results";
    return std::make_shared<ResultCache>(std::move(config));
}

fs::path ResultCache::fileFor(const std::string& key) const {
    if (config_.dir.empty() || key.size() < 2) return {};
    return config_.dir / key.substr(0, 2) / (key + kExtension);
}

uint64_t ResultCache::memoryBytesUsed() const {
    std::lock_guard lock(mu_);
    return memoryUsed_;
}

std::string ResultCache::encodeFile(const std::string& key, const pipeline::CompileResult& result) {
    const auto payload = encodePayload(result);
    std::string out;
    out.reserve(kHeaderBytes + payload.size());
    out += kMagic;
    putU32(out, kCacheFormatVersion);
    putU32(out, uint32_t(kHeaderBytes));
    std::string k = key.substr(0, kKeyChars);
    k.resize(kKeyChars, '0');
    out += k;
    putU64(out, payload.size());
    putU64(out, XXH64(payload.data(), payload.size(), 0));
    out += payload;
    return out;
}

void ResultCache::remember(const std::string& key, std::shared_ptr<const pipeline::CompileResult> result,
                           uint64_t bytes) {
    if (bytes > config_.memoryBytes) return;
    std::lock_guard lock(mu_);
    if (const auto it = index_.find(key); it != index_.end()) {
        memoryUsed_ -= it->second->bytes;
        lru_.erase(it->second);
        index_.erase(it);
    }
    lru_.push_front({key, std::move(result), bytes});
    index_[key] = lru_.begin();
    memoryUsed_ += bytes;
    while (memoryUsed_ > config_.memoryBytes && !lru_.empty()) {
        memoryUsed_ -= lru_.back().bytes;
        index_.erase(lru_.back().key);
        lru_.pop_back();
    }
}

Lookup ResultCache::find(const std::string& key) {
    Lookup found;
    const auto path = fileFor(key);
    {
        std::lock_guard lock(mu_);
        if (const auto it = index_.find(key); it != index_.end()) {
            lru_.splice(lru_.begin(), lru_, it->second);
            found.result = it->second->result;
        }
    }
    if (found.result) {
        if (!path.empty()) touch(path);
        return found;
    }
    if (path.empty()) return found;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return found;
    try {
        auto bytes = support::readFile(path, {config_.diskBytes + kHeaderBytes, "a cached result"});
        auto result = bytes ? decodeFile(*bytes, key) : support::Result<pipeline::CompileResult>(bytes.error());
        if (!result) {
            // Another process may have evicted it between the look and the read: that is a miss.
            if (!fs::exists(fs::symlink_status(path, ec))) return found;
            found.warning = fmt::format(
                "the result cache's file {} was damaged ({}); it was removed and the modules "
                "were compiled again",
                path.string(), result.error().message);
            fs::remove_all(path, ec);
            return found;
        }
        touch(path);
        const uint64_t size = bytes->size();
        found.result = std::make_shared<const pipeline::CompileResult>(std::move(*result));
        found.fromDisk = true;
        remember(key, found.result, size);
    } catch (const std::bad_alloc&) {
        found = {};  // a file too big for this process's memory is a miss
    }
    return found;
}

void ResultCache::store(const std::string& key, const pipeline::CompileResult& result) {
    if (config_.dir.empty() && config_.memoryBytes == 0) return;
    try {
        const auto bytes = encodeFile(key, result);
        if (config_.memoryBytes > 0)
            remember(key, std::make_shared<const pipeline::CompileResult>(result), bytes.size());
        if (config_.dir.empty() || bytes.size() > config_.diskBytes) return;
        const auto path = fileFor(key);
        std::error_code ec;
        fs::create_directories(path.parent_path(), ec);
        // Not flushed to the disk: a file a power loss damaged fails its check and is compiled
        // again.
        support::WriteOptions notDurable;
        notDurable.durable = false;
        if (!support::writeFileAtomic(path, bytes, notDurable)) return;
        evictFiles();
    } catch (const std::exception&) {
        // Out of memory or a filesystem error: the result is just not kept.
    }
}

void ResultCache::evictFiles() {
    struct File {
        fs::path path;
        uint64_t size;
        fs::file_time_type mtime;
    };
    std::vector<File> files;
    uint64_t total = 0;
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (fs::recursive_directory_iterator it(config_.dir, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        std::error_code fileEc;
        if (!it->is_regular_file(fileEc)) continue;
        const auto name = it->path().filename().string();
        const auto mtime = it->last_write_time(fileEc);
        if (fileEc) continue;
        if (name.starts_with(".")) {  // writeFileAtomic's temporary file
            if (now - mtime > kStaleTemporary) fs::remove(it->path(), fileEc);
            continue;
        }
        if (!name.ends_with(kExtension)) continue;
        const auto size = it->file_size(fileEc);
        if (fileEc) continue;
        files.push_back({it->path(), size, mtime});
        total += size;
    }
    if (total <= config_.diskBytes) return;
    std::sort(files.begin(), files.end(), [](const File& a, const File& b) { return a.mtime < b.mtime; });
    for (const auto& f : files) {
        if (total <= config_.diskBytes) break;
        fs::remove(f.path, ec);  // gone already (another process evicted it) is as good
        total -= f.size;
    }
}

}  // namespace nvpg::cache
