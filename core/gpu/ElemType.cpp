#include "core/gpu/ElemType.h"

#include <array>
#include <bit>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::gpu {

namespace {

// NumPy writes "|" for one-byte types (no byte order); the order here is the enum's.
constexpr std::array<ElemInfo, 11> kInfos{{
    {ElemType::I8, "i8", 1, "|i1", false, true},
    {ElemType::I16, "i16", 2, "<i2", false, true},
    {ElemType::I32, "i32", 4, "<i4", false, true},
    {ElemType::I64, "i64", 8, "<i8", false, true},
    {ElemType::U8, "u8", 1, "|u1", false, false},
    {ElemType::U16, "u16", 2, "<u2", false, false},
    {ElemType::U32, "u32", 4, "<u4", false, false},
    {ElemType::U64, "u64", 8, "<u8", false, false},
    {ElemType::F16, "f16", 2, "<f2", true, true},
    {ElemType::F32, "f32", 4, "<f4", true, true},
    {ElemType::F64, "f64", 8, "<f8", true, true},
}};

uint64_t loadLittleEndian(const void* p, size_t size) {
    const auto* b = static_cast<const unsigned char*>(p);
    uint64_t v = 0;
    for (size_t i = 0; i < size; ++i) v |= uint64_t(b[i]) << (8 * i);
    return v;
}

}  // namespace

const ElemInfo& elemInfo(ElemType t) {
    return kInfos[static_cast<size_t>(t)];
}

std::optional<ElemType> parseElemType(std::string_view name) {
    for (const auto& info : kInfos)
        if (info.name == name) return info.type;
    return std::nullopt;
}

std::optional<ElemType> elemTypeFromNpyDescr(std::string_view descr) {
    if (descr.empty()) return std::nullopt;
    char order = 0;
    if (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=') {
        order = descr[0];
        descr.remove_prefix(1);
    }
    for (const auto& info : kInfos) {
        if (info.npyDescr.substr(1) != descr) continue;
        // Byte order only matters for multi-byte types; '>' there is big-endian, which we do not
        // convert, and a missing or '|' order would be malformed.
        if (info.size == 1 || order == '<') return info.type;
        return std::nullopt;
    }
    return std::nullopt;
}

std::string elemTypeList() {
    std::vector<std::string> names;
    for (const auto& info : kInfos) names.emplace_back(info.name);
    return support::joinOr(names);
}

std::optional<ElemType> elemTypeOfIrPointer(std::string_view irType) {
    irType = support::trim(irType);
    if (irType.empty() || irType.back() != '*') return std::nullopt;
    irType.remove_suffix(1);
    irType = support::trim(irType);
    if (const auto as = irType.rfind("addrspace("); as != std::string_view::npos) {
        if (irType.back() != ')') return std::nullopt;
        irType = support::trim(irType.substr(0, as));
    }
    // "float" and not "float*" (a pointer to pointers) or a struct, vector or array type.
    if (irType == "float") return ElemType::F32;
    if (irType == "double") return ElemType::F64;
    if (irType == "half") return ElemType::F16;
    if (irType == "i1") return ElemType::U8;  // LLVM stores an i1 in a byte
    if (irType == "i16") return ElemType::I16;
    if (irType == "i32") return ElemType::I32;
    if (irType == "i64") return ElemType::I64;
    return std::nullopt;  // i8* usually means untyped bytes
}

