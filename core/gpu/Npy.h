#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/gpu/ElemType.h"
#include "core/support/Result.h"

namespace nvpg::gpu {

// A NumPy .npy array (format versions 1.0, 2.0 and 3.0; little-endian or byte-sized types; C
// order), as https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html describes.
struct NpyArray {
    ElemType type = ElemType::F32;
    std::vector<size_t> shape;  // empty for a 0-d array
    std::string data;           // shape's product × element size bytes, C order

    size_t count() const;
};

// The error names the file (`name`) and what is wrong: a big-endian or Fortran-order array, a
// dtype we cannot pass to a kernel (objects, structured types), a truncated file.
support::Result<NpyArray> readNpy(std::string_view bytes, std::string_view name);
// Version 1.0 unless the header needs more room (then 2.0); the header is padded so that the
// data starts on a 64-byte boundary, as NumPy does.
std::string writeNpy(const NpyArray& array);

}  // namespace nvpg::gpu
