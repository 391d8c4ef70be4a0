#include "core/gpu/ArgSpec.h"

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>

#include <fmt/format.h>

#include "core/gpu/Npy.h"
#include "core/support/Files.h"

namespace nvpg::gpu {

namespace {

using support::ErrorKind;
using support::makeError;

constexpr std::string_view kInitChoices = "use zeros, const:VALUE, iota or random:SEED";
constexpr std::string_view kForms =
    "TYPE:VALUE (e.g. i32:5), ptr:null, buf:TYPE:COUNT:INIT, buf:@FILE.npy or buf:TYPE:@FILE";

support::Error specError(std::string_view spec, std::string_view problem) {
    return makeError(ErrorKind::Usage, fmt::format("SPEC '{}': {}", spec, problem));
}

// A value's problem, before the caller puts the SPEC in front of it.
template <class T>
using Parsed = support::Result<T>;
support::Error problem(std::string text) {
    return makeError(ErrorKind::Usage, std::move(text));
}

uint64_t maskFor(size_t size) {
    return size >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * size)) - 1;
}

void storeLittleEndian(char* p, uint64_t bits, size_t size) {
    for (size_t i = 0; i < size; ++i) p[i] = char((bits >> (8 * i)) & 0xFF);
}

// The range of an integer type, as text for messages: "0 to 255", "-128 to 127".
std::string rangeText(const ElemInfo& info) {
    const unsigned bits = unsigned(8 * info.size);
    if (!info.isSigned) return fmt::format("0 to {}", maskFor(info.size));
    const int64_t lo = bits == 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (bits - 1));
    const int64_t hi = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (bits - 1)) - 1;
    return fmt::format("{} to {}", lo, hi);
}

// Decimal or 0x hex, optionally signed, range-checked as a number (i8:0xFF is out of range
// rather than -1: a SPEC says values, not bit patterns).
Parsed<uint64_t> parseIntegerBits(std::string_view text, const ElemInfo& info) {
    std::string_view t = text;
    bool negative = false;
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
        negative = t[0] == '-';
        t.remove_prefix(1);
    }
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
        base = 16;
        t.remove_prefix(2);
    }
    uint64_t magnitude = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), magnitude, base);
    const bool digitsOnly = !t.empty() && (t[0] != '-' && t[0] != '+');
    if (!digitsOnly || r.ptr != t.data() + t.size() || r.ec == std::errc::invalid_argument)
        return problem(fmt::format("'{}' is not an integer (decimal or 0x hex) for {}", text, info.name));
    const std::string range = rangeText(info);
    if (r.ec == std::errc::result_out_of_range)
        return problem(fmt::format("'{}' is out of range for {} ({})", text, info.name, range));
    const unsigned bits = unsigned(8 * info.size);
    if (!info.isSigned) {
        if (negative && magnitude != 0)
            return problem(fmt::format("'{}' is negative, but {} is unsigned ({})", text, info.name, range));
        if (magnitude > maskFor(info.size))
            return problem(fmt::format("'{}' is out of range for {} ({})", text, info.name, range));
        return magnitude;
    }
    const uint64_t limit = (uint64_t(1) << (bits - 1)) - (negative ? 0 : 1);
    if (magnitude > limit) return problem(fmt::format("'{}' is out of range for {} ({})", text, info.name, range));
    return (negative ? ~magnitude + 1 : magnitude) & maskFor(info.size);
}

// from_chars says "out of range" for both overflow and underflow; underflow should give zero,
// as strtod does, so tell them apart by the decimal exponent of the leading digit.
bool isUnderflow(std::string_view s) {
    size_t i = 0;
    if (i < s.size() && s[i] == '-') ++i;
    long long intDigits = 0, fracZeros = 0;
    bool nonZero = false, inFraction = false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '.') {
            inFraction = true;
            continue;
        }
        if (c < '0' || c > '9') break;
        if (!inFraction) {
            if (nonZero || c != '0') {
                nonZero = true;
                ++intDigits;
            }
        } else if (!nonZero) {
            if (c == '0')
                ++fracZeros;
            else
                nonZero = true;
        }
    }
    long long exp = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool neg = false;
        if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
        for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i)
            if (exp < 1000000000) exp = exp * 10 + (s[i] - '0');
        if (neg) exp = -exp;
    }
    return (intDigits > 0 ? intDigits - 1 : -(fracZeros + 1)) + exp < 0;
}

