#include "core/inspect/Twin.h"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kNoBitcodeTools =
    "bitcode modules are mapped through their llvm-dis-14 disassembly: install llvm-14 (llvm-dis-14)";

// LLVM's strings have no escaped quote (a quote is \22), so a '"' always opens or closes one.
// The offset of the line's comment (';' outside strings), or npos.
size_t commentStart(std::string_view s) {
    bool quoted = false;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '"')
            quoted = !quoted;
        else if (s[i] == ';' && !quoted)
            return i;
    }
    return std::string_view::npos;
}

std::string_view codeOf(std::string_view line) {
    return line.substr(0, std::min(line.size(), commentStart(line)));
}

// How much a line of code opens ( [ { more than it closes, outside strings: an instruction
// whose brackets stay open (a switch table, a call split over lines) goes on to the next line.
int depthChange(std::string_view code) {
    int depth = 0;
    bool quoted = false;
    for (char c : code) {
        if (c == '"') quoted = !quoted;
        if (quoted) continue;
        if (c == '(' || c == '[' || c == '{')
            ++depth;
        else if (c == ')' || c == ']' || c == '}')
            --depth;
    }
    return depth;
}

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '$' ||
           c == '.' || c == '_';
}

bool startsWithWord(std::string_view s, std::string_view word) {
    return support::startsWith(s, word) && (s.size() == word.size() || !isNameChar(s[word.size()]));
}

// The global name at `s[at]` == '@' (bare, or quoted as LLVM writes names with odd characters),
// as written between the quotes; `end` gets the offset after it.
std::string globalNameAt(std::string_view s, size_t at, size_t& end) {
    size_t i = at + 1;
    if (i < s.size() && s[i] == '"') {
        const size_t close = s.find('"', i + 1);
        end = close == std::string_view::npos ? s.size() : close + 1;
        return std::string(s.substr(i + 1, (close == std::string_view::npos ? s.size() : close) - i - 1));
    }
    while (i < s.size() && isNameChar(s[i])) ++i;
    end = i;
    return std::string(s.substr(at + 1, i - at - 1));
}

// A name as LLVM's quoted names and metadata strings write it: \XX for what is not printable
// ASCII, and for the quote and the backslash.
std::string escapeLlvmString(std::string_view s) {
    std::string out;
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            out += char(c);
        else
            out += fmt::format("\\{:02X}", c);
    }
    return out;
}

// `code` without its `!dbg` attachments (`, !dbg !12` on an instruction or a global, ` !dbg !7`
// on a function), outside strings. An inline `!dbg !DILocation(...)` goes too.
std::string stripDbg(std::string_view code) {
    std::string out;
    bool quoted = false;
    for (size_t i = 0; i < code.size();) {
        const char c = code[i];
        if (c == '"') quoted = !quoted;
        if (!quoted && c == '!' && code.substr(i, 4) == "!dbg" && i + 4 < code.size() &&
            (code[i + 4] == ' ' || code[i + 4] == '\t')) {
            size_t j = i + 4;
            while (j < code.size() && (code[j] == ' ' || code[j] == '\t')) ++j;
            if (j < code.size() && code[j] == '!') {
                ++j;
                while (j < code.size() && isNameChar(code[j])) ++j;
                if (j < code.size() && code[j] == '(') {  // an inline node: up to its closing parenthesis
                    int depth = 0;
                    bool q = false;
                    for (; j < code.size(); ++j) {
                        if (code[j] == '"') q = !q;
                        if (q) continue;
                        if (code[j] == '(')
                            ++depth;
                        else if (code[j] == ')' && --depth == 0) {
                            ++j;
                            break;
                        }
                    }
                }
                // The separator before it: a comma for instructions and globals, blanks for functions.
                while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
                if (!out.empty() && out.back() == ',') out.pop_back();
                i = j;
                continue;
            }
        }
        out += c;
        ++i;
    }
    return out;
}

