#include "core/inspect/ControlFlow.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "core/inspect/Sass.h"
#include "core/ptx/PtxBody.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace {

// Builds one function's graph: blocks opened by labels or by an instruction after a block ended,
// closed by terminators, with the labels each terminator names.
class GraphBuilder {
public:
    GraphBuilder(std::string function, bool isEntry) {
        graph_.function = std::move(function);
        graph_.isEntry = isEntry;
    }

    void label(const std::string& name, int line) {
        open(name, line);
        labels_.try_emplace(name, int(graph_.blocks.size()) - 1);
    }
    void instruction(std::string text, int line) {
        if (!open_) open(graph_.blocks.empty() ? graph_.function : std::string(), line);
        auto& b = graph_.blocks.back();
        b.lines.push_back(line);
        b.instructions.push_back(std::move(text));
        b.lastLine = line;
    }
    // Ends the open block after its last instruction: `targets` are the labels it jumps to, and
    // with `fallsThrough` it may go on to the next block too.
    void end(std::vector<std::string> targets, bool fallsThrough) {
        if (!open_) return;
        targets_.back() = std::move(targets);
        fallsThrough_.back() = fallsThrough;
        open_ = false;
    }
    // Edges: where a jump's target is the next block, a Fallthrough when `nextIsFallthrough`.
    ControlFlowGraph finish(int emptyLine, bool nextIsFallthrough) {
        if (graph_.blocks.empty()) open(graph_.function, emptyLine);
        std::set<std::tuple<int, int, CfgEdgeKind>> seen;
        auto add = [&](int from, int to, CfgEdgeKind kind) {
            if (seen.insert({from, to, kind}).second) graph_.edges.push_back({from, to, kind, false});
        };
        const int n = int(graph_.blocks.size());
        for (int i = 0; i < n; ++i) {
            for (const auto& t : targets_[i])
                if (const auto it = labels_.find(t); it != labels_.end())
                    add(i, it->second,
                        nextIsFallthrough && it->second == i + 1 ? CfgEdgeKind::Fallthrough : CfgEdgeKind::Branch);
            if (fallsThrough_[i] && i + 1 < n) add(i, i + 1, CfgEdgeKind::Fallthrough);
        }
        markBackEdges(graph_);
        return std::move(graph_);
    }

private:
    void open(std::string name, int line) {
        graph_.blocks.push_back({std::move(name), line, line, {}, {}});
        targets_.emplace_back();
        fallsThrough_.push_back(true);
        open_ = true;
    }

    ControlFlowGraph graph_;
    std::unordered_map<std::string, int> labels_;
    std::vector<std::vector<std::string>> targets_;  // by block
    std::vector<bool> fallsThrough_;                 // by block
    bool open_ = false;
};

std::string_view withoutGuard(std::string_view s, bool& guarded) {
    s = support::trim(s);
    guarded = !s.empty() && s[0] == '@';
    if (guarded) {
        const auto space = s.find(' ');
        s = space == std::string_view::npos ? std::string_view{} : support::trim(s.substr(space));
    }
    return s;
}

bool isIrNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '$' ||
           c == '.' || c == '_';
}

// An IR name at the start of `s`: `foo.bar`, `5`, `"quoted name"` (returned without its quotes).
std::string irName(std::string_view s, size_t& length) {
    if (!s.empty() && s[0] == '"') {
        const auto close = s.find('"', 1);
        length = close == std::string_view::npos ? s.size() : close + 1;
        return std::string(s.substr(1, length - 2));
    }
    length = 0;
    while (length < s.size() && isIrNameChar(s[length])) ++length;
    return std::string(s.substr(0, length));
}

// Every `label %name` of an IR instruction.
std::vector<std::string> irLabelOperands(std::string_view text) {
    std::vector<std::string> out;
    constexpr std::string_view word = "label %";
    for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        size_t length = 0;
        auto name = irName(text.substr(at + word.size()), length);
        if (!name.empty()) out.push_back(std::move(name));
    }
    return out;
}

// "name:" / "\"quoted\":" / LLVM 7's "; <label>:5:" at the start of an IR line: the block's name.
std::optional<std::string> irLabel(std::string_view line) {
    constexpr std::string_view numbered = "; <label>:";
    if (support::startsWith(line, numbered)) {
        size_t length = 0;
        auto name = irName(line.substr(numbered.size()), length);
        if (!name.empty()) return name;
        return std::nullopt;
    }
    if (line.empty() || line[0] == ';') return std::nullopt;
    size_t length = 0;
    auto name = irName(line, length);
    if (name.empty() || length >= line.size() || line[length] != ':') return std::nullopt;
    const auto rest = support::trim(line.substr(length + 1));
    if (!rest.empty() && rest[0] != ';') return std::nullopt;
    return name;
}

