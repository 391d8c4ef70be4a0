#pragma once

#include <cstdint>
#include <filesystem>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "core/pipeline/CompileResult.h"

namespace nvpg::cache {

// How much the cache holds in memory, and on disk unless NVPG_CACHE_MAX_BYTES says otherwise.
inline constexpr uint64_t kDefaultCacheBytes = uint64_t(256) << 20;

struct CacheConfig {
    std::filesystem::path dir;                  // where result files go; empty: memory only
    uint64_t memoryBytes = kDefaultCacheBytes;  // 0: nothing kept in memory
    uint64_t diskBytes = kDefaultCacheBytes;
};

struct Lookup {
    std::shared_ptr<const pipeline::CompileResult> result;  // null: not cached
    bool fromDisk = false;
    // A file for the key was there but damaged (truncated, altered, not ours): what and why. It
    // was removed; the caller compiles and says so.
    std::string warning;
};

// Compile results by cache::keyOf: an LRU in memory bounded by bytes, over a folder of files
// bounded by bytes that several processes may share. Each file is written whole to a temporary
// name and renamed into place, so a reader sees a whole file or none; one that is damaged anyway
// is refused by its header and hash, removed, and reported in Lookup::warning. Eviction removes
// the least recently used files (a hit touches its file), and tolerates files that another
// process removed first. Thread-safe; nothing here throws.
class ResultCache {
public:
    explicit ResultCache(CacheConfig config);

    // The cache a front end uses: none when NVPG_NO_CACHE is set (to 1, or anything but 0);
    // else files in NVPG_CACHE_DIR, or else in support::userCacheDir()/results (memory only
    // when neither is known), at most NVPG_CACHE_MAX_BYTES of them (default kDefaultCacheBytes).
    static std::shared_ptr<ResultCache> openDefault(uint64_t memoryBytes = kDefaultCacheBytes);

    // The result stored under `key`, from memory, else from its file.
    Lookup find(const std::string& key);
    // Keeps `result` under `key` (its generation and fromCache do not matter). A file that
    // cannot be written is skipped: the cache is an optimisation, never a reason to fail.
    void store(const std::string& key, const pipeline::CompileResult& result);

    // Where the file for `key` goes (empty without a folder).
    std::filesystem::path fileFor(const std::string& key) const;
    const CacheConfig& config() const { return config_; }
    uint64_t memoryBytesUsed() const;
    // The bytes of a stored file, as it is written: for tests that damage one.
    static std::string encodeFile(const std::string& key, const pipeline::CompileResult& result);

private:
    struct Entry {
        std::string key;
        std::shared_ptr<const pipeline::CompileResult> result;
        uint64_t bytes = 0;
    };
    void remember(const std::string& key, std::shared_ptr<const pipeline::CompileResult> result, uint64_t bytes);
    void evictFiles();

    CacheConfig config_;
    mutable std::mutex mu_;
    std::list<Entry> lru_;  // most recently used first
    std::unordered_map<std::string, std::list<Entry>::iterator> index_;
    uint64_t memoryUsed_ = 0;
};

}  // namespace nvpg::cache
