#include "gui/editor/CaretFunction.h"

#include <string_view>

#include <Qsci/qsciscintilla.h>

namespace nvpg::gui {

inspect::FunctionAt functionAtLine(QsciScintilla* pane, int line, inspect::FunctionText kind) {
    if (!pane || line < 0 || line >= pane->lines()) return {};
    const long end = pane->SendScintilla(QsciScintillaBase::SCI_GETLINEENDPOSITION, static_cast<unsigned long>(line));
    if (end <= 0) return {};
    // Scintilla moves its gap out of the range only: the text below the line stays where it is.
    const auto* data =
        reinterpret_cast<const char*>(pane->SendScintilla(QsciScintillaBase::SCI_GETRANGEPOINTER, 0UL, end));
    if (!data) return {};
    return inspect::functionAtLastLine(std::string_view(data, size_t(end)), line + 1, kind);
}

}  // namespace nvpg::gui
