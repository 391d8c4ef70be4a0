#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nvpg::pipeline {

// The files a compile can be written to, and the one naming rule both front ends use for them:
// the GUI's Export suggestions and file lists, nvpg's per-module LTO-IR files.
enum class Artifact { Ptx, LtoIr, LinkedPtx, Cubin, Sass };

// ".ptx", ".ltoir", ".lto.ptx", ".cubin", ".sass" (nvdisasm's listing).
std::string_view artifactSuffix(Artifact artifact);
// The suggested file name: "program" + suffix ("program.lto.ptx").
std::string defaultOutputName(std::string_view stem, Artifact artifact);

// A module name as it can stand inside a file name: the name's stem with anything but letters,
// digits, '_', '+' and '-' made '_' ("my kernel.ll" -> "my_kernel"), cut to 100 bytes; "module" when
// nothing is left, and for names of a folder (".", "..", "x/..").
std::string fileStemOf(std::string_view moduleName);

// Where several LTO-IR blobs (separate LTO mode, one per module) go when `path` is asked for:
// the module's stem inserted before the suffix (out.ltoir + helper.ll -> out.helper.ltoir),
// in the folder of `path` and never outside it; a stem already used gets -2, -3, ..., so no two
// modules share a path (in time linear in the number of modules). One name gives `path` itself.
std::vector<std::string> perModulePaths(const std::string& path, const std::vector<std::string>& moduleNames);

}  // namespace nvpg::pipeline