template <class F>
Parsed<F> parseFloating(std::string_view text, const ElemInfo& info, std::string_view largest) {
    std::string_view t = text;
    // strtod takes a leading '+'; from_chars (used because it ignores the locale) does not.
    if (t.size() > 1 && t[0] == '+' && t[1] != '-' && t[1] != '+') t.remove_prefix(1);
    F value = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), value);
    if (t.empty() || r.ptr != t.data() + t.size() || r.ec == std::errc::invalid_argument)
        return problem(fmt::format("'{}' is not a number for {} (e.g. 1.5, -2, 1e-3, inf, nan)", text, info.name));
    if (r.ec == std::errc::result_out_of_range) {
        if (!isUnderflow(t))
            return problem(fmt::format("'{}' is out of range for {} (largest {})", text, info.name, largest));
        value = t[0] == '-' ? -F(0) : F(0);
    }
    return value;
}

// The element bits of a value as written in a SPEC.
Parsed<uint64_t> parseValueBits(std::string_view text, ElemType type) {
    const auto& info = elemInfo(type);
    if (text.empty()) return problem(fmt::format("missing {} value", info.name));
    switch (type) {
        case ElemType::F32: {
            auto v = parseFloating<float>(text, info, "3.4028235e+38");
            if (!v) return v.error();
            return uint64_t(std::bit_cast<uint32_t>(*v));
        }
        case ElemType::F64: {
            auto v = parseFloating<double>(text, info, "1.7976931348623157e+308");
            if (!v) return v.error();
            return std::bit_cast<uint64_t>(*v);
        }
        case ElemType::F16: {
            // Through double: one more rounding than a direct decimal-to-half conversion, which
            // only matters for inputs with more than 16 significant digits next to a tie.
            auto v = parseFloating<double>(text, info, "65504");
            if (!v) return v.error();
            const uint16_t h = halfFromDouble(*v);
            if (std::isfinite(*v) && (h & 0x7FFF) == 0x7C00)
                return problem(fmt::format("'{}' is out of range for f16 (largest 65504)", text));
            return uint64_t(h);
        }
        default:
            return parseIntegerBits(text, info);
    }
}

// The value of element bits, as a double (exact for every f16/f32/f64 and for integers the
// caller has checked).
double bitsToDouble(ElemType type, uint64_t bits) {
    const auto& info = elemInfo(type);
    switch (type) {
        case ElemType::F16:
            return halfToFloat(uint16_t(bits));
        case ElemType::F32:
            return std::bit_cast<float>(uint32_t(bits));
        case ElemType::F64:
            return std::bit_cast<double>(bits);
        default:
            break;
    }
    if (!info.isSigned) return double(bits);
    const unsigned shift = unsigned(64 - 8 * info.size);
    return double(int64_t(bits << shift) >> shift);  // sign-extend
}

uint64_t doubleToBits(ElemType type, double v) {
    const auto& info = elemInfo(type);
    switch (type) {
        case ElemType::F16:
            return halfFromDouble(v);
        case ElemType::F32:
            return std::bit_cast<uint32_t>(float(v));
        case ElemType::F64:
            return std::bit_cast<uint64_t>(v);
        case ElemType::U64:
            return uint64_t(v);
        default:
            return uint64_t(int64_t(v)) & maskFor(info.size);
    }
}

std::string valueText(ElemType type, uint64_t bits) {
    char bytes[8];
    storeLittleEndian(bytes, bits, elemInfo(type).size);
    return formatElement(type, bytes);
}

