#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nvpg::inspect {

// A function's basic blocks and the edges between them, read from one output's text (SASS, PTX or
// NVVM IR), with each block's lines in that text so that a view can select them.
struct CfgBlock {
    std::string label;       // "BB3" / ".L_x_3" (SASS), "$L__BB0_3" (PTX), "B12.endif" / "5" (IR); the
                             // function's name for an unlabelled entry; empty for other unlabelled blocks
    int firstLine = 0;       // 1-based lines of the text it spans (its label's line where it has one);
    int lastLine = 0;        // 0 when unknown (SASS whose listing did not match the graph)
    std::vector<int> lines;  // its instructions' lines, in order
    std::vector<std::string> instructions;  // their text, parallel to lines
};

enum class CfgEdgeKind {
    Fallthrough,  // on to the next block in the text's order
    Branch,       // a jump to a label
};
struct CfgEdge {
    int from = 0;  // indices into ControlFlowGraph::blocks
    int to = 0;
    CfgEdgeKind kind = CfgEdgeKind::Branch;
    bool back = false;  // closes a loop: it goes to a block the depth-first search from the entry is still in
};

struct ControlFlowGraph {
    std::string function;
    bool isEntry = false;          // a kernel (.entry, SASS entry, a define that is not internal)
    std::vector<CfgBlock> blocks;  // in the text's order; blocks[0] is the entry
    std::vector<CfgEdge> edges;
    std::string unmapped;  // SASS only: why the blocks have no lines, when they have none
};

// Which output a graph is of (`nvpg compile --cfg-of`).
enum class CfgOf { Sass, Ptx, Ir };
std::string_view cfgOfName(CfgOf of);  // "sass", "ptx", "ir"
std::optional<CfgOf> parseCfgOf(std::string_view name);

// Per .entry and .func with a body: blocks begin at the function's start and at labels, and end
// after bra, brx, ret, exit and trap; edges from bra's label (and on to the next block where the
// bra has a guard, or the block ends without one).
std::vector<ControlFlowGraph> cfgFromPtx(std::string_view ptx);
// Per define of NVVM IR text: blocks begin at the entry and at labels ("name:", LLVM 7's
// "; <label>:5:"), end at br, switch, indirectbr, ret and unreachable; edges from their label
// operands. An edge to the block next in the text is Fallthrough, any other Branch.
std::vector<ControlFlowGraph> cfgFromIr(std::string_view ir);
// From `nvdisasm -bbcfg`'s DOT (one cluster per function, record-shaped nodes whose text is the
// block's instructions; an edge from a port's east side is a branch, from its south side a
// fallthrough), each block mapped onto `listing`, the plain `nvdisasm -c` of the same cubin: the
// function's instructions there, in order, are the blocks' instructions one after another. The
// DOT may be several digraphs (runs over parts of the cubin, each numbering its own blocks and
// labels): the instructions and labels are then given as the listing writes them.
std::vector<ControlFlowGraph> cfgFromSass(std::string_view bbcfgDot, std::string_view listing);

// Sets each edge's `back` by a depth-first search from the entry (then from any block it missed).
void markBackEdges(ControlFlowGraph& graph);

// Graphviz DOT of one graph: a digraph named after the function, one box per block labelled with
// its label and first `labelLines` instructions, back edges bold and red, fallthroughs dashed.
std::string toDot(const ControlFlowGraph& graph, int labelLines = 3);
// One digraph per graph, one after another (as `dot` reads several from one file).
std::string toDot(const std::vector<ControlFlowGraph>& graphs, int labelLines = 3);

}  // namespace nvpg::inspect