// ---- nvdisasm -bbcfg's DOT ----

struct DotToken {
    enum class Kind { Id, String, Arrow, Punct } kind = Kind::Id;
    std::string_view text;  // a String's without its quotes, escapes kept
};

std::vector<DotToken> dotTokens(std::string_view s) {
    std::vector<DotToken> out;
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
        const char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            ++i;
        } else if (c == '"') {
            size_t k = i + 1;
            while (k < n && s[k] != '"') k += s[k] == '\\' ? 2 : 1;
            out.push_back({DotToken::Kind::String, s.substr(i + 1, std::min(k, n) - i - 1)});
            i = k + 1;
        } else if (c == '-' && i + 1 < n && s[i + 1] == '>') {
            out.push_back({DotToken::Kind::Arrow, s.substr(i, 2)});
            i += 2;
        } else if (isIrNameChar(c)) {
            size_t k = i;
            while (k < n && isIrNameChar(s[k])) ++k;
            out.push_back({DotToken::Kind::Id, s.substr(i, k - i)});
            i = k;
        } else {
            out.push_back({DotToken::Kind::Punct, s.substr(i, 1)});
            ++i;
        }
    }
    return out;
}

// The instructions of a record label ("{<entry>.L_x_3:\l\ \ MOV\ R6,\ UR6\ ;\l|<exit0>...}"): its
// lines that begin with two spaces, without them and the ';'. Directives and labels are left out.
std::vector<std::string> recordInstructions(std::string_view label) {
    std::vector<std::string> lines(1);
    for (size_t i = 0; i < label.size(); ++i) {
        const char c = label[i];
        if (c == '\\' && i + 1 < label.size()) {
            const char e = label[++i];
            if (e == 'l' || e == 'n' || e == 'r')
                lines.emplace_back();
            else
                lines.back() += e;
        } else if (c == '|') {
            lines.emplace_back();
        } else if (c == '<') {  // a port's name
            while (i < label.size() && label[i] != '>') ++i;
        } else if (c != '{' && c != '}') {
            lines.back() += c;
        }
    }
    std::vector<std::string> out;
    for (const auto& l : lines) {
        if (!support::startsWith(l, "  ")) continue;
        auto code = support::trim(l);
        if (!code.empty() && code.back() == ';') code = support::trim(code.substr(0, code.size() - 1));
        if (!code.empty()) out.emplace_back(code);
    }
    return out;
}

// nvdisasm numbers its labels (.L_x_N) per run: a graph from runs over parts of the cubin (-fun)
// names them differently from the listing of one run. Whether `graph` is `listed` but for its
// labels, each label of the graph standing for one of the listing throughout (`names`: graph's
// label -> listing's, and back in `taken`).
bool sameButLabels(std::string_view graph, std::string_view listed, std::unordered_map<std::string, std::string>& names,
                   std::unordered_map<std::string, std::string>& taken) {
    constexpr std::string_view kLabel = ".L_x_";
    auto labelAt = [&](std::string_view s, size_t i) {
        if (s.substr(i, kLabel.size()) != kLabel) return std::string_view();
        size_t end = i + kLabel.size();
        while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
        return end > i + kLabel.size() ? s.substr(i, end - i) : std::string_view();
    };
    size_t i = 0, j = 0;
    while (i < graph.size() && j < listed.size()) {
        const auto a = labelAt(graph, i), b = labelAt(listed, j);
        if (!a.empty() && !b.empty()) {
            const auto [to, added] = names.try_emplace(std::string(a), std::string(b));
            const auto [from, fresh] = taken.try_emplace(std::string(b), std::string(a));
            if (to->second != b || from->second != a) return false;
            i += a.size();
            j += b.size();
        } else if (graph[i] == listed[j]) {
            ++i, ++j;
        } else {
            return false;
        }
    }
    return i == graph.size() && j == listed.size();
}