std::string_view rtrim(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// `%x = `, then `tail `/`musttail `/`notail `: what is left starts with the opcode.
std::string_view opcodePart(std::string_view code) {
    code = support::trim(code);
    if (!code.empty() && code[0] == '%') {
        bool quoted = false;
        for (size_t i = 0; i < code.size(); ++i) {
            if (code[i] == '"')
                quoted = !quoted;
            else if (code[i] == '=' && !quoted) {
                code = support::trim(code.substr(i + 1));
                break;
            }
        }
    }
    for (std::string_view marker : {"tail", "musttail", "notail"})
        if (startsWithWord(code, marker)) code = support::trim(code.substr(marker.size()));
    return code;
}

}  // namespace

std::optional<std::string> calleeOf(std::string_view code) {
    const auto op = opcodePart(code);
    if (!startsWithWord(op, "call")) return std::nullopt;
    int depth = 0;
    bool quoted = false;
    for (size_t i = 4; i < op.size(); ++i) {
        const char c = op[i];
        if (c == '"') quoted = !quoted;
        if (quoted) continue;
        if (c == '(' || c == '[' || c == '{' || c == '<')
            ++depth;
        else if (c == ')' || c == ']' || c == '}' || c == '>')
            --depth;
        else if (c == '%' && depth == 0)
            return std::nullopt;  // through a pointer
        else if (c == '@' && depth == 0) {
            size_t end = 0;
            return globalNameAt(op, i, end);
        }
    }
    return std::nullopt;
}

namespace {

// The header of a `define`, read across its lines up to the `{` that opens the body: the
// function's name is the first global name, the parameters the next parenthesis at depth 0, and
// the body's brace the first `{` at depth 0 after them (a `{` before them is a struct type).
struct HeaderScan {
    std::string name;
    bool named = false, paramsOpen = false, paramsDone = false;
    int depth = 0;
    bool quoted = false;

    // The offset of the body's `{` in `code`, or npos when the header goes on.
    size_t feed(std::string_view code) {
        for (size_t i = 0; i < code.size(); ++i) {
            const char c = code[i];
            if (c == '"') quoted = !quoted;
            if (quoted) continue;
            if (!named && c == '@' && depth == 0) {
                size_t end = 0;
                name = globalNameAt(code, i, end);
                named = true;
                i = end - 1;
                quoted = false;
                continue;
            }
            if (c == '(' || c == '[' || c == '{' || c == '<') {
                if (c == '{' && depth == 0 && paramsDone) return i;
                if (c == '(' && depth == 0 && named && !paramsOpen) paramsOpen = true;
                ++depth;
            } else if (c == ')' || c == ']' || c == '}' || c == '>') {
                --depth;
                if (c == ')' && depth == 0 && paramsOpen) paramsDone = true;
            }
        }
        return std::string_view::npos;
    }
};

struct SourceLine {
    std::string text;  // without the line break
    std::string_view ending;
};

std::vector<SourceLine> splitKeepingEndings(std::string_view text) {
    std::vector<SourceLine> lines;
    size_t start = 0;
    while (start < text.size()) {
        const size_t nl = text.find('\n', start);
        const size_t end = nl == std::string_view::npos ? text.size() : nl;
        std::string_view body = text.substr(start, end - start);
        std::string_view ending = nl == std::string_view::npos ? "" : "\n";
        if (!body.empty() && body.back() == '\r') {
            body.remove_suffix(1);
            ending = nl == std::string_view::npos ? "\r" : "\r\n";
        }
        lines.push_back({std::string(body), ending});
        start = end + 1;
    }
    return lines;
}

// The highest !N the text uses: the twin's nodes are numbered above it.
long long highestMetadataNumber(std::string_view text) {
    long long highest = -1;
    for (size_t i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != '!' || text[i + 1] < '0' || text[i + 1] > '9') continue;
        size_t j = i + 1;
        long long n = 0;
        while (j < text.size() && text[j] >= '0' && text[j] <= '9' && n < (1LL << 40)) n = n * 10 + (text[j++] - '0');
        highest = std::max(highest, n);
        i = j - 1;
    }
    return highest;
}

