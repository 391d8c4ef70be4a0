#include "core/pipeline/OutputNames.h"

#include <filesystem>
#include <unordered_map>
#include <unordered_set>

namespace fs = std::filesystem;

namespace nvpg::pipeline {

namespace {

// A stem's share of a file name's 255 bytes, leaving room for the -o file's name, a -N and the suffix.
constexpr size_t kMaxStemBytes = 100;

}  // namespace

std::string_view artifactSuffix(Artifact artifact) {
    switch (artifact) {
        case Artifact::Ptx:
            return ".ptx";
        case Artifact::LtoIr:
            return ".ltoir";
        case Artifact::LinkedPtx:
            return ".lto.ptx";
        case Artifact::Cubin:
            return ".cubin";
        case Artifact::Sass:
            return ".sass";
    }
    return {};
}

std::string defaultOutputName(std::string_view stem, Artifact artifact) {
    return std::string(stem.empty() ? std::string_view("program") : stem) + std::string(artifactSuffix(artifact));
}

std::string fileStemOf(std::string_view moduleName) {
    std::string name = fs::path(std::string(moduleName)).filename().string();
    // ".", ".." (also as "x/..") and "..." name folders or nothing, not a module.
    if (name.find_first_not_of('.') == std::string::npos) name.clear();
    // Everything before the last dot: "a.b.ll" -> "a.b", ".ll" -> "".
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.resize(dot);
    if (name.size() > kMaxStemBytes) name.resize(kMaxStemBytes);
    for (char& c : name) {
        const unsigned char u = static_cast<unsigned char>(c);
        const bool safe = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || c == '_' ||
                          c == '+' || c == '-';
        if (!safe) c = '_';
    }
    return name.empty() ? "module" : name;
}

namespace {

// fileStemOf of each name, numbered from the second of a stem on (k, k-2, k-3): never one twice.
std::vector<std::string> uniqueStems(const std::vector<std::string>& moduleNames) {
    std::vector<std::string> stems;
    stems.reserve(moduleNames.size());
    std::unordered_set<std::string> used;
    // Per stem, the next -N to try, so that many modules of one stem are numbered in linear time.
    std::unordered_map<std::string, size_t> next;
    for (const auto& module : moduleNames) {
        const std::string stem = fileStemOf(module);
        std::string candidate = stem;
        if (used.count(candidate)) {
            size_t& n = next.try_emplace(stem, 2).first->second;
            do candidate = stem + "-" + std::to_string(n++);
            while (used.count(candidate));
        }
        used.insert(candidate);
        stems.push_back(std::move(candidate));
    }
    return stems;
}

}  // namespace

std::vector<std::string> perModulePaths(const std::string& path, const std::vector<std::string>& moduleNames) {
    if (moduleNames.size() <= 1) return {path};
    const fs::path p(path);
    std::string name = p.filename().string();
    std::string suffix;
    if (name.size() > 6 && name.compare(name.size() - 6, 6, ".ltoir") == 0) {
        suffix = ".ltoir";
    } else if (const auto dot = name.rfind('.'); dot != std::string::npos && dot > 0) {
        suffix = name.substr(dot);
    }
    name.resize(name.size() - suffix.size());
    // "-o dir/" names only a folder: the files get the default name in it, not hidden ".MODULE" ones.
    if (name.empty()) name = "program";
    std::vector<std::string> paths;
    paths.reserve(moduleNames.size());
    for (const auto& stem : uniqueStems(moduleNames))
        paths.push_back((p.parent_path() / (name + "." + stem + suffix)).string());
    return paths;
}

}  // namespace nvpg::pipeline