// Gives each block of `g` the lines of its instructions in the listing, or says why not; the
// instructions and labels then read as the listing's.
void mapOntoListing(ControlFlowGraph& g, const SassListing& listing) {
    std::vector<const SassInstruction*> mine;
    for (const auto& in : listing.instructions)
        if (in.function == g.function) mine.push_back(&in);
    std::unordered_map<std::string, std::string> names, taken;
    size_t next = 0;
    for (auto& b : g.blocks) {
        for (auto& code : b.instructions) {
            if (next >= mine.size() || !sameButLabels(code, mine[next]->code, names, taken)) {
                g.unmapped =
                    next >= mine.size()
                        ? fmt::format("block {} has more instructions than the listing's {}", b.label, g.function)
                        : fmt::format("block {}'s \"{}\" is not the listing's next instruction of {} (\"{}\", line {})",
                                      b.label, code, g.function, mine[next]->code, mine[next]->line);
                for (auto& c : g.blocks) c.lines.clear(), c.firstLine = c.lastLine = 0;
                return;
            }
            code = mine[next]->code;
            b.lines.push_back(mine[next++]->line);
        }
        if (!b.lines.empty()) b.firstLine = b.lines.front(), b.lastLine = b.lines.back();
    }
    for (auto& b : g.blocks)
        if (const auto renamed = names.find(b.label); renamed != names.end()) b.label = renamed->second;
}

std::string dotQuoted(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + '"';
}

}  // namespace

std::string_view cfgOfName(CfgOf of) {
    switch (of) {
        case CfgOf::Sass:
            return "sass";
        case CfgOf::Ptx:
            return "ptx";
        case CfgOf::Ir:
            break;
    }
    return "ir";
}

std::optional<CfgOf> parseCfgOf(std::string_view name) {
    for (const auto of : {CfgOf::Sass, CfgOf::Ptx, CfgOf::Ir})
        if (cfgOfName(of) == name) return of;
    return std::nullopt;
}

std::vector<ControlFlowGraph> cfgFromPtx(std::string_view ptx) {
    std::vector<ControlFlowGraph> out;
    for (const auto& body : ptx::readBodies(ptx)) {
        GraphBuilder b(body.name, body.isEntry);
        for (const auto& s : body.statements) {
            if (s.kind == ptx::BodyStatement::Kind::Label) {
                b.label(s.text, s.line);
                continue;
            }
            b.instruction(s.text, s.line);
            bool guarded = false;
            const auto code = withoutGuard(s.text, guarded);
            const auto space = code.find(' ');
            const auto opcode = code.substr(0, space);
            const auto base = opcode.substr(0, opcode.find('.'));
            if (base == "bra") {
                auto target = space == std::string_view::npos ? std::string_view{} : support::trim(code.substr(space));
                b.end({std::string(target)}, guarded);
            } else if (base == "ret" || base == "exit" || base == "trap" || base == "brx") {
                b.end({}, guarded);  // brx.idx's targets are in a .branchtargets list: not followed
            }
        }
        out.push_back(b.finish(body.openLine, /*nextIsFallthrough=*/false));
    }
    return out;
}

std::vector<ControlFlowGraph> cfgFromIr(std::string_view ir) {
    std::vector<ControlFlowGraph> out;
    std::optional<GraphBuilder> b;
    int defineLine = 0;
    std::string pending;  // a switch whose case list goes on over the next lines
    int lineNo = 0;
    for (auto raw : support::splitLines(ir)) {
        ++lineNo;
        const auto line = support::trim(raw);
        if (!b) {
            if (!support::startsWith(line, "define ")) continue;
            const auto at = line.find('@');
            if (at == std::string_view::npos) continue;
            size_t length = 0;
            auto name = irName(line.substr(at + 1), length);
            const bool kernel = ir.find("@" + name + ", !\"kernel\"") != std::string_view::npos ||
                                ir.find("@\"" + name + "\", !\"kernel\"") != std::string_view::npos;
            b.emplace(std::move(name), kernel);
            defineLine = lineNo;
            continue;
        }
        if (line == "}") {
            out.push_back(b->finish(defineLine, /*nextIsFallthrough=*/true));
            b.reset();
            continue;
        }
        if (!pending.empty()) {
            pending += ' ';
            pending += line;
            if (line.find(']') != std::string_view::npos) {
                b->end(irLabelOperands(pending), false);
                pending.clear();
            }
            continue;
        }
        if (auto label = irLabel(line)) {
            b->label(*label, lineNo);
            continue;
        }
        if (line.empty() || line[0] == ';') continue;
        b->instruction(std::string(line), lineNo);
        auto code = line;
        if (code[0] == '%') {  // "%x = invoke ...": the opcode after the result
            const auto eq = code.find(" = ");
            if (eq != std::string_view::npos) code = code.substr(eq + 3);
        }
        const auto opcode = code.substr(0, code.find(' '));
        if (opcode == "switch" && line.find(']') == std::string_view::npos) {
            pending = std::string(line);
        } else if (opcode == "br" || opcode == "switch" || opcode == "indirectbr" || opcode == "callbr" ||
                   opcode == "invoke") {
            b->end(irLabelOperands(line), false);
        } else if (opcode == "ret" || opcode == "unreachable" || opcode == "resume") {
            b->end({}, false);
        }
    }
    return out;
}