// `!name = ...`: the named metadata's name, or empty.
std::string_view namedMetadata(std::string_view code) {
    code = support::trim(code);
    if (code.size() < 2 || code[0] != '!' || !(isNameChar(code[1]) && !(code[1] >= '0' && code[1] <= '9'))) return {};
    size_t i = 1;
    while (i < code.size() && isNameChar(code[i])) ++i;
    const auto rest = support::trim(code.substr(i));
    return support::startsWith(rest, "=") ? code.substr(1, i - 1) : std::string_view{};
}

// `!12 = ...`: 12, or -1.
long long numberedMetadata(std::string_view code) {
    code = support::trim(code);
    if (code.size() < 2 || code[0] != '!' || code[1] < '0' || code[1] > '9') return -1;
    size_t i = 1;
    long long n = 0;
    while (i < code.size() && code[i] >= '0' && code[i] <= '9' && n < (1LL << 40)) n = n * 10 + (code[i++] - '0');
    return support::startsWith(support::trim(code.substr(i)), "=") ? n : -1;
}

// The !N listed in a named metadata's `!{!0, !1}`.
std::vector<long long> listedNodes(std::string_view code) {
    std::vector<long long> nodes;
    const size_t open = code.find('{');
    if (open == std::string_view::npos) return nodes;
    for (size_t i = open; i + 1 < code.size(); ++i) {
        if (code[i] != '!' || code[i + 1] < '0' || code[i + 1] > '9') continue;
        long long n = 0;
        size_t j = i + 1;
        while (j < code.size() && code[j] >= '0' && code[j] <= '9' && n < (1LL << 40)) n = n * 10 + (code[j++] - '0');
        nodes.push_back(n);
        i = j - 1;
    }
    return nodes;
}

bool isLabel(std::string_view code) {
    code = support::trim(code);
    if (code.size() < 2 || code.back() != ':') return false;
    const auto name = code.substr(0, code.size() - 1);
    if (name.size() >= 2 && name.front() == '"' && name.back() == '"') return true;
    return std::all_of(name.begin(), name.end(), isNameChar);
}

bool isDebugIntrinsicCall(std::string_view code) {
    const auto callee = calleeOf(code);
    return callee && support::startsWith(*callee, "llvm.dbg.");
}

support::Error unreadable(const nvvm::Module& module, int line, std::string_view why) {
    return support::makeError(support::ErrorKind::Input, fmt::format("{} (line {}): {}; its lines are not mapped",
                                                                     support::printable(module.name), line, why));
}

struct Annotated {
    std::string text;
    std::vector<int> instructionLines;
    std::vector<std::pair<int, std::string>> calls;
};

