#include "gui/editor/Annotations.h"

#include <utility>

#include <Qsci/qsciscintilla.h>
#include <Qsci/qscistyle.h>
#include <QFontDatabase>

#include "gui/editor/Markers.h"

namespace nvpg::gui {

namespace {

// Annotation styles sit above the lexer's and below Scintilla's predefined ones (32..39 are
// taken, lexer styles are < 16). Fixed numbers, because QsciStyle's automatic numbering is
// process-wide and runs out after a few dozen editors.
constexpr int kErrorAnnotationStyle = 100;
constexpr int kWarningAnnotationStyle = 101;
constexpr int kNoteAnnotationStyle = 102;
constexpr int kMapNoteAnnotationStyle = 103;

}  // namespace

QString wrapForAnnotation(const QString& text, int width, int maxLines) {
    QStringList out;
    bool cut = false;
    // An output line takes at most `width` characters and a separator of the text, so the first
    // lines come from this much of it: a hint of 5.7 KB is not split into words whole (423 of them
    // took 25 ms of a reply's turn). A longer text is cut, whatever the lines come to.
    const qsizetype budget = qsizetype(maxLines + 1) * (width + 1);
    const QStringView whole = QStringView(text).left(budget);
    const bool longer = text.size() > budget;
    for (const auto& para : whole.split(u'\n')) {
        QString line;
        for (const auto& word : para.split(u' ')) {
            if (!line.isEmpty() && line.size() + 1 + word.size() > width) {
                out << line;
                if (out.size() >= maxLines) {
                    cut = true;
                    break;
                }
                line = QStringLiteral("    ") + word.toString();
            } else {
                if (!line.isEmpty()) line += u' ';
                line += word;
            }
        }
        if (cut) break;
        out << line;
        if (out.size() >= maxLines && para.data() + para.size() != text.constData() + text.size()) {
            cut = true;
            break;
        }
    }
    cut = cut || longer;
    if (cut) out << QStringLiteral("    … (the whole message is in the Problems dock)");
    return out.join(u'\n');
}

Annotations::Annotations(QsciScintilla* editor, std::function<qint64()> sinceKey)
    : editor_(editor), sinceKey_(std::move(sinceKey)) {
    editor_->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
    pendingMarker_ = editor_->markerDefine(QsciScintilla::Invisible);
    annotatedMarker_ = editor_->markerDefine(QsciScintilla::Invisible);
    timer_.setObjectName(QStringLiteral("annotationPause"));  // named where timings list it
    timer_.setSingleShot(true);
    QObject::connect(&timer_, &QTimer::timeout, &timer_, [this] { showPending(); });
}

void Annotations::setProblems(const std::map<int, std::vector<Problem>>& problems, bool wait) {
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const QsciStyle errorStyle(kErrorAnnotationStyle, QStringLiteral("Error annotation"), QColor(0x8b, 0x00, 0x00),
                               QColor(0xfd, 0xe7, 0xe7), mono);
    const QsciStyle warningStyle(kWarningAnnotationStyle, QStringLiteral("Warning annotation"),
                                 QColor(0x6b, 0x45, 0x00), QColor(0xff, 0xf4, 0xd6), mono);
    const QsciStyle noteStyle(kNoteAnnotationStyle, QStringLiteral("Note annotation"), QColor(0x40, 0x40, 0x40),
                              QColor(0xee, 0xee, 0xee), mono);
    // Set up once and referred to by number below: a QsciStyledText made from a QsciStyle keeps
    // a copy of it that QScintilla never frees. Once: each style message makes Scintilla drop
    // every line's layout and measure its fonts again at the next paint.
    if (!stylesSet_)
        for (const auto* style : {&errorStyle, &warningStyle, &noteStyle}) style->apply(editor_);
    stylesSet_ = true;

    for (const auto& [line, messages] : problems) {
        // Each message on its own line under the code line, each in its severity's colours.
        const int handle = editor_->markerAdd(line, pendingMarker_);
        for (size_t i = 0; i < messages.size(); ++i) {
            const Problem& p = messages[i];
            const bool error = p.severity == nvvm::Severity::Error;
            const bool warning = p.severity == nvvm::Severity::Warning;
            const QString label = error     ? QStringLiteral("error")
                                  : warning ? QStringLiteral("warning")
                                            : QStringLiteral("note");
            const int style = error ? kErrorAnnotationStyle : warning ? kWarningAnnotationStyle : kNoteAnnotationStyle;
            QString text = wrapForAnnotation(QStringLiteral("%1: %2").arg(label, p.message));
            if (i + 1 < messages.size()) text += QLatin1Char('\n');
            pending_.push_back({handle, line, std::move(text), style});
        }
    }
    notesPending_ = true;
    if (wait)
        timer_.start(kPauseMs);
    else
        showPending();
}

void Annotations::dropPending(unsigned alsoDelete) {
    deleteMarkers(editor_, alsoDelete | (1u << pendingMarker_));
    pending_.clear();
}

void Annotations::clearProblems() {
    notesPending_ = false;
    timer_.stop();
    clearAll();
    shownProblems_.clear();
    for (const auto& [line, text] : mapNotes_) annotateLine(line);
}

void Annotations::showPending() {
    if (!notesPending_) return;
    const qint64 since = sinceKey_();
    if (editor_->isListActive() || since < kPauseMs) {
        timer_.start(editor_->isListActive() ? 200 : int(kPauseMs - since));
        return;
    }
    clearAll();
    using B = QsciScintillaBase;
    // Where each note's line is now. Asking Scintilla for each handle's line reads every line of
    // the text each time (0.1 ms a note in 200,000 lines): one walk over the marked lines
    // instead. Notes made in line order keep it through edits, so the i-th handle is on the i-th
    // marked line, unless a deleted line merged two marks into one: then each is asked for.
    std::vector<int> handles;
    bool sorted = true;
    for (size_t i = 0; i < pending_.size(); ++i) {
        const Note& n = pending_[i];
        if (i > 0 && n.line < pending_[i - 1].line) sorted = false;
        if (handles.empty() || handles.back() != n.markerHandle) handles.push_back(n.markerHandle);
    }
    std::vector<long> marked;
    const unsigned long pendingMask = 1ul << pendingMarker_;
    for (long line = editor_->SendScintilla(B::SCI_MARKERNEXT, 0UL, long(pendingMask)); line >= 0;
         line = editor_->SendScintilla(B::SCI_MARKERNEXT, static_cast<unsigned long>(line + 1), long(pendingMask)))
        marked.push_back(line);
    const bool inOrder = sorted && marked.size() == handles.size();
    std::map<int, QList<QsciStyledText>> pieces;  // per line, where the line is now
    size_t h = 0;
    for (size_t i = 0; i < pending_.size(); ++i) {
        const Note& n = pending_[i];
        if (i > 0 && pending_[i - 1].markerHandle != n.markerHandle) ++h;
        const long line = inOrder ? marked[h] : editor_->SendScintilla(B::SCI_MARKERLINEFROMHANDLE, n.markerHandle);
        if (line >= 0) pieces[int(line)].append(QsciStyledText(n.text, n.style));
    }
    shownProblems_ = pieces;
    for (const auto& [line, list] : pieces) annotateLine(line);
    for (const auto& [line, text] : mapNotes_)
        if (!pieces.count(line)) annotateLine(line);
    deleteMarkers(editor_, 1u << pendingMarker_);

    pending_.clear();
    notesPending_ = false;
}

void Annotations::annotateLine(int line) {
    QList<QsciStyledText> list;
    if (const auto it = shownProblems_.find(line); it != shownProblems_.end()) list = it->second;
    if (const auto it = mapNotes_.find(line); it != mapNotes_.end() && line < editor_->lines()) {
        if (!list.isEmpty()) list.back() = QsciStyledText(list.back().text() + QLatin1Char('\n'), list.back().style());
        list.append(QsciStyledText(it->second, kMapNoteAnnotationStyle));
    }
    const unsigned annotated = 1u << annotatedMarker_;
    if (list.isEmpty()) {
        editor_->clearAnnotations(line);
        editor_->markerDelete(line, annotatedMarker_);
    } else {
        editor_->annotate(line, list);
        if (!(editor_->markersAtLine(line) & annotated)) editor_->markerAdd(line, annotatedMarker_);
    }
}

void Annotations::clearAll() {
    using B = QsciScintillaBase;
    const unsigned long mask = 1ul << annotatedMarker_;
    for (long line = editor_->SendScintilla(B::SCI_MARKERNEXT, 0UL, long(mask)); line >= 0;
         line = editor_->SendScintilla(B::SCI_MARKERNEXT, static_cast<unsigned long>(line + 1), long(mask)))
        editor_->clearAnnotations(int(line));
    deleteMarkers(editor_, 1u << annotatedMarker_);
}

void Annotations::setMapNotes(const std::map<int, QString>& notes) {
    if (notes.empty() && mapNotes_.empty()) return;  // every reply clears them
    // Quiet: a note about where code went, not a problem. Set when the palette changed only: a
    // style message makes Scintilla measure every line's layout again.
    const bool dark = editor_->palette().color(QPalette::Base).lightness() < 128;
    if (mapNoteStyleDark_ != dark) {
        const QsciStyle style(kMapNoteAnnotationStyle, QStringLiteral("Line map note"),
                              dark ? QColor(0x9f, 0xc5, 0xe8) : QColor(0x1f, 0x4f, 0x8f),
                              dark ? QColor(0x1e, 0x2a, 0x38) : QColor(0xea, 0xf2, 0xfb),
                              QFontDatabase::systemFont(QFontDatabase::FixedFont));
        style.apply(editor_);
        mapNoteStyleDark_ = dark;
    }
    auto old = std::move(mapNotes_);
    mapNotes_ = notes;
    for (const auto& [line, text] : old) annotateLine(line);
    for (const auto& [line, text] : mapNotes_) annotateLine(line);
}

}  // namespace nvpg::gui