std::vector<ControlFlowGraph> cfgFromSass(std::string_view bbcfgDot, std::string_view listing) {
    std::vector<ControlFlowGraph> out;
    // DOT name (within its digraph: parts of the cubin are one digraph each, named alike) -> graph, block
    std::unordered_map<std::string, std::pair<size_t, int>> nodes;
    int digraphs = 0;
    auto key = [&](std::string_view name) { return fmt::format("{}\n{}", digraphs, name); };
    std::vector<std::string> clusters;  // the function each open brace is of ("" outside any)
    struct Arrow {
        std::string from, to;  // keys
        CfgEdgeKind kind;
    };
    std::vector<Arrow> arrows;
    const auto toks = dotTokens(bbcfgDot);
    const size_t n = toks.size();
    auto isId = [&](size_t k) {
        return k < n && (toks[k].kind == DotToken::Kind::Id || toks[k].kind == DotToken::Kind::String);
    };
    auto isPunct = [&](size_t k, char c) {
        return k < n && toks[k].kind == DotToken::Kind::Punct && toks[k].text[0] == c;
    };
    // An attribute list at k ('['): its label, and the index after its ']'.
    auto attributes = [&](size_t k, std::string_view& label) {
        for (++k; k < n && !isPunct(k, ']'); ++k)
            if (isId(k) && toks[k].text == "label" && isPunct(k + 1, '=') && isId(k + 2)) label = toks[k + 2].text;
        return k + 1;
    };
    // An endpoint at k: its name and compass (of "A":exit0:e), and the index after it.
    auto endpoint = [&](size_t k, std::string_view& name, std::string_view& compass) {
        name = toks[k++].text;
        compass = {};
        for (int part = 0; part < 2 && isPunct(k, ':') && isId(k + 1); ++part, k += 2) compass = toks[k + 1].text;
        return k;
    };
    auto graphOf = [&](const std::string& function) {
        for (size_t g = 0; g < out.size(); ++g)
            if (out[g].function == function) return g;
        out.push_back({function, false, {}, {}, {}});
        return out.size() - 1;
    };
    for (size_t k = 0; k < n;) {
        const auto& t = toks[k];
        if (t.kind == DotToken::Kind::Id && (t.text == "digraph" || t.text == "graph" || t.text == "subgraph") &&
            !isPunct(k + 1, '[')) {
            std::string name;
            ++k;
            if (isId(k)) name = std::string(toks[k++].text);
            if (isPunct(k, '{')) ++k;
            if (t.text != "subgraph" && clusters.empty()) ++digraphs;
            clusters.push_back(t.text == "subgraph" && support::startsWith(name, "cluster_") ? name.substr(8)
                                                                                             : std::string());
            continue;
        }
        if (isPunct(k, '}')) {
            if (!clusters.empty()) clusters.pop_back();
            ++k;
            continue;
        }
        if (t.kind == DotToken::Kind::Id && (t.text == "node" || t.text == "edge" || t.text == "graph") &&
            isPunct(k + 1, '[')) {
            std::string_view ignored;
            k = attributes(k + 1, ignored);
            continue;
        }
        if (!isId(k)) {
            ++k;
            continue;
        }
        std::string_view from, fromCompass;
        k = endpoint(k, from, fromCompass);
        if (k < n && toks[k].kind == DotToken::Kind::Arrow && isId(k + 1)) {
            std::string_view to, toCompass;
            k = endpoint(k + 1, to, toCompass);
            std::string_view ignored;
            if (isPunct(k, '[')) k = attributes(k, ignored);
            // nvdisasm writes a block's edges before the blocks they go to: joined once all are read.
            arrows.push_back({key(from), key(to), fromCompass == "e" ? CfgEdgeKind::Branch : CfgEdgeKind::Fallthrough});
            continue;
        }
        std::string_view label;
        if (isPunct(k, '[')) k = attributes(k, label);
        if (nodes.count(key(from))) continue;
        const auto g = graphOf(clusters.empty() ? std::string() : clusters.back());
        nodes[key(from)] = {g, int(out[g].blocks.size())};
        out[g].blocks.push_back({std::string(from), 0, 0, {}, recordInstructions(label)});
    }
    for (const auto& [from, to, kind] : arrows) {
        const auto a = nodes.find(from);
        const auto b = nodes.find(to);
        if (a == nodes.end() || b == nodes.end() || a->second.first != b->second.first) continue;
        auto& edges = out[a->second.first].edges;
        const CfgEdge e{a->second.second, b->second.second, kind, false};
        if (std::none_of(edges.begin(), edges.end(),
                         [&](const CfgEdge& x) { return x.from == e.from && x.to == e.to && x.kind == e.kind; }))
            edges.push_back(e);
    }
    const auto sass = readSass(listing);
    for (auto& g : out) {
        for (const auto& f : sass.functions) g.isEntry = g.isEntry || (f.name == g.function && f.isEntry);
        mapOntoListing(g, sass);
        markBackEdges(g);
    }
    // One run numbers its unlabelled blocks (BBn) on through the functions in the listing's
    // order; runs over parts each from BB0: numbered as one run would.
    if (digraphs > 1) {
        auto unlabelled = [](const std::string& label) {
            return label.size() > 2 && support::startsWith(label, "BB") &&
                   std::all_of(label.begin() + 2, label.end(), [](char c) { return c >= '0' && c <= '9'; });
        };
        int next = 0;
        for (const auto& f : sass.functions)
            for (auto& g : out)
                if (g.function == f.name)
                    for (auto& b : g.blocks)
                        if (unlabelled(b.label)) b.label = fmt::format("BB{}", next++);
    }
    return out;
}