support::Result<Annotated> annotate(const nvvm::Module& module, std::string_view text, const nvvm::IrVersion& version) {
    auto lines = splitKeepingEndings(text);
    long long next = highestMetadataNumber(text) + 1;
    const long long cu = next++, file = next++, noTypes = next++, subroutine = next++, irVersion = next++;
    std::string nodes;  // the twin's metadata, appended at the end of the text
    Annotated out;

    long long moduleFlagsLine = -1;  // index into `lines`
    std::vector<long long> flagNodes;
    std::vector<std::pair<long long, size_t>> debugVersionNodes;  // !N holding "Debug Info Version", its line

    enum class State { TopLevel, Header, Body } state = State::TopLevel;
    HeaderScan header;
    int defineLine = 0;
    long long subprogram = -1;
    int openDepth = 0;      // of the instruction that goes on over the next lines
    int pendingLine = 0;    // the line it started on; 0: none
    bool dropping = false;  // that instruction is a call to @llvm.dbg.*, whose lines go

    const auto location = [&](int line) {
        const long long id = next++;
        nodes += fmt::format("!{} = !DILocation(line: {}, column: 1, scope: !{})\n", id, line, subprogram);
        return id;
    };
    // The line with the instruction's location after its code, before its comment.
    const auto attach = [&](SourceLine& l, int line) {
        const auto cut = commentStart(l.text);
        const std::string code = stripDbg(l.text.substr(0, std::min(l.text.size(), cut)));
        std::string comment = cut == std::string::npos ? std::string() : l.text.substr(cut);
        l.text = fmt::format("{}, !dbg !{}{}{}", rtrim(code), location(line), comment.empty() ? "" : " ", comment);
    };

    for (size_t i = 0; i < lines.size(); ++i) {
        auto& l = lines[i];
        const int lineNo = int(i) + 1;
        const std::string_view code = codeOf(l.text);
        switch (state) {
            case State::TopLevel: {
                const auto trimmed = support::trim(code);
                if (startsWithWord(trimmed, "define")) {
                    header = HeaderScan{};
                    defineLine = lineNo;
                    state = State::Header;
                    --i;  // the same line again, as the header's first
                    continue;
                }
                if (trimmed.empty()) continue;
                if (trimmed[0] == '!') {
                    const auto named = namedMetadata(trimmed);
                    if (named == "llvm.dbg.cu" || named == "nvvmir.version") {
                        l.text.clear();  // replaced by the twin's own
                    } else if (named == "llvm.module.flags") {
                        moduleFlagsLine = (long long)i;
                        flagNodes = listedNodes(trimmed);
                    } else if (const auto n = numberedMetadata(trimmed);
                               n >= 0 && trimmed.find("!\"Debug Info Version\"") != std::string_view::npos) {
                        debugVersionNodes.emplace_back(n, i);
                    }
                    continue;
                }
                // A global or a declaration: its debug attachment would name the old compile unit.
                if (trimmed.find("!dbg") != std::string_view::npos) {
                    const auto cut = commentStart(l.text);
                    l.text = stripDbg(l.text.substr(0, std::min(l.text.size(), cut))) +
                             (cut == std::string::npos ? std::string() : " " + l.text.substr(cut));
                }
                continue;
            }
            case State::Header: {
                const std::string stripped = stripDbg(code);
                const size_t brace = header.feed(stripped);
                const auto cut = commentStart(l.text);
                const std::string comment = cut == std::string::npos ? std::string() : l.text.substr(cut);
                if (brace == std::string::npos) {
                    if (stripped != code) l.text = stripped + (comment.empty() ? "" : " " + comment);
                    continue;
                }
                if (!header.named) return unreadable(module, defineLine, "a define without a function name");
                subprogram = next++;
                nodes += fmt::format(
                    "!{} = distinct !DISubprogram(name: \"{}\", scope: !{}, file: !{}, line: {}, type: !{}, scopeLine: "
                    "{}, "
                    "isLocal: false, isDefinition: true, isOptimized: true, unit: !{})\n",
                    subprogram, header.name, file, file, defineLine, subroutine, defineLine, cu);
                std::string before(rtrim(std::string_view(stripped).substr(0, brace)));
                l.text = fmt::format("{} !dbg !{} {}{}{}", before, subprogram, stripped.substr(brace),
                                     comment.empty() ? "" : " ", comment);
                state = State::Body;
                openDepth = 0;
                pendingLine = 0;
                continue;
            }
            case State::Body: {
                if (pendingLine) {  // the lines of an instruction that began above
                    openDepth += depthChange(code);
                    if (dropping) l.text.clear();
                    if (openDepth <= 0) {
                        if (!dropping) attach(l, pendingLine);
                        pendingLine = 0;
                        dropping = false;
                    } else if (!dropping && code.find("!dbg") != std::string_view::npos) {
                        const auto cut = commentStart(l.text);
                        l.text = stripDbg(code) + (cut == std::string::npos ? std::string() : " " + l.text.substr(cut));
                    }
                    continue;
                }
                const auto trimmed = support::trim(code);
                if (trimmed.empty() || isLabel(trimmed)) continue;
                if (trimmed == "}") {
                    state = State::TopLevel;
                    continue;
                }
                const int depth = depthChange(code);
                if (isDebugIntrinsicCall(trimmed)) {
                    // @llvm.dbg.value/declare name the old variables and scopes: no code, no line.
                    l.text.clear();
                    if (depth > 0) {
                        pendingLine = lineNo;
                        openDepth = depth;
                        dropping = true;
                    }
                    continue;
                }
                out.instructionLines.push_back(lineNo);
                if (auto callee = calleeOf(trimmed)) out.calls.emplace_back(lineNo, std::move(*callee));
                if (depth > 0) {
                    pendingLine = lineNo;
                    openDepth = depth;
                    const auto cut = commentStart(l.text);
                    if (code.find("!dbg") != std::string_view::npos)
                        l.text = stripDbg(code) + (cut == std::string::npos ? std::string() : " " + l.text.substr(cut));
                } else {
                    attach(l, lineNo);
                }
                continue;
            }
        }
    }
    if (state == State::Header) return unreadable(module, defineLine, "the define's body never opens with `{`");
    if (state == State::Body)
        return unreadable(
            module, pendingLine ? pendingLine : defineLine,
            pendingLine ? "an instruction whose brackets never close" : "the define's body never ends with `}`");

    // "Debug Info Version" 3 is the one this LLVM keeps: other versions make it drop debug info.
    constexpr std::string_view kDebugVersionFlag = "!{i32 2, !\"Debug Info Version\", i32 3}";
    std::optional<long long> flagInList;
    for (const auto& [n, at] : debugVersionNodes)
        if (std::find(flagNodes.begin(), flagNodes.end(), n) != flagNodes.end()) {
            lines[at].text = fmt::format("!{} = {}", n, kDebugVersionFlag);
            flagInList = n;
        }
    if (!flagInList) {
        const long long flag = next++;
        nodes += fmt::format("!{} = {}\n", flag, kDebugVersionFlag);
        flagNodes.push_back(flag);
        std::vector<std::string> refs;
        for (auto n : flagNodes) refs.push_back(fmt::format("!{}", n));
        const std::string named = fmt::format("!llvm.module.flags = !{{{}}}", support::join(refs, ", "));
        if (moduleFlagsLine >= 0)
            lines[size_t(moduleFlagsLine)].text = named;
        else
            nodes += named + "\n";
    }
    nodes += fmt::format("!llvm.dbg.cu = !{{!{}}}\n", cu);
    nodes += fmt::format(
        "!{} = distinct !DICompileUnit(language: DW_LANG_C99, file: !{}, producer: \"nvpg line map\", "
        "isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly)\n",
        cu, file);
    nodes += fmt::format("!{} = !DIFile(filename: \"{}\", directory: \"\")\n", file, escapeLlvmString(module.name));
    nodes += fmt::format("!{} = !{{}}\n", noTypes);
    nodes += fmt::format("!{} = !DISubroutineType(types: !{})\n", subroutine, noTypes);
    nodes += fmt::format("!nvvmir.version = !{{!{}}}\n", irVersion);
    nodes += fmt::format("!{} = !{{i32 {}, i32 {}, i32 {}, i32 {}}}\n", irVersion, version.major, version.minor,
                         version.debugMajor, version.debugMinor);

    for (const auto& l : lines) {
        out.text += l.text;
        out.text += l.ending;
    }
    if (!out.text.empty() && out.text.back() != '\n') out.text += '\n';
    out.text += "\n; the line map's debug information (nvpg)\n";
    out.text += nodes;
    return out;
}

