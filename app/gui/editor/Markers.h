#pragma once

#include <Qsci/qsciscintilla.h>

namespace nvpg::gui {

// Deletes the markers of `mask` from every line of `e`. One walk over the lines that carry any
// of them: SCI_MARKERDELETEALL visits every line of the text for each marker number, which on a
// 200,000-line module is a millisecond per marker, and a reply clears a dozen.
inline void deleteMarkers(QsciScintilla* e, unsigned mask) {
    using B = QsciScintillaBase;
    for (long line = e->SendScintilla(B::SCI_MARKERNEXT, 0UL, long(mask)); line >= 0;
         line = e->SendScintilla(B::SCI_MARKERNEXT, static_cast<unsigned long>(line + 1), long(mask))) {
        const unsigned here = unsigned(e->SendScintilla(B::SCI_MARKERGET, static_cast<unsigned long>(line))) & mask;
        for (int m = 0; m < 32; ++m)
            if (here & (1u << m)) e->SendScintilla(B::SCI_MARKERDELETE, static_cast<unsigned long>(line), long(m));
    }
}

// The mask of marker numbers first..last.
constexpr unsigned markerRange(int first, int last) {
    unsigned mask = 0;
    for (int m = first; m <= last; ++m) mask |= 1u << m;
    return mask;
}

}  // namespace nvpg::gui
