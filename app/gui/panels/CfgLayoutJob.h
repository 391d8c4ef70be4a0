#pragma once

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <QtGlobal>

#include "core/inspect/CfgLayout.h"
#include "core/inspect/ControlFlow.h"
#include "core/inspect/LineMap.h"
#include "core/pipeline/CompileResult.h"
#include "core/pipeline/LiveFigures.h"

namespace nvpg::gui {

// Which output a graph shown is of.
enum class CfgSource { Sass, Ptx, LtoPtx, Ir };
// Its name on screen ("SASS", "PTX", "LTO PTX", "IR"), untranslated.
const char* cfgSourceWords(CfgSource source);

// A block shows its label and this many first lines (the layout sizes it for them).
constexpr int kCfgLabelLines = 3;
// The entry block's label, the function's name, is cut (support::elideName) to this many
// characters: about as wide as the instructions under it.
constexpr size_t kCfgNameColumns = 48;

// What the layout thread reads from one compile, once: every output's graphs (core's readers)
// and the live figures (core's LiveFigures), kept while that compile is on screen.
// The graphs' entry blocks are labelled with the function's name as the app shows names
// (readable unless `rawNames`, cut to kCfgNameColumns), and a kernel's mangled symbol in their
// instructions reads "…" ("[…_param_0]"), so that no block is a symbol's width.
struct CfgPrepared {
    std::shared_ptr<const pipeline::CompileResult> result;
    std::shared_ptr<const inspect::LineMap> map;
    bool rawNames = false;
    std::array<std::vector<inspect::ControlFlowGraph>, 4> graphs;  // by CfgSource
    std::array<std::string, 4> unavailable;                        // why a source has no graphs
    std::vector<std::string> irModules;                            // by graphs[Ir]: the module it is in
    pipeline::LiveFigures live;
};

// One answer of the layout thread.
struct CfgLaidOut {
    quint64 generation = 0;
    std::shared_ptr<const CfgPrepared> prepared;
    CfgSource source = CfgSource::Sass;
    int graph = -1;        // into prepared->graphs[source]; -1: the function has none there
    std::string function;  // the one asked for (the first kernel when none was)
    inspect::CfgLayout layout;
    std::vector<int> pressure;    // by block: the most registers live at its lines; -1 for none
    int scale = 0;                // the kernel's register count (ptxas), the colours' top
    Qt::HANDLE thread = nullptr;  // where it was laid out (tests check it is not the UI thread)
};

// One request of the Control Flow dock: a compile, the graph of which function from which output.
struct CfgJob {
    quint64 generation = 0;
    std::shared_ptr<const pipeline::CompileResult> result;
    std::shared_ptr<const inspect::LineMap> map;
    std::vector<std::pair<std::string, std::string>> irTexts;  // text modules: name, text
    std::shared_ptr<const CfgPrepared> prepared;               // reused when of the same result
    bool rawNames = false;                                     // View > Raw Symbol Names
    CfgSource source = CfgSource::Sass;
    std::string function;
};

// Reads the compile's graphs (unless the job brings them prepared) and lays out the one asked
// for, with the pressure figure of each block. Runs off the UI thread; touches nothing shared.
std::shared_ptr<const CfgLaidOut> layOutCfg(const CfgJob& job);

}  // namespace nvpg::gui