// A folder of its own under TMPDIR for the LLVM tools' files, removed with it.
class ScratchDir {
public:
    ScratchDir() {
        std::error_code ec;
        std::string pattern = (fs::temp_directory_path(ec) / "nvpg-twin-XXXXXX").string();
        if (!ec && ::mkdtemp(pattern.data()))
            path_ = pattern;
        else
            error_ = fmt::format("cannot make a temporary folder in {}: {}", fs::path(pattern).parent_path().string(),
                                 std::strerror(errno));
    }
    ~ScratchDir() {
        std::error_code ec;
        if (!path_.empty()) fs::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const fs::path& path() const { return path_; }
    const std::string& error() const { return error_; }

private:
    fs::path path_;
    std::string error_;
};

std::string firstLine(std::string_view s) {
    const auto lines = support::splitLines(support::trim(s));
    return lines.empty() ? std::string() : std::string(lines.front());
}

// llvm-dis-14's text of `bitcode`, made as the editor makes it: `llvm-dis-14 - -o -` reading the
// bitcode from stdin, so that even its first line (`; ModuleID = '<stdin>'`) is the one shown.
support::Result<std::string> disassemble(const nvvm::Module& module, const BitcodeTools& tools, const ScratchDir& dir) {
    const fs::path bc = dir.path() / "module.bc", ll = dir.path() / "module.ll";
    if (auto st = support::writeFileAtomic(bc, module.bytes); !st) return st.error();
    const auto ran = support::runProcess(
        {"/bin/sh", "-c", "exec \"$0\" - -o \"$1\" < \"$2\"", tools.llvmDis, ll.string(), bc.string()});
    if (ran.status != 0)
        return support::makeError(support::ErrorKind::Input,
                                  fmt::format("{}: llvm-dis-14 could not read it: {}", support::printable(module.name),
                                              firstLine(ran.output)));
    return support::readFile(ll);
}

}  // namespace

