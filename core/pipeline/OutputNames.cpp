#include "pipeline/OutputNames.h"

#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace nvpg::pipeline {

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
    }
    return {};
}

std::string defaultOutputName(std::string_view stem, Artifact artifact) {
    return std::string(stem.empty() ? std::string_view("program") : stem) +
           std::string(artifactSuffix(artifact));
}

std::string fileStemOf(std::string_view moduleName) {
    std::string name = fs::path(std::string(moduleName)).filename().string();
    // Everything before the last dot: "a.b.ll" -> "a.b", ".ll" -> "".
    if (const auto dot = name.rfind('.'); dot != std::string::npos) name.resize(dot);
    for (char& c : name) {
        const unsigned char u = static_cast<unsigned char>(c);
        const bool safe = (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') ||
                          (u >= '0' && u <= '9') || c == '_' || c == '+' || c == '-';
        if (!safe) c = '_';
    }
    return name.empty() ? "module" : name;
}

std::vector<std::string> perModulePaths(const std::string& path,
                                        const std::vector<std::string>& moduleNames) {
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
    std::vector<std::string> paths;
    std::set<std::string> used;
    for (const auto& module : moduleNames) {
        const std::string stem = fileStemOf(module);
        std::string candidate = stem;
        for (int n = 2; used.count(candidate); ++n) candidate = stem + "-" + std::to_string(n);
        used.insert(candidate);
        paths.push_back((p.parent_path() / (name + "." + candidate + suffix)).string());
    }
    return paths;
}

}  // namespace nvpg::pipeline