// Strict decimal; COUNT has no sign, hex or suffix so that a typo is never a silent size.
Parsed<size_t> parseCount(std::string_view text, const ElemInfo& info) {
    size_t n = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), n, 10);
    const bool digits = !text.empty() && std::isdigit(static_cast<unsigned char>(text[0]));
    if (!digits || r.ptr != text.data() + text.size() || (r.ec == std::errc() && n == 0))
        return problem(fmt::format("count '{}' is not a positive whole number", text));
    if (r.ec == std::errc::result_out_of_range || n > std::numeric_limits<size_t>::max() / info.size)
        return problem(fmt::format("count '{}' is too large", text));
    return n;
}

bool endsWithNpy(std::string_view path) {
    if (path.size() < 4) return false;
    std::string ext(path.substr(path.size() - 4));
    for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".npy";
}

support::Result<ArgSpec> parseBuffer(std::string_view spec, std::string_view rest) {
    ArgSpec arg;
    arg.kind = ArgSpec::Buffer;
    arg.text = std::string(spec);
    if (!rest.empty() && rest[0] == '@') {
        const auto path = rest.substr(1);
        if (path.empty()) return specError(spec, "missing file name after '@'");
        if (!endsWithNpy(path))
            return specError(spec, fmt::format("'{}' is not a .npy file; a raw file needs its element "
                                               "type: buf:TYPE:@FILE",
                                               path));
        arg.init.kind = BufferInit::NpyFile;
        arg.init.file = std::string(path);
        return arg;
    }
    const auto colon = rest.find(':');
    const auto typeText = rest.substr(0, colon);
    const auto type = parseElemType(typeText);
    if (!type) {
        if (typeText.empty())
            return specError(spec, fmt::format("missing element type; use buf:TYPE:COUNT:INIT with TYPE "
                                               "one of {}, or buf:@FILE.npy",
                                               elemTypeList()));
        return specError(spec, fmt::format("unknown element type '{}'; use {}", typeText, elemTypeList()));
    }
    arg.type = *type;
    const auto& info = elemInfo(arg.type);
    if (colon == std::string_view::npos)
        return specError(spec, fmt::format("missing count and initialiser; use buf:{}:COUNT:INIT "
                                           "(INIT: zeros, const:VALUE, iota or random:SEED) or buf:{}:@FILE",
                                           info.name, info.name));
    rest = rest.substr(colon + 1);
    if (!rest.empty() && rest[0] == '@') {
        const auto path = rest.substr(1);
        if (path.empty()) return specError(spec, "missing file name after '@'");
        arg.init.kind = BufferInit::RawFile;
        arg.init.file = std::string(path);
        return arg;
    }
    const auto colon2 = rest.find(':');
    auto count = parseCount(rest.substr(0, colon2), info);
    if (!count) return specError(spec, count.error().message);
    arg.count = *count;
    if (colon2 == std::string_view::npos)
        return specError(spec, fmt::format("missing initialiser after the count; {}", kInitChoices));
    rest = rest.substr(colon2 + 1);
    const auto colon3 = rest.find(':');
    const auto init = rest.substr(0, colon3);
    const auto param = colon3 == std::string_view::npos ? std::string_view() : rest.substr(colon3 + 1);
    const bool hasParam = colon3 != std::string_view::npos;
    if (init == "zeros" || init == "iota") {
        if (hasParam) return specError(spec, fmt::format("'{}' takes no value, but ':{}' follows it", init, param));
        arg.init.kind = init == "zeros" ? BufferInit::Zeros : BufferInit::Iota;
        return arg;
    }
    if (init == "const") {
        if (!hasParam || param.empty()) return specError(spec, "const needs a value: const:VALUE");
        auto bits = parseValueBits(param, arg.type);
        if (!bits) return specError(spec, bits.error().message);
        arg.init.kind = BufferInit::Const;
        arg.init.constant = bitsToDouble(arg.type, *bits);
        // The constant travels as a double; a 64-bit integer it cannot hold exactly would
        // silently become another number.
        const double c = arg.init.constant;
        if (!info.isFloat && ((info.isSigned ? c >= 0x1p63 : c >= 0x1p64) || doubleToBits(arg.type, c) != *bits))
            return specError(spec, fmt::format("const '{}' cannot be held exactly; {} buffer constants "
                                               "are limited to what a double holds (every integer up "
                                               "to 2^53)",
                                               param, info.name));
        return arg;
    }
    if (init == "random") {
        if (!hasParam || param.empty()) return specError(spec, "random needs a seed: random:SEED");
        auto seed = parseIntegerBits(param, elemInfo(ElemType::U64));
        if (!seed) return specError(spec, fmt::format("seed: {}", seed.error().message));
        arg.init.kind = BufferInit::Random;
        arg.init.seed = *seed;
        return arg;
    }
    if (init.empty()) return specError(spec, fmt::format("missing initialiser after the count; {}", kInitChoices));
    return specError(spec, fmt::format("unknown initialiser '{}'; {}", init, kInitChoices));
}

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t randomBits(ElemType type, uint64_t x) {
    switch (type) {
        case ElemType::F16:
            return halfFromDouble(double(x >> 53) * 0x1p-11);
        case ElemType::F32:
            return std::bit_cast<uint32_t>(float(double(x >> 40) * 0x1p-24));
        case ElemType::F64:
            return std::bit_cast<uint64_t>(double(x >> 11) * 0x1p-53);
        default:
            return x % 100;
    }
}