void markBackEdges(ControlFlowGraph& g) {
    const int n = int(g.blocks.size());
    std::vector<std::vector<int>> out(n);  // edge indices by source
    for (size_t i = 0; i < g.edges.size(); ++i) {
        g.edges[i].back = false;
        if (g.edges[i].from >= 0 && g.edges[i].from < n && g.edges[i].to >= 0 && g.edges[i].to < n)
            out[g.edges[i].from].push_back(int(i));
    }
    enum : char { White, OnPath, Done };
    std::vector<char> state(n, White);
    std::vector<std::pair<int, size_t>> stack;  // block, next of its edges to follow
    for (int root = 0; root < n; ++root) {
        if (state[root] != White) continue;
        state[root] = OnPath;
        stack.push_back({root, 0});
        while (!stack.empty()) {
            auto& [block, next] = stack.back();
            if (next == out[block].size()) {
                state[block] = Done;
                stack.pop_back();
                continue;
            }
            auto& e = g.edges[out[block][next++]];
            if (state[e.to] == OnPath) {
                e.back = true;
            } else if (state[e.to] == White) {
                state[e.to] = OnPath;
                stack.push_back({e.to, 0});
            }
        }
    }
}

std::string toDot(const ControlFlowGraph& g, int labelLines) {
    std::string out = fmt::format("digraph {} {{\n", dotQuoted(g.function));
    out += "  node [shape=box, fontname=\"Courier\", fontsize=10];\n";
    for (size_t i = 0; i < g.blocks.size(); ++i) {
        const auto& b = g.blocks[i];
        std::string label;
        auto line = [&](std::string_view text) {
            for (const char c : text) {
                if (c == '"' || c == '\\') label += '\\';
                label += c;
            }
            label += "\\l";  // left-justified
        };
        if (!b.label.empty()) line(b.label + ":");
        const int shown = std::min<int>(labelLines, int(b.instructions.size()));
        for (int k = 0; k < shown; ++k) line(b.instructions[k]);
        if (int(b.instructions.size()) > shown) line(fmt::format("... {} more", b.instructions.size() - shown));
        if (label.empty()) line("(empty)");
        out += fmt::format("  b{} [label=\"{}\"];\n", i, label);
    }
    for (const auto& e : g.edges) {
        std::vector<std::string> style;
        if (e.kind == CfgEdgeKind::Fallthrough) style.emplace_back("style=dashed");
        if (e.back)
            style.emplace_back(e.kind == CfgEdgeKind::Fallthrough ? "penwidth=2, color=red" : "style=bold, color=red");
        out += fmt::format("  b{} -> b{}", e.from, e.to);
        if (!style.empty()) {
            out += " [";
            for (size_t k = 0; k < style.size(); ++k) out += (k ? ", " : "") + style[k];
            out += "]";
        }
        out += ";\n";
    }
    return out + "}\n";
}

std::string toDot(const std::vector<ControlFlowGraph>& graphs, int labelLines) {
    std::string out;
    for (const auto& g : graphs) out += toDot(g, labelLines);
    return out;
}

}  // namespace nvpg::inspect
