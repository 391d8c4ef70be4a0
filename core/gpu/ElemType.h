#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nvpg::gpu {

// The element types of scalars and buffers that `nvpg run` and the Run panel pass to kernels.
enum class ElemType { I8, I16, I32, I64, U8, U16, U32, U64, F16, F32, F64 };

struct ElemInfo {
    ElemType type;
    std::string_view name;      // "f32", as written in a SPEC
    size_t size;                // bytes
    std::string_view npyDescr;  // NumPy's dtype string: "<f4", "|u1"
    bool isFloat;
    bool isSigned;
};

const ElemInfo& elemInfo(ElemType t);
std::optional<ElemType> parseElemType(std::string_view name);          // "f32", "i64", ...
std::optional<ElemType> elemTypeFromNpyDescr(std::string_view descr);  // "<f4", "|i1", "<i8"
// "i8, i16, i32, i64, u8, u16, u32, u64, f16, f32 or f64", for messages.
std::string elemTypeList();
// The element type a typed-pointer IR parameter points to: "float*" -> F32, "i32 addrspace(1)*"
// -> I32 (integers are taken as signed); nothing for i8* (raw bytes), `ptr` or a non-pointer.
std::optional<ElemType> elemTypeOfIrPointer(std::string_view irType);
// Text of one little-endian element for previews: integers exactly, floats with the fewest
// digits that read back as the same value (fmt's shortest round trip; f16 via formatHalf).
std::string formatElement(ElemType t, const void* p);
// The value of one little-endian element as a double (for plots; 64-bit integers round).
double elementAsDouble(ElemType t, const void* p);

// IEEE binary16. C++20 has no half type, so f16 values travel as their bits.
uint16_t halfFromDouble(double v);  // round to nearest even; too large gives infinity
float halfToFloat(uint16_t h);      // exact
// The shortest decimal text that reads back as the same half ("0.1" rather than 0.099975586).
std::string formatHalf(uint16_t h);

}  // namespace nvpg::gpu
