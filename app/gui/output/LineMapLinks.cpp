#include "gui/output/LineMapLinks.h"

#include <algorithm>
#include <map>
#include <set>

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPalette>
#include <QToolTip>

#include <Qsci/qsciscintilla.h>

#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/Markers.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/output/OutputView.h"

namespace nvpg::gui {

namespace {

using inspect::MappedOutput;

// Markers 12..20 are free in every pane: ModuleEditor's own take the first few (markerDefine
// hands out the lowest free), folding takes 25..31. Of background markers the highest number
// is drawn, so the strong mark lies over a band.
constexpr int kBandMarker = 12;
constexpr int kFocusMarker = kBandMarker + LineMapLinks::kPaletteSize;

bool darkTheme() {
    return QApplication::palette().color(QPalette::Base).lightness() < 128;
}

// Light enough under black text, distinct from their neighbours and from the selection; the
// dark ones keep light text readable.
QColor bandColour(int i) {
    static const QColor light[] = {QColor(0xff, 0xe0, 0xb2), QColor(0xc8, 0xe6, 0xc9), QColor(0xbb, 0xde, 0xfb),
                                   QColor(0xf8, 0xbb, 0xd0), QColor(0xff, 0xf5, 0x9d), QColor(0xd1, 0xc4, 0xe9),
                                   QColor(0xb2, 0xeb, 0xf2), QColor(0xdc, 0xed, 0xc8)};
    static const QColor dark[] = {QColor(0x5a, 0x3d, 0x1a), QColor(0x2e, 0x4a, 0x30), QColor(0x1f, 0x3a, 0x5a),
                                  QColor(0x5a, 0x2a, 0x3c), QColor(0x4f, 0x4a, 0x1a), QColor(0x3d, 0x33, 0x58),
                                  QColor(0x1f, 0x4a, 0x50), QColor(0x3f, 0x4a, 0x2a)};
    return (darkTheme() ? dark : light)[i % LineMapLinks::kPaletteSize];
}

void defineMarkers(QsciScintilla* e) {
    for (int i = 0; i < LineMapLinks::kPaletteSize; ++i) {
        e->SendScintilla(QsciScintillaBase::SCI_MARKERDEFINE, kBandMarker + i, QsciScintillaBase::SC_MARK_BACKGROUND);
        e->SendScintilla(QsciScintillaBase::SCI_MARKERSETBACK, kBandMarker + i, bandColour(i));
    }
    e->SendScintilla(QsciScintillaBase::SCI_MARKERDEFINE, kFocusMarker, QsciScintillaBase::SC_MARK_BACKGROUND);
    e->SendScintilla(QsciScintillaBase::SCI_MARKERSETBACK, kFocusMarker,
                     darkTheme() ? QColor(0x8a, 0x6d, 0x00) : QColor(0xff, 0xc1, 0x07));
    // The caret line's own background would hide the marks of the line clicked.
    e->setCaretLineVisible(false);
    e->SendScintilla(QsciScintillaBase::SCI_SETMOUSEDWELLTIME, 500);
}

// Through Scintilla itself: QsciScintilla::markerAdd takes only markers it handed out.
void addMarker(QsciScintilla* e, int line, int marker) {
    e->SendScintilla(QsciScintillaBase::SCI_MARKERADD, line, long(marker));
}

void deleteMarkers(QsciScintilla* e, int first, int last) {
    gui::deleteMarkers(e, markerRange(first, last));
}

std::vector<int> linesWith(QsciScintilla* e, unsigned mask) {
    std::vector<int> lines;
    long line = e->SendScintilla(QsciScintillaBase::SCI_MARKERNEXT, 0, mask);
    while (line >= 0) {
        lines.push_back(int(line) + 1);
        line = e->SendScintilla(QsciScintillaBase::SCI_MARKERNEXT, line + 1, mask);
    }
    return lines;
}

unsigned bandMask() {
    return ((1u << LineMapLinks::kPaletteSize) - 1) << kBandMarker;
}

// Shows 0-based line `line` a few lines below the top unless it is on screen already.
void scrollTo(QsciScintilla* e, int line) {
    e->SendScintilla(QsciScintillaBase::SCI_ENSUREVISIBLE, line);
    const long visible = e->SendScintilla(QsciScintillaBase::SCI_VISIBLEFROMDOCLINE, line);
    const long first = e->SendScintilla(QsciScintillaBase::SCI_GETFIRSTVISIBLELINE);
    const long onScreen = e->SendScintilla(QsciScintillaBase::SCI_LINESONSCREEN);
    if (visible >= first && visible < first + onScreen) return;
    e->setFirstVisibleLine(int(std::max<long>(0, visible - 3)));
}

QString outputWords(MappedOutput output, int lines) {
    const QString n = QString::number(lines);
    switch (output) {
        case MappedOutput::Ptx:
            return n + (lines == 1 ? QStringLiteral(" PTX line") : QStringLiteral(" PTX lines"));
        case MappedOutput::LtoPtx:
            return n + (lines == 1 ? QStringLiteral(" LTO PTX line") : QStringLiteral(" LTO PTX lines"));
        case MappedOutput::Sass:
            return n + QStringLiteral(" SASS instr");
    }
    return {};
}

qint64 key(int module, int line) {
    return (qint64(module) << 32) | qint64(unsigned(line));
}

}  // namespace

LineMapLinks::LineMapLinks(EditorArea* editors, OutputView* output, WorkspaceDocument* document, QObject* parent)
    : QObject(parent), editors_(editors), output_(output), document_(document) {
    for (auto o : inspect::kMappedOutputs) attachOutput(o);
    connect(output_, &OutputView::sassDisplayChanged, this, [this] {
        auto* e = output_->outputEditor(MappedOutput::Sass);
        deleteMarkers(e, kBandMarker, kFocusMarker);
        viewSass();
        if (map_ && enabled_) paintOutput(MappedOutput::Sass);
    });
    connect(editors_, &EditorArea::editorMade, this, [this](int module) { attachEditor(module); });
}

void LineMapLinks::attachOutput(MappedOutput output) {
    auto* e = output_->outputEditor(output);
    defineMarkers(e);
    watch(e);
}

void LineMapLinks::attachEditor(int module) {
    auto* e = editors_->madeEditor(module);
    if (!e) return;
    defineMarkers(e);
    e->setCaretLineVisible(true);  // an editor's caret line stays: people type there
    watch(e);
    // A bitcode module's text comes after its summary: the map's bands go on the text.
    connect(e, &ModuleEditor::disassembled, this, [this, e] { paintEditor(documentModuleOfEditor(e)); });
    paintEditor(module);
}

void LineMapLinks::watch(QsciScintilla* e) {
    e->viewport()->installEventFilter(this);
    e->installEventFilter(this);
    connect(e, &QsciScintillaBase::SCN_DWELLSTART, this, [this, e](int position, int x, int y) {
        if (position < 0) return;
        const int line = int(e->SendScintilla(QsciScintillaBase::SCI_LINEFROMPOSITION, position)) + 1;
        // A word with a doc entry shows that popup instead: two popups over one word hide each other.
        if (const auto* docs = HoverDocs::of(e); docs && !docs->textAt(position).isEmpty()) return;
        const QString text = hoverText(e, line);
        if (!text.isEmpty()) QToolTip::showText(e->viewport()->mapToGlobal(QPoint(x, y)), text, e);
    });
    connect(e, &QsciScintillaBase::SCN_DWELLEND, this, [] { QToolTip::hideText(); });
}

bool LineMapLinks::eventFilter(QObject* watched, QEvent* event) {
    QsciScintilla* e = nullptr;
    if (event->type() == QEvent::MouseButtonRelease && static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
        e = qobject_cast<QsciScintilla*>(watched->parent());
    else if (event->type() == QEvent::KeyRelease)
        e = qobject_cast<QsciScintilla*>(watched);
    if (e) {
        // After Scintilla has moved the caret: a click or a key that moved it onto a line.
        int line = 0, index = 0;
        e->getCursorPosition(&line, &index);
        if (event->type() == QEvent::MouseButtonRelease || lastLine_.value(e, -1) != line) {
            lastLine_[e] = line;
            userMovedTo(e);
        }
    }
    return QObject::eventFilter(watched, event);
}

void LineMapLinks::userMovedTo(QsciScintilla* e) {
    if (!map_ || !enabled_) return;
    int line = 0, index = 0;
    e->getCursorPosition(&line, &index);
    for (auto o : inspect::kMappedOutputs)
        if (output_->outputEditor(o) == e) return focusOutputLine(o, line + 1);
    const int module = documentModuleOfEditor(e);
    int offset = 0;
    const int m = mapModuleOf(module, &offset);
    if (m < 0) return;
    focusIrLine(QString::fromStdString(map_->modules[size_t(m)].name), line + 1 - offset);
}

int LineMapLinks::documentModuleOfEditor(QsciScintilla* e) const {
    for (int i = 0; i < document_->moduleCount(); ++i)
        if (editors_->madeEditor(i) == e) return i;
    return -1;
}

int LineMapLinks::mapModuleOf(int documentModule, int* offset) const {
    *offset = 0;
    if (!map_ || documentModule < 0) return -1;
    const int m = map_->moduleIndex(document_->module(documentModule).name);
    if (m < 0 || !map_->modules[size_t(m)].unmapped.empty()) return -1;
    if (auto* e = editors_->madeEditor(documentModule); e && e->isBitcodeView()) {
        // The view is llvm-dis-14's text under one header line; a summary is not that text.
        if (!e->disassembly()) return -1;
        *offset = 1;
    }
    return m;
}

void LineMapLinks::clearFocus() {
    for (auto o : inspect::kMappedOutputs)
        output_->outputEditor(o)->SendScintilla(QsciScintillaBase::SCI_MARKERDELETEALL, kFocusMarker);
    for (int i = 0; i < document_->moduleCount(); ++i)
        if (auto* e = editors_->madeEditor(i)) e->SendScintilla(QsciScintillaBase::SCI_MARKERDELETEALL, kFocusMarker);
}

void LineMapLinks::clearMarks() {
    for (auto o : inspect::kMappedOutputs) deleteMarkers(output_->outputEditor(o), kBandMarker, kFocusMarker);
    for (int i = 0; i < document_->moduleCount(); ++i)
        if (auto* e = editors_->madeEditor(i)) {
            deleteMarkers(e, kBandMarker, kFocusMarker);
            e->setMapNotes({});
        }
    emit focusChanged();
}

void LineMapLinks::focusIrLine(const QString& module, int line, QsciScintilla* source) {
    if (!map_ || !enabled_) return;
    clearFocus();
    const std::string name = module.toStdString();
    for (auto o : inspect::kMappedOutputs) {
        const auto& om = outputMap(o);
        auto* e = output_->outputEditor(o);
        if (!om.available() || int(om.origin.size()) > e->lines()) continue;
        const auto ranges = om.rangesOf(name, line);
        for (const auto& r : ranges)
            for (int l = r.first; l <= r.last; ++l) addMarker(e, l - 1, kFocusMarker);
        if (!ranges.empty() && e != source) scrollTo(e, ranges.front().first - 1);
    }
    const int doc = document_->indexOf(module);
    int offset = 0;
    if (mapModuleOf(doc, &offset) >= 0)
        if (auto* e = editors_->madeEditor(doc)) addMarker(e, line - 1 + offset, kFocusMarker);
    emit focusChanged();
}

void LineMapLinks::markIrLines(const std::set<std::pair<int, int>>& lines, std::optional<MappedOutput> skip,
                               QsciScintilla* noScroll) {
    if (!map_ || !enabled_) return;
    for (auto o : inspect::kMappedOutputs) {
        if (skip && o == *skip) continue;
        const auto& om = outputMap(o);
        auto* e = output_->outputEditor(o);
        if (!om.available() || int(om.origin.size()) > e->lines()) continue;
        int first = 0;
        for (const auto& [module, line] : lines)
            for (const auto& r : om.rangesOf(map_->modules[size_t(module)].name, line)) {
                for (int l = r.first; l <= r.last; ++l) addMarker(e, l - 1, kFocusMarker);
                if (!first || r.first < first) first = r.first;
            }
        if (first && e != noScroll) scrollTo(e, first - 1);
    }
    std::map<int, int> firstOf;  // document module -> first marked editor line (0-based)
    for (const auto& [module, line] : lines) {
        const int doc = document_->indexOf(QString::fromStdString(map_->modules[size_t(module)].name));
        int offset = 0;
        if (mapModuleOf(doc, &offset) < 0) continue;
        auto* e = editors_->madeEditor(doc);
        if (!e) continue;
        addMarker(e, line - 1 + offset, kFocusMarker);
        if (!firstOf.count(doc)) firstOf[doc] = line - 1 + offset;
    }
    for (const auto& [doc, line] : firstOf)
        if (auto* e = editors_->madeEditor(doc); e && e != noScroll) scrollTo(e, line);
}

void LineMapLinks::focusOutputLines(MappedOutput output, const std::vector<int>& lines) {
    clearFocus();
    auto* e = output_->outputEditor(output);
    for (int l : lines)
        if (l >= 1 && l <= e->lines()) addMarker(e, l - 1, kFocusMarker);
    if (!lines.empty() && lines.front() >= 1 && lines.front() <= e->lines()) scrollTo(e, lines.front() - 1);
    if (map_ && enabled_) {
        std::set<std::pair<int, int>> origins;
        const auto& om = outputMap(output);
        if (om.available())
            for (int l : lines)
                if (const auto origin = om.originOf(l); origin.module >= 0 && origin.module < int(map_->modules.size()))
                    origins.emplace(origin.module, origin.line);
        markIrLines(origins, output, e);
    }
    emit focusChanged();
}

void LineMapLinks::focusIrLines(const QString& module, const std::vector<int>& lines) {
    clearFocus();
    if (map_ && enabled_) {
        const int m = map_->moduleIndex(module.toStdString());
        std::set<std::pair<int, int>> marked;
        if (m >= 0)
            for (int l : lines) marked.emplace(m, l);
        markIrLines(marked, std::nullopt, nullptr);
    }
    emit focusChanged();
}

void LineMapLinks::markOutputLines(MappedOutput output, const std::vector<inspect::LineRange>& lines) {
    clearFocus();
    auto* e = output_->outputEditor(output);
    for (const auto& r : lines)
        for (int l = r.first; l <= r.last && l <= e->lines(); ++l) addMarker(e, l - 1, kFocusMarker);
    if (!lines.empty() && lines.front().first <= e->lines()) scrollTo(e, lines.front().first - 1);
    emit focusChanged();
}

void LineMapLinks::showIrLine(const QString& module, int line) {
    const int doc = document_->indexOf(module);
    if (doc < 0) return;
    editors_->editor(doc);  // made now, so that the offset is known
    int offset = 0;
    if (mapModuleOf(doc, &offset) < 0) offset = 0;
    editors_->showLocation(module, line + offset, 1);
}

void LineMapLinks::focusOutputLine(MappedOutput output, int line) {
    if (!map_ || !enabled_) return;
    const auto origin = outputMap(output).originOf(line);
    if (origin.module < 0 || origin.module >= int(map_->modules.size())) {
        clearFocus();
        emit focusChanged();
        return;
    }
    const QString name = QString::fromStdString(map_->modules[size_t(origin.module)].name);
    const int doc = document_->indexOf(name);
    if (doc < 0) return;
    editors_->editor(doc);  // made now, so that the offset is known
    int offset = 0;
    if (mapModuleOf(doc, &offset) < 0) return;
    editors_->showLocation(name, origin.line + offset, 1);
    focusIrLine(name, origin.line, output_->outputEditor(output));
}

QString LineMapLinks::hoverText(QsciScintilla* e, int line) const {
    if (!map_ || !enabled_) return {};
    std::string module;
    int irLine = 0;
    bool isOutput = false;
    for (auto o : inspect::kMappedOutputs)
        if (output_->outputEditor(o) == e) {
            isOutput = true;
            const auto origin = outputMap(o).originOf(line);
            if (origin.module < 0 || origin.module >= int(map_->modules.size())) return {};
            module = map_->modules[size_t(origin.module)].name;
            irLine = origin.line;
        }
    if (!isOutput) {
        int offset = 0;
        const int m = mapModuleOf(documentModuleOfEditor(e), &offset);
        if (m < 0) return {};
        module = map_->modules[size_t(m)].name;
        irLine = line - offset;
    }
    QString text = QString::fromStdString(map_->describe(module, irLine));
    const QString label = libdeviceLabel(QString::fromStdString(module), irLine);
    if (!text.isEmpty() && !label.isEmpty()) text += QLatin1Char('\n') + label;
    return text;
}

QString LineMapLinks::libdeviceLabel(const QString& module, int line) const {
    if (!map_) return {};
    const std::string name = module.toStdString();
    // One entry per function: "__nv_sinf (libdevice): 104 PTX lines · 98 LTO PTX lines".
    QStringList functions;
    QString current, text;
    for (const auto& x : map_->libdevice) {
        if (x.module != name || x.line != line) continue;
        const QString f = QString::fromStdString(x.function);
        if (f != current) {
            if (!text.isEmpty()) functions << text;
            current = f;
            text = tr("%1 (libdevice): ").arg(f);
        } else {
            text += QStringLiteral(" · ");
        }
        text += outputWords(x.output, x.lines);
    }
    if (!text.isEmpty()) functions << text;
    return functions.join(QStringLiteral("; "));
}

std::vector<int> LineMapLinks::focusedLines(QsciScintilla* e) {
    return linesWith(e, 1u << kFocusMarker);
}

std::vector<int> LineMapLinks::bandedLines(QsciScintilla* e) {
    return linesWith(e, bandMask());
}

int LineMapLinks::bandOf(QsciScintilla* e, int line) {
    const unsigned marks = unsigned(e->markersAtLine(line - 1)) & bandMask();
    for (int i = 0; i < kPaletteSize; ++i)
        if (marks & (1u << (kBandMarker + i))) return i;
    return -1;
}

void LineMapLinks::resultShown(bool mapping) {
    clearMarks();
    map_.reset();
    colours_.clear();
    mapping_ = mapping && enabled_;
    gotNone_ = false;
    updateNotes();
}

void LineMapLinks::setMap(std::shared_ptr<const inspect::LineMap> map) {
    mapping_ = false;
    clearMarks();
    colours_.clear();
    map_.reset();
    gotNone_ = !map;
    // Edited since the request: the map is of the text before, and the next one is coming.
    if (!enabled_ || editedSinceRequest_) {
        updateNotes();
        return;
    }
    map_ = std::move(map);
    viewSass();
    if (map_) {
        // Colours by IR line, in line order per module: neighbouring lines differ.
        for (int m = 0; m < int(map_->modules.size()); ++m) {
            std::set<int> lines;
            for (auto o : inspect::kMappedOutputs)
                for (const auto& l : map_->output(o).lines)
                    if (l.module == map_->modules[size_t(m)].name) lines.insert(l.line);
            int n = 0;
            for (int l : lines) colours_[key(m, l)] = n++ % kPaletteSize;
        }
        paintOutputs();
        for (int i = 0; i < document_->moduleCount(); ++i) paintEditor(i);
    }
    updateNotes();
}

void LineMapLinks::paintOutputs() {
    for (auto o : inspect::kMappedOutputs) paintOutput(o);
}

void LineMapLinks::paintOutput(MappedOutput o) {
    const auto& om = outputMap(o);
    auto* e = output_->outputEditor(o);
    // A map of other text than the pane's (never expected): no colours rather than wrong ones.
    if (!om.available() || int(om.origin.size()) > e->lines()) return;
    for (int l = 0; l < int(om.origin.size()); ++l) {
        const auto& origin = om.origin[size_t(l)];
        if (origin.module < 0) continue;
        const auto it = colours_.constFind(key(origin.module, origin.line));
        if (it != colours_.constEnd()) addMarker(e, l, kBandMarker + *it);
    }
}

const inspect::OutputMap& LineMapLinks::outputMap(MappedOutput o) const {
    if (o == MappedOutput::Sass && sassShown_) return *sassShown_;
    return map_->output(o);
}

void LineMapLinks::viewSass() {
    sassShown_.reset();
    if (!map_ || !map_->sass.available()) return;
    // The SASS pane shows nvdisasm's listing compact: the map's lines are the listing's.
    if (const auto view = output_->sassView())
        sassShown_ =
            std::make_shared<const inspect::OutputMap>(inspect::mapThroughView(map_->sass, *view, map_->modules));
}

void LineMapLinks::paintEditor(int module) {
    auto* e = editors_->madeEditor(module);
    if (!e || !map_) return;
    deleteMarkers(e, kBandMarker, kFocusMarker);
    const int m = map_->moduleIndex(document_->module(module).name);
    if (m < 0) {
        e->setMapNotes({});
        return;
    }
    const auto& mm = map_->modules[size_t(m)];
    if (!mm.unmapped.empty()) {
        // A bitcode module without its disassembly: why it has no colours, under its first line.
        e->setMapNotes({{0, tr("No line map for this module: %1").arg(QString::fromStdString(mm.unmapped))}});
        return;
    }
    int offset = 0;
    if (mapModuleOf(module, &offset) < 0) return;
    for (auto it = colours_.constBegin(); it != colours_.constEnd(); ++it) {
        if (int(it.key() >> 32) != m) continue;
        const int line = int(it.key() & 0xffffffff);
        addMarker(e, line - 1 + offset, kBandMarker + it.value());
    }
    std::map<int, QString> notes;
    for (const auto& x : map_->libdevice)
        if (x.module == mm.name) notes[x.line - 1 + offset] = libdeviceLabel(QString::fromStdString(x.module), x.line);
    e->setMapNotes(notes);
}

void LineMapLinks::updateNotes() {
    for (auto o : inspect::kMappedOutputs) {
        auto* e = output_->outputEditor(o);
        const bool hasText = e->length() > 0;
        QString note;
        if (enabled_ && hasText) {
            if (mapping_)
                note = tr("mapping lines…");
            else if (gotNone_ && !editedSinceRequest_)
                note = tr("No line map: the line-annotated compile gave none (it failed or was stopped)");
            else if (map_ && !map_->output(o).available())
                note = tr("No line map: %1").arg(QString::fromStdString(map_->output(o).unavailable));
        }
        output_->setMapNote(o, note);
    }
}

void LineMapLinks::textEdited() {
    editedSinceRequest_ = true;
    if (!map_ && !gotNone_) return;
    clearMarks();
    map_.reset();
    colours_.clear();
    gotNone_ = false;
    updateNotes();
}

void LineMapLinks::requested() {
    editedSinceRequest_ = false;
}

void LineMapLinks::setEnabled(bool on) {
    enabled_ = on;
    if (!on) {
        clearMarks();
        map_.reset();
        colours_.clear();
        mapping_ = gotNone_ = false;
    }
    updateNotes();
}

void LineMapLinks::attach(CompileController* controller) {
    connect(controller, &CompileController::lineMapShown, this,
            [this](quint64, std::shared_ptr<const inspect::LineMap> map) { setMap(std::move(map)); });
    connect(controller, &CompileController::busyChanged, this, [this](bool busy) {
        if (busy) requested();
    });
}

}  // namespace nvpg::gui