BitcodeTools findBitcodeTools() {
    return {support::findInPath("llvm-dis-14"), support::findInPath("llvm-as-14")};
}

support::Result<Twin> makeTwin(const nvvm::Module& module, const nvvm::IrVersion& version, const BitcodeTools& tools) {
    Twin twin;
    twin.module.name = module.name;
    twin.module.lazy = module.lazy;
    if (!module.isBitcode()) {
        auto annotated = annotate(module, module.bytes, version);
        if (!annotated) return annotated.error();
        twin.module.bytes = std::move(annotated->text);
        twin.mappedText = module.bytes;
        twin.instructionLines = std::move(annotated->instructionLines);
        twin.calls = std::move(annotated->calls);
        return twin;
    }
    if (module.lazy)
        return support::makeError(
            support::ErrorKind::Environment,
            fmt::format("{}: a lazy bitcode module is not mapped: libNVVM loads lazy modules only as bitcode, and "
                        "reads no bitcode with line information that llvm-as-14 writes (\"Invalid record\"); its "
                        "inlined code shows under the lines that call it",
                        support::printable(module.name)));
    if (tools.llvmDis.empty()) return support::makeError(support::ErrorKind::Environment, std::string(kNoBitcodeTools));
    ScratchDir dir;
    if (dir.path().empty()) return support::makeError(support::ErrorKind::Environment, dir.error());
    auto text = disassemble(module, tools, dir);
    if (!text) return text.error();
    auto annotated = annotate(module, *text, version);
    if (!annotated) return annotated.error();
    // The twin of bitcode is its annotated disassembly as text: bitcode that llvm-as-14 writes
    // with debug metadata is what libNVVM (CUDA 13.0) cannot read, and it aborts the process on
    // it ("Invalid record"), while its text parser reads llvm-dis-14's text.
    twin.module.bytes = std::move(annotated->text);
    twin.mappedText = std::move(*text);
    twin.instructionLines = std::move(annotated->instructionLines);
    twin.calls = std::move(annotated->calls);
    return twin;
}

}  // namespace nvpg::inspect
