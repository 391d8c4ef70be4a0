#include "core/gpu/Npy.h"

#include <cstdint>
#include <optional>

#include <fmt/format.h>

namespace nvpg::gpu {

namespace {

using support::ErrorKind;
using support::makeError;

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr size_t kAlign = 64;  // NumPy's ARRAY_ALIGN
// NumPy leaves room after the dict for the first axis to grow to this many digits, so that a
// writer appending rows can rewrite the header in place (GROWTH_AXIS_MAX_DIGITS).
constexpr size_t kGrowthAxisMaxDigits = 21;

std::string shapeText(const std::vector<size_t>& shape) {
    if (shape.size() == 1) return fmt::format("({},)", shape[0]);
    return fmt::format("({})", fmt::join(shape, ", "));
}

// The header is a Python dict literal as repr() writes it, but files from other writers vary in
// spacing, key order, quotes and trailing commas, so this reads the literal rather than matching
// NumPy's text.
class HeaderParser {
public:
    explicit HeaderParser(std::string_view text) : s_(text) {}

    struct Value {
        enum Kind { String, Bool, Tuple, Other } kind = Other;
        std::string str;
        bool flag = false;
        std::vector<size_t> ints;
        std::string_view raw;
    };

    // Fills `entries`; on failure returns what is wrong.
    std::optional<std::string> parse(std::vector<std::pair<std::string, Value>>& entries) {
        skipSpace();
        if (!eat('{')) return "the header is not a dict";
        while (true) {
            skipSpace();
            if (eat('}')) break;
            std::string key;
            if (!parseString(key)) return fmt::format("expected a quoted key at offset {}", pos_);
            skipSpace();
            if (!eat(':')) return fmt::format("expected ':' after '{}'", key);
            skipSpace();
            Value v;
            if (auto err = parseValue(v)) return fmt::format("value of '{}': {}", key, *err);
            entries.emplace_back(std::move(key), std::move(v));
            skipSpace();
            if (eat(',')) continue;
            if (eat('}')) break;
            return fmt::format("expected ',' or '}}' at offset {}", pos_);
        }
        skipSpace();
        if (pos_ != s_.size()) return "unexpected text after the header dict";
        return std::nullopt;
    }

private:
    void skipSpace() {
        while (pos_ < s_.size() &&
               (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\0'))
            ++pos_;
    }
    bool eat(char c) {
        if (pos_ < s_.size() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    bool eatWord(std::string_view w) {
        if (s_.substr(pos_, w.size()) != w) return false;
        pos_ += w.size();
        return true;
    }
    bool parseString(std::string& out) {
        if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return false;
        const char q = s_[pos_++];
        while (pos_ < s_.size() && s_[pos_] != q) {
            if (s_[pos_] == '\\' && pos_ + 1 < s_.size()) ++pos_;
            out += s_[pos_++];
        }
        return eat(q);
    }
    std::optional<std::string> parseValue(Value& v) {
        const size_t start = pos_;
        if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"')) {
            v.kind = Value::String;
            if (!parseString(v.str)) return "unterminated string";
        } else if (eatWord("True")) {
            v.kind = Value::Bool;
            v.flag = true;
        } else if (eatWord("False")) {
            v.kind = Value::Bool;
        } else if (eat('(')) {
            v.kind = Value::Tuple;
            while (true) {
                skipSpace();
                if (eat(')')) break;
                uint64_t n = 0;
                size_t digits = 0;
                while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
                    const uint64_t d = uint64_t(s_[pos_++] - '0');
                    if (n > (UINT64_MAX - d) / 10) return "a dimension is too large";
                    n = n * 10 + d;
                    ++digits;
                }
                if (!digits) return "expected a whole number in the tuple";
                eat('L');  // Python 2 long literals, in files written by old NumPy
                v.ints.push_back(size_t(n));
                skipSpace();
                if (eat(',')) continue;
                if (eat(')')) break;
                return "expected ',' or ')' in the tuple";
            }
        } else if (pos_ < s_.size() && (s_[pos_] == '[' || s_[pos_] == '{')) {
            // A structured dtype's field list: kept only to say that it cannot be passed.
            int depth = 0;
            char quote = 0;
            for (; pos_ < s_.size(); ++pos_) {
                const char c = s_[pos_];
                if (quote) {
                    if (c == quote) quote = 0;
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '[' || c == '{' || c == '(') {
                    ++depth;
                } else if (c == ']' || c == '}' || c == ')') {
                    if (--depth == 0) {
                        ++pos_;
                        break;
                    }
                }
            }
            if (depth != 0) return "unbalanced brackets";
        } else {
            return fmt::format("unexpected text at offset {}", pos_);
        }
        v.raw = s_.substr(start, pos_ - start);
        return std::nullopt;
    }

    std::string_view s_;
    size_t pos_ = 0;
};

uint32_t readLittleEndian(std::string_view bytes, size_t at, size_t n) {
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint32_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

}  // namespace

size_t NpyArray::count() const {
    size_t n = 1;
    for (size_t d : shape) n *= d;
    return n;
}

support::Result<NpyArray> readNpy(std::string_view bytes, std::string_view name) {
    auto fail = [&](std::string what) { return makeError(ErrorKind::Input, fmt::format("{}: {}", name, what)); };
    if (bytes.size() < 8 || bytes.substr(0, kMagic.size()) != kMagic)
        return fail("not a .npy file (it does not start with \\x93NUMPY)");
    const int major = static_cast<unsigned char>(bytes[6]);
    const int minor = static_cast<unsigned char>(bytes[7]);
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
        return fail(fmt::format(".npy format version {}.{} is not supported (1.0, 2.0 or 3.0)", major, minor));
    // 2.0 widened the header length for huge structured dtypes; 3.0 only made the header UTF-8,
    // which changes nothing for the ASCII keys and dtypes we accept.
    const size_t lenBytes = major == 1 ? 2 : 4;
    if (bytes.size() < 8 + lenBytes) return fail("truncated in the header");
    const size_t headerLen = readLittleEndian(bytes, 8, lenBytes);
    const size_t dataStart = 8 + lenBytes + headerLen;
    if (bytes.size() < dataStart)
        return fail(fmt::format("truncated in the header ({} header bytes announced, {} present)", headerLen,
                                bytes.size() - 8 - lenBytes));

    std::vector<std::pair<std::string, HeaderParser::Value>> entries;
    if (auto err = HeaderParser(bytes.substr(8 + lenBytes, headerLen)).parse(entries))
        return fail(fmt::format("malformed header: {}", *err));
    const HeaderParser::Value* descr = nullptr;
    const HeaderParser::Value* fortran = nullptr;
    const HeaderParser::Value* shapeV = nullptr;
    for (const auto& [key, v] : entries) {
        if (key == "descr") descr = &v;
        if (key == "fortran_order") fortran = &v;
        if (key == "shape") shapeV = &v;
    }
    if (!descr || !fortran || !shapeV) return fail("malformed header: it needs 'descr', 'fortran_order' and 'shape'");
    if (fortran->kind != HeaderParser::Value::Bool)
        return fail(fmt::format("malformed header: 'fortran_order' is {}, not True or False", fortran->raw));
    if (shapeV->kind != HeaderParser::Value::Tuple)
        return fail(fmt::format("malformed header: 'shape' is {}, not a tuple", shapeV->raw));
    if (descr->kind != HeaderParser::Value::String)
        return fail(fmt::format("dtype {} is a structured type; only plain {} arrays can be passed", descr->raw,
                                elemTypeList()));

    NpyArray out;
    const auto type = elemTypeFromNpyDescr(descr->str);
    if (!type) {
        const std::string& d = descr->str;
        if (!d.empty() && d[0] == '>' && elemTypeFromNpyDescr("<" + d.substr(1)))
            return fail(
                fmt::format("big-endian arrays ('{}') are not supported; save it little-endian, "
                            "e.g. np.save(f, a.astype('<{}'))",
                            d, d.substr(1)));
        return fail(
            fmt::format("dtype '{}' cannot be passed to a kernel; use one of {} "
                        "(NumPy int8 ... float64)",
                        d, elemTypeList()));
    }
    out.type = *type;
    out.shape = shapeV->ints;

    if (fortran->flag) {
        size_t nonUnit = 0;
        for (size_t dim : out.shape) nonUnit += dim != 1;
        // With at most one axis longer than 1, Fortran and C order are the same bytes.
        if (nonUnit > 1)
            return fail(
                fmt::format("the array (shape {}) is in Fortran order; kernels get C order, "
                            "so save np.ascontiguousarray(a)",
                            shapeText(out.shape)));
    }

    const size_t elemSize = elemInfo(out.type).size;
    size_t expected = elemSize;
    for (size_t dim : out.shape) {
        if (dim != 0 && expected > SIZE_MAX / dim)
            return fail(fmt::format("shape {} is too large", shapeText(out.shape)));
        expected *= dim;
    }
    const size_t actual = bytes.size() - dataStart;
    if (actual != expected)
        return fail(fmt::format("{}: shape {} of '{}' needs {} data bytes, the file has {}",
                                actual < expected ? "truncated" : "unexpected bytes after the data",
                                shapeText(out.shape), descr->str, expected, actual));
    out.data.assign(bytes.substr(dataStart));
    return out;
}

std::string writeNpy(const NpyArray& array) {
    // The same text NumPy's repr() of the sorted dict gives, so files compare byte for byte.
    std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                                     elemInfo(array.type).npyDescr, shapeText(array.shape));
    if (!array.shape.empty()) {
        const size_t digits = fmt::formatted_size("{}", array.shape[0]);
        if (digits < kGrowthAxisMaxDigits) header.append(kGrowthAxisMaxDigits - digits, ' ');
    }
    auto wrap = [&](int major, size_t lenBytes) {
        const size_t hlen = header.size() + 1;  // + '\n'
        // Like NumPy: always at least one space, and a whole 64 when already aligned.
        const size_t pad = kAlign - (kMagic.size() + 2 + lenBytes + hlen) % kAlign;
        const size_t total = hlen + pad;
        std::string out(kMagic);
        out += char(major);
        out += char(0);
        for (size_t i = 0; i < lenBytes; ++i) out += char((total >> (8 * i)) & 0xFF);
        out += header;
        out.append(pad, ' ');
        out += '\n';
        return std::make_pair(out, total);
    };
    auto [out, total] = wrap(1, 2);
    if (total > 0xFFFF) out = wrap(2, 4).first;
    out += array.data;
    return out;
}

}  // namespace nvpg::gpu
