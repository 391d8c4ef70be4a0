#pragma once

#include "core/inspect/FunctionAt.h"

class QsciScintilla;

namespace nvpg::gui {

// The function whose declaration holds 0-based line `line` of an editor or output pane
// (inspect::functionAtLastLine), read in Scintilla's own buffer up to that line's end without a
// copy: following a caret costs a look at the lines between it and the declaration above it.
inspect::FunctionAt functionAtLine(QsciScintilla* pane, int line, inspect::FunctionText kind);

}  // namespace nvpg::gui