support::Result<std::string> allocate(const ArgSpec& arg, size_t count) {
    const size_t size = elemInfo(arg.type).size;
    if (count > std::numeric_limits<size_t>::max() / size)
        return specError(arg.text, fmt::format("{} elements are too many", count));
    std::string out;
    // A huge COUNT is a plausible typo; it must come back as an error, not an exception.
    try {
        out.resize(count * size);
    } catch (const std::bad_alloc&) {
        return makeError(ErrorKind::Environment,
                         fmt::format("SPEC '{}': cannot allocate {} bytes for the buffer", arg.text, count * size));
    } catch (const std::length_error&) {
        return makeError(ErrorKind::Environment,
                         fmt::format("SPEC '{}': cannot allocate {} bytes for the buffer", arg.text, count * size));
    }
    return out;
}

}  // namespace

support::Result<ArgSpec> parseArgSpec(std::string_view spec) {
    if (spec.substr(0, 4) == "buf:") return parseBuffer(spec, spec.substr(4));
    const auto colon = spec.find(':');
    if (colon == std::string_view::npos) {
        if (spec == "buf") return specError(spec, fmt::format("missing buffer details; use {}", kForms));
        return specError(spec, fmt::format("expected {}", kForms));
    }
    const auto head = spec.substr(0, colon);
    const auto value = spec.substr(colon + 1);
    ArgSpec arg;
    arg.text = std::string(spec);
    if (head == "ptr") {
        if (value != "null")
            return specError(spec, fmt::format("'{}' is not a pointer value; use ptr:null, or a buffer "
                                               "(buf:TYPE:COUNT:INIT) for memory",
                                               value));
        arg.kind = ArgSpec::NullPointer;
        return arg;
    }
    const auto type = parseElemType(head);
    if (!type)
        return specError(spec, fmt::format("unknown type '{}'; use TYPE:VALUE with TYPE one of {}, ptr:null "
                                           "or buf:...",
                                           head, elemTypeList()));
    arg.kind = ArgSpec::Scalar;
    arg.type = *type;
    auto bits = parseValueBits(value, arg.type);
    if (!bits) return specError(spec, bits.error().message);
    arg.bits = *bits;
    return arg;
}

