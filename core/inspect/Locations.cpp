#include "core/inspect/Locations.h"

#include <algorithm>
#include <map>

#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

std::string_view withoutBreak(std::string_view line) {
    if (!line.empty() && line.back() == '\n') line.remove_suffix(1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
}

bool isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view afterDirective(std::string_view line, std::string_view directive) {
    line = support::trim(withoutBreak(line));
    return support::trim(line.substr(directive.size()));
}

// The next number of `s` (skipping blanks), moving `s` past it; -1 when there is none.
long long takeNumber(std::string_view& s) {
    size_t i = 0;
    while (i < s.size() && isBlank(s[i])) ++i;
    size_t j = i;
    long long n = 0;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9' && n < (1LL << 40)) n = n * 10 + (s[j++] - '0');
    if (j == i) return -1;
    s.remove_prefix(j);
    return n;
}

// A string as PTX (and LLVM's assembly printer before it) writes one: in quotes, with \" \\ and
// octal or \xNN escapes; a bare word is taken as it is. Moves `s` past it.
std::string takeString(std::string_view& s) {
    size_t i = 0;
    while (i < s.size() && isBlank(s[i])) ++i;
    std::string out;
    if (i >= s.size()) {
        s = {};
        return out;
    }
    if (s[i] != '"') {
        size_t j = i;
        while (j < s.size() && !isBlank(s[j]) && s[j] != ',') ++j;
        out = std::string(s.substr(i, j - i));
        s.remove_prefix(j);
        return out;
    }
    size_t j = i + 1;
    for (; j < s.size() && s[j] != '"'; ++j) {
        if (s[j] != '\\' || j + 1 >= s.size()) {
            out += s[j];
            continue;
        }
        const char e = s[++j];
        if (e >= '0' && e <= '7') {
            int v = 0, k = 0;
            for (; k < 3 && j < s.size() && s[j] >= '0' && s[j] <= '7'; ++k) v = v * 8 + (s[j++] - '0');
            --j;
            out += char(v);
        } else if (e == 'x' && j + 2 < s.size() && isxdigit((unsigned char)s[j + 1]) &&
                   isxdigit((unsigned char)s[j + 2])) {
            out += char(std::stoi(std::string(s.substr(j + 1, 2)), nullptr, 16));
            j += 2;
        } else if (e == 'n') {
            out += '\n';
        } else if (e == 't') {
            out += '\t';
        } else {
            out += e;
        }
    }
    s.remove_prefix(std::min(s.size(), j + 1));
    return out;
}

bool startsDirective(std::string_view line, std::string_view directive) {
    line = support::trim(withoutBreak(line));
    return support::startsWith(line, directive) && line.size() > directive.size() && isBlank(line[directive.size()]);
}

// `.file N "name"` (DWARF 5 style: `.file N "directory" "name"`; a timestamp and size may follow).
void readFile(std::string_view line, std::map<long long, std::string>& files) {
    auto rest = afterDirective(line, ".file");
    const long long n = takeNumber(rest);
    if (n < 0) return;
    std::string name = takeString(rest);
    rest = support::trim(rest);
    if (!rest.empty() && rest[0] == '"') {  // a directory, then the name
        const std::string file = takeString(rest);
        name = name.empty() || (!file.empty() && file[0] == '/') ? file : name + "/" + file;
    }
    files[n] = std::move(name);
}

bool isFunctionEnd(std::string_view line) {
    line = support::trim(withoutBreak(line));
    return line == "}" || support::startsWith(line, "} //") || support::startsWith(line, "}//");
}

// `$L__func_end0:`, which line information adds at the end of each function (for its range).
bool isFunctionEndLabel(std::string_view line) {
    line = support::trim(withoutBreak(line));
    if (!support::startsWith(line, "$L__func_end") || line.size() < 14 || line.back() != ':') return false;
    const auto digits = line.substr(12, line.size() - 13);
    return !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Which lines of `ptx` are line information, not code: the .loc and .file lines, the function-end
// labels, and the `.section .debug_str { ... }` block that names inlined functions for `.loc ...,
// function_name`. With them removed, the PTX of a compile with -generate-line-info is the plain one.
std::vector<bool> lineInfoLines(const std::vector<std::string_view>& lines) {
    std::vector<bool> out(lines.size(), false);
    bool inSection = false;
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto line = support::trim(withoutBreak(lines[i]));
        if (inSection) {
            // A blank line in it is the one the plain PTX ends with, which the section comes before.
            out[i] = !line.empty();
            if (line == "}") inSection = false;
            continue;
        }
        if (startsDirective(lines[i], ".section") && support::startsWith(support::trim(line.substr(8)), ".debug_")) {
            out[i] = inSection = true;
            continue;
        }
        out[i] = isLocationLine(lines[i]) || isFunctionEndLabel(lines[i]);
    }
    return out;
}

}  // namespace

bool isLocationLine(std::string_view line) {
    return startsDirective(line, ".loc") || startsDirective(line, ".file");
}

LocatedPtx readLocations(std::string_view ptx) {
    const auto lines = support::linesWithBreaks(ptx);
    // libNVVM may write the file table after the code that uses it: read it first.
    std::map<long long, std::string> files;
    for (const auto line : lines)
        if (startsDirective(line, ".file")) readFile(line, files);
    LocatedPtx out;
    LocatedLine current;
    int depth = 0;  // braces: a function's body ends where they close
    const auto info = lineInfoLines(lines);
    for (size_t i = 0; i < lines.size(); ++i) {
        const auto line = lines[i];
        if (info[i] && !startsDirective(line, ".loc")) continue;
        if (startsDirective(line, ".loc")) {
            // `.loc F L C[, function_name ..., inlined_at F L C]`: the location is the .loc's own.
            auto rest = afterDirective(line, ".loc");
            const long long file = takeNumber(rest), at = takeNumber(rest);
            const auto known = files.find(file);
            if (file < 0 || at <= 0 || known == files.end())
                current = {};
            else
                current = {known->second, int(std::min<long long>(at, 1 << 30))};
            continue;
        }
        out.text += line;
        out.lines.push_back(current);
        for (char c : withoutBreak(line)) {
            if (c == '/') break;  // a comment (no brace in PTX code is after one)
            if (c == '{')
                ++depth;
            else if (c == '}')
                --depth;
        }
        if (isFunctionEnd(line) && depth <= 0) {
            current = {};
            depth = 0;
        }
    }
    return out;
}

StrippedPtx stripLocations(std::string_view ptx) {
    StrippedPtx out;
    const auto lines = support::linesWithBreaks(ptx);
    const auto info = lineInfoLines(lines);
    for (size_t i = 0; i < lines.size(); ++i) {
        if (info[i]) continue;
        out.text += lines[i];
        out.plainLine.push_back(int(i) + 1);
    }
    return out;
}

bool isMappablePtxLine(std::string_view line) {
    line = support::trim(withoutBreak(line));
    if (line.empty()) return false;
    // Directives (.reg, .local, .shared, .pragma, .loc, and the .entry/.func headers with their
    // .param lists, all of which start with a dot), comments, braces and the parentheses of a
    // parameter list or of a call split over lines.
    if (line[0] == '.' || support::startsWith(line, "//") || support::startsWith(line, "/*")) return false;
    bool code = false;
    for (char c : line) {
        if (c == '/') break;
        if (!(c == '{' || c == '}' || c == '(' || c == ')' || c == ';' || c == ',' || isBlank(c))) {
            code = true;
            break;
        }
    }
    return code;
}

}  // namespace nvpg::inspect
