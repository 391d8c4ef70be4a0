#include "core/support/Base64.h"

#include <array>
#include <cctype>

#include <fmt/format.h>

namespace nvpg::support {

namespace {

constexpr std::string_view kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<signed char, 256> makeDecodeTable() {
    std::array<signed char, 256> t{};
    for (auto& v : t) v = -1;
    for (size_t i = 0; i < kAlphabet.size(); ++i)
        t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<signed char>(i);
    return t;
}
constexpr auto kDecode = makeDecodeTable();

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string describe(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x21 && u < 0x7f) return fmt::format("'{}'", c);
    return fmt::format("byte 0x{:02x}", u);
}

Error bad(std::string message) {
    return makeError(ErrorKind::Input, fmt::format("invalid base64: {}; base64 uses A-Z, a-z, 0-9, '+', '/' and "
                                                   "'=' padding only",
                                                   message));
}

}  // namespace

std::string base64Encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    const auto u = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
    size_t i = 0;
    for (; i + 3 <= bytes.size(); i += 3) {
        const unsigned n = (u(i) << 16) | (u(i + 1) << 8) | u(i + 2);
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += kAlphabet[(n >> 6) & 63];
        out += kAlphabet[n & 63];
    }
    const size_t rest = bytes.size() - i;
    if (rest == 1) {
        const unsigned n = u(i) << 16;
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += "==";
    } else if (rest == 2) {
        const unsigned n = (u(i) << 16) | (u(i + 1) << 8);
        out += kAlphabet[(n >> 18) & 63];
        out += kAlphabet[(n >> 12) & 63];
        out += kAlphabet[(n >> 6) & 63];
        out += '=';
    }
    return out;
}

Result<std::string> base64Decode(std::string_view text) {
    std::string out;
    out.reserve(text.size() / 4 * 3);
    unsigned acc = 0;
    int have = 0;     // sextets in the current quantum
    int padding = 0;  // '=' seen so far; only more '=' or whitespace may follow
    size_t firstPad = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (isSpace(c)) continue;
        if (c == '=') {
            // Padding only completes a quantum that holds 2 or 3 sextets.
            if (padding == 0 && have < 2)
                return bad(fmt::format("'=' at offset {} where a data character was expected", i));
            if (padding == 0) firstPad = i;
            ++padding;
            if (have + padding > 4) return bad(fmt::format("too much '=' padding at offset {}", i));
            continue;
        }
        if (padding > 0)
            return bad(fmt::format("{} at offset {} after the '=' padding that ends the data", describe(c), i));
        const int v = kDecode[static_cast<unsigned char>(c)];
        if (v < 0) return bad(fmt::format("{} at offset {} is not a base64 character", describe(c), i));
        acc = (acc << 6) | static_cast<unsigned>(v);
        if (++have == 4) {
            out += static_cast<char>((acc >> 16) & 0xff);
            out += static_cast<char>((acc >> 8) & 0xff);
            out += static_cast<char>(acc & 0xff);
            acc = 0;
            have = 0;
        }
    }
    if (padding > 0 && have + padding != 4)
        return bad(fmt::format("the padding at offset {} leaves the last group incomplete", firstPad));
    if (have == 1)
        return bad(
            "the data ends with a single character after its last group of 4, so it "
            "was cut short");
    if (padding == 0 && have != 0)
        return bad("the data ends without its '=' padding (the length must be a multiple of 4)");
    if (have == 2) {
        out += static_cast<char>((acc >> 4) & 0xff);
    } else if (have == 3) {
        out += static_cast<char>((acc >> 10) & 0xff);
        out += static_cast<char>((acc >> 2) & 0xff);
    }
    return out;
}

}  // namespace nvpg::support