std::string formatArgSpec(const ArgSpec& arg) {
    const auto name = elemInfo(arg.type).name;
    switch (arg.kind) {
        case ArgSpec::NullPointer:
            return "ptr:null";
        case ArgSpec::Scalar:
            return fmt::format("{}:{}", name, valueText(arg.type, arg.bits));
        case ArgSpec::Buffer:
            break;
    }
    switch (arg.init.kind) {
        case BufferInit::Zeros:
            return fmt::format("buf:{}:{}:zeros", name, arg.count);
        case BufferInit::Iota:
            return fmt::format("buf:{}:{}:iota", name, arg.count);
        case BufferInit::Const:
            return fmt::format("buf:{}:{}:const:{}", name, arg.count,
                               valueText(arg.type, doubleToBits(arg.type, arg.init.constant)));
        case BufferInit::Random:
            return fmt::format("buf:{}:{}:random:{}", name, arg.count, arg.init.seed);
        case BufferInit::NpyFile:
            return fmt::format("buf:@{}", arg.init.file.string());
        case BufferInit::RawFile:
            return fmt::format("buf:{}:@{}", name, arg.init.file.string());
    }
    return {};
}

support::Result<std::string> loadBuffer(ArgSpec& arg, const std::filesystem::path& baseDir) {
    if (arg.kind != ArgSpec::Buffer) return specError(arg.text, "is not a buffer, so it has no contents to load");
    const size_t size = elemInfo(arg.type).size;

    if (arg.init.kind == BufferInit::NpyFile || arg.init.kind == BufferInit::RawFile) {
        // operator/ keeps an absolute file as it is.
        const auto path = baseDir / arg.init.file;
        auto bytes = support::readFile(path, support::kBufferFileLimit);
        if (!bytes) return bytes.error();
        if (arg.init.kind == BufferInit::NpyFile) {
            auto npy = readNpy(*bytes, path.string());
            if (!npy) return npy.error();
            // Kernels see memory, not shapes: a 0-d or n-d array goes in flat, in C order.
            if (npy->count() == 0)
                return makeError(
                    ErrorKind::Input,
                    fmt::format("{}: the array is empty; a buffer needs at least one element", path.string()));
            arg.type = npy->type;
            arg.count = npy->count();
            return std::move(npy->data);
        }
        if (bytes->empty())
            return makeError(ErrorKind::Input,
                             fmt::format("{}: the file is empty; a buffer needs at least one element", path.string()));
        if (bytes->size() % size != 0)
            return makeError(ErrorKind::Input,
                             fmt::format("{}: {} bytes is not a whole number of {} elements ({} bytes each)",
                                         path.string(), bytes->size(), elemInfo(arg.type).name, size));
        arg.count = bytes->size() / size;
        return std::move(*bytes);
    }

    auto out = allocate(arg, arg.count);
    if (!out) return out;
    std::string& data = *out;
    switch (arg.init.kind) {
        case BufferInit::Zeros:
            break;  // resize() zero-filled it
        case BufferInit::Const: {
            char elem[8];
            storeLittleEndian(elem, doubleToBits(arg.type, arg.init.constant), size);
            for (size_t i = 0; i < arg.count; ++i) std::memcpy(&data[i * size], elem, size);
            break;
        }
        case BufferInit::Iota:
            for (size_t i = 0; i < arg.count; ++i) {
                // Integers wrap at the type's width, like a C cast.
                const uint64_t bits =
                    elemInfo(arg.type).isFloat ? doubleToBits(arg.type, double(i)) : uint64_t(i) & maskFor(size);
                storeLittleEndian(&data[i * size], bits, size);
            }
            break;
        case BufferInit::Random: {
            uint64_t state = arg.init.seed;
            for (size_t i = 0; i < arg.count; ++i)
                storeLittleEndian(&data[i * size], randomBits(arg.type, splitmix64(state)), size);
            break;
        }
        default:
            break;
    }
    return out;
}

}  // namespace nvpg::gpu