uint16_t halfFromDouble(double v) {
    const uint64_t d = std::bit_cast<uint64_t>(v);
    const uint16_t sign = uint16_t((d >> 48) & 0x8000);
    const int exp = int((d >> 52) & 0x7FF);
    const uint64_t frac = d & ((uint64_t(1) << 52) - 1);
    if (exp == 0x7FF) return frac ? uint16_t(sign | 0x7E00) : uint16_t(sign | 0x7C00);
    if (exp == 0) return sign;  // double subnormals are far below half's smallest subnormal
    const int e = exp - 1023;
    const uint64_t m = frac | (uint64_t(1) << 52);
    if (e > 15) return uint16_t(sign | 0x7C00);
    if (e < -25) return sign;  // below half the smallest subnormal (2^-24): rounds to zero
    // Keep 11 significant bits for normals (10 stored + implicit), fewer for subnormals.
    const int shift = e < -14 ? 42 + (-14 - e) : 42;
    uint64_t q = m >> shift;
    const uint64_t rem = m & ((uint64_t(1) << shift) - 1);
    const uint64_t halfway = uint64_t(1) << (shift - 1);
    if (rem > halfway || (rem == halfway && (q & 1))) ++q;
    uint32_t bits;
    if (e < -14)
        bits = uint32_t(q);  // q == 1024 after rounding is the smallest normal, as wanted
    else
        bits = (uint32_t(e + 15) << 10) + uint32_t(q) - 1024;  // a carry bumps the exponent
    if (bits >= 0x7C00) bits = 0x7C00;
    return uint16_t(sign | bits);
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000) << 16;
    const uint32_t exp = (h >> 10) & 0x1F;
    uint32_t frac = h & 0x3FF;
    uint32_t bits;
    if (exp == 0x1F) {
        bits = sign | 0x7F800000 | (frac << 13);
    } else if (exp != 0) {
        bits = sign | ((exp + 127 - 15) << 23) | (frac << 13);
    } else if (frac == 0) {
        bits = sign;
    } else {
        // A subnormal half is a normal float: shift the leading 1 into the implicit position.
        int e = -14;
        while (!(frac & 0x400)) {
            frac <<= 1;
            --e;
        }
        bits = sign | (uint32_t(e + 127) << 23) | ((frac & 0x3FF) << 13);
    }
    return std::bit_cast<float>(bits);
}

std::string formatHalf(uint16_t h) {
    const double v = halfToFloat(h);
    // inf and nan; and whole numbers (every half from 1024 up) exactly, as "65504" not "6.55e+04".
    if ((h & 0x7C00) == 0x7C00 || v == std::trunc(v)) return fmt::format("{}", v);
    // Five significant digits always suffice for a half; fewer usually do.
    for (int digits = 1; digits < 5; ++digits) {
        const std::string s = fmt::format("{:.{}e}", v, digits - 1);
        double back = 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), back);
        // Re-rendered by "{}" so that the notation matches f32 and f64 ("0.1", "6e-08").
        if (r.ec == std::errc() && halfFromDouble(back) == h) return fmt::format("{}", back);
    }
    return fmt::format("{}", v);
}

std::string formatElement(ElemType t, const void* p) {
    const auto& info = elemInfo(t);
    const uint64_t bits = loadLittleEndian(p, info.size);
    switch (t) {
        case ElemType::I8:
            return fmt::format("{}", int8_t(bits));
        case ElemType::I16:
            return fmt::format("{}", int16_t(bits));
        case ElemType::I32:
            return fmt::format("{}", int32_t(bits));
        case ElemType::I64:
            return fmt::format("{}", int64_t(bits));
        case ElemType::U8:
        case ElemType::U16:
        case ElemType::U32:
        case ElemType::U64:
            return fmt::format("{}", bits);
        case ElemType::F16:
            return formatHalf(uint16_t(bits));
        case ElemType::F32:
            return fmt::format("{}", std::bit_cast<float>(uint32_t(bits)));
        case ElemType::F64:
            return fmt::format("{}", std::bit_cast<double>(bits));
    }
    return {};
}

double elementAsDouble(ElemType t, const void* p) {
    const uint64_t bits = loadLittleEndian(p, elemInfo(t).size);
    switch (t) {
        case ElemType::I8:
            return int8_t(bits);
        case ElemType::I16:
            return int16_t(bits);
        case ElemType::I32:
            return int32_t(bits);
        case ElemType::I64:
            return double(int64_t(bits));
        case ElemType::U8:
        case ElemType::U16:
        case ElemType::U32:
        case ElemType::U64:
            return double(bits);
        case ElemType::F16:
            return halfToFloat(uint16_t(bits));
        case ElemType::F32:
            return std::bit_cast<float>(uint32_t(bits));
        case ElemType::F64:
            return std::bit_cast<double>(bits);
    }
    return 0;
}

}  // namespace nvpg::gpu
