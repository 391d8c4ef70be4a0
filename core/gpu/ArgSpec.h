#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu/ElemType.h"
#include "core/support/Result.h"

namespace nvpg::gpu {

// How a buffer starts out.
struct BufferInit {
    enum Kind { Zeros, Const, Iota, Random, NpyFile, RawFile };
    Kind kind = Zeros;
    double constant = 0;  // Const: the element's value (i64, u64: only those a double holds)
    // Random: uniform in [0, 1) for floats, [0, 100) for integers. Element i takes the i-th output
    // of splitmix64 seeded with `seed`, x: f64 (x >> 11) * 2^-53, f32 (x >> 40) * 2^-24,
    // f16 (x >> 53) * 2^-11, integers x % 100; the same bytes on every platform.
    uint64_t seed = 0;
    std::filesystem::path file;  // NpyFile, RawFile
    bool operator==(const BufferInit&) const = default;
};

// One kernel argument as a SPEC gives it:
//   i32:5  u64:4096  f32:2.5  f64:1e-3  ptr:null
//   buf:f32:4096:zeros  buf:f32:4096:const:1.5  buf:i32:4096:iota  buf:f64:4096:random:SEED
//   buf:@FILE.npy (type and count from the file)  buf:f32:@FILE.bin (raw; count from its size)
struct ArgSpec {
    enum Kind { Scalar, NullPointer, Buffer };
    Kind kind = Scalar;
    ElemType type = ElemType::I32;  // scalar type, or buffer element type (npy: from the file)
    // Scalar: the value's bytes, little-endian, `elemInfo(type).size` of them.
    uint64_t bits = 0;
    // Buffer: element count (npy and raw: from the file, known after loadBuffer), and contents.
    size_t count = 0;
    BufferInit init;
    std::string text;  // the SPEC as written, for messages
    bool operator==(const ArgSpec&) const = default;
};

// Parses one SPEC. The error quotes it and says what part is wrong and what is allowed.
support::Result<ArgSpec> parseArgSpec(std::string_view spec);
// The SPEC text for an argument (round-trips through parseArgSpec).
std::string formatArgSpec(const ArgSpec& arg);

// The initial bytes of a buffer argument. Files are read relative to `baseDir` (the workspace's
// folder, or the current directory); for .npy and raw files this also sets the argument's type
// (npy) and count. Random contents depend only on the seed, type and count.
support::Result<std::string> loadBuffer(ArgSpec& arg, const std::filesystem::path& baseDir);

}  // namespace nvpg::gpu
