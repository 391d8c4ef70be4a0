#pragma once

#include <string>
#include <vector>

#include "core/inspect/ControlFlow.h"

namespace nvpg::inspect {

// Where Graphviz's dot puts a graph's blocks and edges, in points (1/72 inch), with y growing
// downwards from the top left corner as a Qt scene's does.
struct CfgPoint {
    double x = 0;
    double y = 0;
};
struct CfgNodeBox {
    CfgPoint centre;
    double width = 0;
    double height = 0;
};
struct CfgEdgePath {
    int from = 0;  // as in ControlFlowGraph::edges
    int to = 0;
    // A cubic B-spline as Graphviz gives it: start, then three points per segment (two control
    // points and the end). With an arrowhead, `arrowTip` is where it points (the spline stops short).
    std::vector<CfgPoint> points;
    bool hasArrow = false;
    CfgPoint arrowTip;
};
struct CfgLayout {
    bool ok = false;
    std::string error;  // when not ok: what Graphviz said
    double width = 0;   // the bounding box
    double height = 0;
    std::vector<CfgNodeBox> nodes;   // by block index
    std::vector<CfgEdgePath> edges;  // by edge index
    double seconds = 0;
};

// Lays `graph` out with libgvc's dot, top to bottom. Each block is a box sized for its label and
// first `labelLines` instructions in a 10 pt monospace font (6 pt a character, 12 pt a line),
// since the view draws the text itself: Graphviz gets sizes, not text, so no fonts are looked up.
// Callable from any thread: Graphviz's cgraph and gvc keep global state and are not thread-safe, so
// every call holds one process-wide mutex while it uses them (layouts run one at a time).
CfgLayout layoutCfg(const ControlFlowGraph& graph, int labelLines = 3);

}  // namespace nvpg::inspect
