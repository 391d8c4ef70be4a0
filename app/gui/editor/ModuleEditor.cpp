#include "gui/editor/ModuleEditor.h"

#include <QAccessible>
#include <QAccessibleWidget>

#include <algorithm>
#include <map>
#include <utility>

#include <Qsci/qscicommand.h>
#include <Qsci/qscicommandset.h>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QImage>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>

#include "gui/common/Text.h"
#include "gui/editor/Completions.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/Lightbulb.h"
#include "gui/editor/LlvmDis.h"
#include "gui/editor/Markers.h"
#include "gui/editor/NvvmLexer.h"

namespace nvpg::gui {

namespace {

constexpr int kLineNumberMargin = 0;
constexpr int kSymbolMargin = 1;
constexpr int kFoldMargin = 2;

// Drawn on a 14-pixel grid, scaled to `pixels`.
QImage markerImage(const QColor& fill, bool triangle, int pixels = 14) {
    const int size = 14;
    QImage img(pixels, pixels, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.scale(pixels / double(size), pixels / double(size));
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    if (triangle) {
        const QPointF pts[] = {{size / 2.0, 1.0}, {size - 1.0, size - 1.5}, {1.0, size - 1.5}};
        p.drawPolygon(pts, 3);
        p.setPen(QPen(Qt::white, 1.6, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(size / 2.0, 5.0), QPointF(size / 2.0, 8.5));
        p.drawPoint(QPointF(size / 2.0, 10.8));
    } else {
        p.drawEllipse(QRectF(1, 1, size - 2, size - 2));
        p.setPen(QPen(Qt::white, 1.6, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(4.5, 4.5), QPointF(size - 4.5, size - 4.5));
        p.drawLine(QPointF(size - 4.5, 4.5), QPointF(4.5, size - 4.5));
    }
    return img;
}

// Scintilla binds these to its own commands (Ctrl+L cuts the line, Ctrl+/ moves by word part,
// Ctrl++/- zoom this editor alone); the window's actions use them, for every pane at once.
void freeKeys(QsciCommandSet* commands) {
    for (QKeyCombination key : {QKeyCombination(Qt::CTRL | Qt::Key_Backslash),
                                QKeyCombination(Qt::CTRL | Qt::Key_Slash), QKeyCombination(Qt::CTRL | Qt::Key_L),
                                QKeyCombination(Qt::CTRL | Qt::Key_Plus), QKeyCombination(Qt::CTRL | Qt::Key_Equal),
                                QKeyCombination(Qt::CTRL | Qt::Key_Minus), QKeyCombination(Qt::CTRL | Qt::Key_0)}) {
        const int k = key.toCombined();
        while (auto* cmd = commands->boundTo(k)) {
            if (cmd->key() == k)
                cmd->setKey(0);
            else
                cmd->setAlternateKey(0);
        }
    }
}

// The accessible interface of a large module's editor (ModuleEditor::kPlainAccessibleLines):
// its role and name, without the text interface that counts characters from the start.
QAccessibleInterface* plainAccessibleForLargeModules(const QString& className, QObject* object) {
    if (className != QLatin1String(ModuleEditor::staticMetaObject.className())) return nullptr;
    auto* editor = qobject_cast<ModuleEditor*>(object);
    if (!editor || !editor->plainAccessible()) return nullptr;
    return new QAccessibleWidget(editor, QAccessible::EditableText);
}

bool isTokenChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '$' || c == '-';
}

}  // namespace

void ModuleEditor::setDisassemblerOverride(std::optional<QString> program) {
    LlvmDis::setOverride(std::move(program));
}

bool ModuleEditor::hasDisassembler() {
    return !LlvmDis::program().isEmpty();
}

std::optional<std::string> ModuleEditor::disassembly() const {
    return bitcode_ ? disassembly_ : std::nullopt;
}

ModuleEditor::ModuleEditor(QWidget* parent) : QsciScintilla(parent) {
    // Ctrl+\ splits the editor area (as in most editors); Scintilla's default binding for it,
    // "move right one word part", would swallow the key. The same for the window's other keys.
    freeKeys(standardCommands());
    setUtf8(true);
    setEolMode(EolUnix);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    // The monospace font's underscore lies on the line's last pixel row, where a note's box and
    // the next line's band are drawn: "__nv_sinf" read "nv sinf". Two pixels below the text keep
    // it clear.
    setExtraDescent(2);

    lexer_ = new NvvmLexer(this);
    setLexer(lexer_);
    Completions::install(lexer_);

    setMarginsFont(mono);
    setMarginsForegroundColor(QColor(0x8a, 0x8a, 0x8a));
    setMarginsBackgroundColor(QColor(0xf6, 0xf6, 0xf6));
    setMarginType(kLineNumberMargin, NumberMargin);
    setMarginLineNumbers(kLineNumberMargin, true);
    setMarginType(kSymbolMargin, SymbolMargin);
    setMarginWidth(kSymbolMargin, 18);
    setFolding(BoxedTreeFoldStyle, kFoldMargin);
    setFoldMarginColors(QColor(0xf6, 0xf6, 0xf6), QColor(0xf6, 0xf6, 0xf6));
    updateLineNumberWidth();
    connect(this, &QsciScintilla::linesChanged, this, &ModuleEditor::updateLineNumberWidth);
    connect(this, &QsciScintilla::linesChanged, this, &ModuleEditor::updateAccessibleKind);
    // After QsciScintillaBase's constructor has installed QScintilla's factory: Qt asks the
    // factories installed last first.
    static const bool plainFactoryInstalled = [] {
        QAccessible::installFactory(plainAccessibleForLargeModules);
        return true;
    }();
    (void)plainFactoryInstalled;

    setBraceMatching(SloppyBraceMatch);
    setMatchedBraceBackgroundColor(QColor(0xd6, 0xea, 0xd6));
    setUnmatchedBraceForegroundColor(QColor(0xd0, 0x00, 0x00));
    setCaretLineVisible(true);
    setCaretLineBackgroundColor(QColor(0xf0, 0xf4, 0xfa));
    setIndentationsUseTabs(false);
    setTabWidth(4);
    setAutoIndent(true);

    setAutoCompletionSource(AcsAPIs);
    setAutoCompletionThreshold(2);
    setAutoCompletionCaseSensitivity(true);
    setAutoCompletionUseSingle(AcusNever);
    setCallTipsStyle(CallTipsNoContext);
    setCallTipsPosition(CallTipsBelowText);
    connect(this, &QsciScintillaBase::SCN_CHARADDED, this, &ModuleEditor::onCharAdded);
    connect(
        this, &QsciScintillaBase::SCN_MODIFIED, this,
        [this](int position, int type, const char*, int, int, int, int, int, int, int) { onModified(position, type); });

    errorIndicator_ = indicatorDefine(SquiggleIndicator);
    setIndicatorForegroundColor(QColor(0xe0, 0x10, 0x10), errorIndicator_);
    warningIndicator_ = indicatorDefine(SquiggleIndicator);
    setIndicatorForegroundColor(QColor(0xe0, 0x8a, 0x00), warningIndicator_);
    errorMarker_ = markerDefine(markerImage(QColor(0xd3, 0x2f, 0x2f), false));
    warningMarker_ = markerDefine(markerImage(QColor(0xef, 0x8f, 0x00), true));
    fixErrorMarker_ = markerDefine(lightbulbImage(QColor(0xd3, 0x2f, 0x2f)));
    fixWarningMarker_ = markerDefine(lightbulbImage(QColor(0xef, 0x8f, 0x00)));
    connect(this, &QsciScintillaBase::SCN_ZOOM, this, &ModuleEditor::sizeMarkers);
    setMarginMarkerMask(
        kSymbolMargin, (1 << errorMarker_) | (1 << warningMarker_) | (1 << fixErrorMarker_) | (1 << fixWarningMarker_));
    // A click on a lightbulb offers its fixes; elsewhere in the margin it selects the line, as
    // Scintilla does in a margin that is not sensitive.
    setMarginSensitivity(kSymbolMargin, true);
    connect(this, &QsciScintilla::marginClicked, this, [this](int margin, int line, Qt::KeyboardModifiers) {
        if (margin != kSymbolMargin) return;
        if (!offerFixes(line + 1)) setSelection(line, 0, line + 1, 0);
    });
    setMarginMarkerMask(kLineNumberMargin, 0);
    annotations_ = std::make_unique<Annotations>(
        this, [this] { return lastKey_.isValid() ? lastKey_.elapsed() : qint64(kAnnotationPauseMs); });
    HoverDocs::install(this, inspect::DocContext::Ir);
}

bool ModuleEditor::event(QEvent* event) {
    // QScintilla claims every key it has a command for, Esc included, before the window's
    // shortcuts see it: Esc is the editor's only while it has a list or tip to close.
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Escape && !isListActive() && !isCallTipActive()) {
            event->ignore();
            return false;
        }
    }
    return QsciScintilla::event(event);
}

QString ModuleEditor::wordBeforeCaret() const {
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    const long start = SendScintilla(SCI_POSITIONFROMLINE, SendScintilla(SCI_LINEFROMPOSITION, pos));
    QByteArray before = bytes(static_cast<int>(start), static_cast<int>(pos));
    before.chop(1);  // QsciScintilla::bytes() ends with Scintilla's terminating NUL
    qsizetype from = before.size();
    while (from > 0 && isTokenChar(before[from - 1])) --from;
    return QString::fromUtf8(before.mid(from));
}

QString ModuleEditor::currentCompletion() const {
    const long length = SendScintilla(SCI_AUTOCGETCURRENTTEXT, 0UL, static_cast<void*>(nullptr));
    if (length <= 0) return {};
    QByteArray text(length + 1, '\0');
    SendScintilla(SCI_AUTOCGETCURRENTTEXT, 0UL, static_cast<void*>(text.data()));
    text.truncate(length);
    return QString::fromUtf8(text);
}

void ModuleEditor::keyPressEvent(QKeyEvent* event) {
    // Only keys that would change the text: moving, selecting, copying and shortcuts still work.
    const bool command = event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
    const bool edits =
        event->matches(QKeySequence::Paste) || event->matches(QKeySequence::Cut) ||
        event->matches(QKeySequence::Undo) || event->matches(QKeySequence::Redo) ||
        (!command && (!event->text().isEmpty() && event->text().at(0).isPrint())) ||
        (!command && (event->key() == Qt::Key_Backspace || event->key() == Qt::Key_Delete ||
                      event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter || event->key() == Qt::Key_Tab));
    if (bitcode_ && edits) {
        event->accept();
        emit typingRefused();
        return;
    }
    if (event->matches(QKeySequence::Undo) && undoFirst_ && undoFirst_()) {
        event->accept();
        return;
    }
    lastKey_.start();
    const auto mods = event->modifiers() & ~Qt::KeypadModifier;
    // As Qt Creator and VS Code do: Enter on an entry that is what was typed already ends the
    // line; accepting it would change nothing and swallow the newline.
    if (isListActive() && (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && mods == Qt::NoModifier &&
        currentCompletion() == wordBeforeCaret())
        cancelList();
    // A Ctrl chord that is nobody's shortcut (Ctrl+Shift+= where the layout does not make it
    // Ctrl++) must not type its character.
    if ((mods & Qt::ControlModifier) && (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal ||
                                         event->key() == Qt::Key_Minus || event->key() == Qt::Key_0)) {
        event->ignore();
        return;
    }
    // QScintilla 2.13 places its completion list and call tips on QGuiApplication::screenAt(the
    // caret) without checking for none: with the caret outside every screen (a window partly off
    // screen, a gap between monitors, the offscreen platform's small screen) the key that opens
    // one crashed the app (SIGSEGV in QScreen::availableGeometry). There this key opens neither.
    const bool offScreen = !caretOnAScreen();
    const auto source = autoCompletionSource();
    const auto tips = callTipsStyle();
    if (offScreen) {
        setAutoCompletionSource(AcsNone);
        setCallTipsStyle(CallTipsNone);
    }
    QsciScintilla::keyPressEvent(event);
    if (offScreen) {
        setAutoCompletionSource(source);
        setCallTipsStyle(tips);
    }
    tellQuietChange();
}

bool ModuleEditor::caretOnAScreen() const {
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    const int x = int(SendScintilla(SCI_POINTXFROMPOSITION, 0UL, pos));
    const int y = int(SendScintilla(SCI_POINTYFROMPOSITION, 0UL, pos));
    const int height = int(SendScintilla(SCI_TEXTHEIGHT, SendScintilla(SCI_LINEFROMPOSITION, pos)));
    for (const QPoint p : {QPoint(x, y), QPoint(x, y + 2 * height)})
        if (!QGuiApplication::screenAt(viewport()->mapToGlobal(p))) return false;
    return true;
}

void ModuleEditor::inputMethodEvent(QInputMethodEvent* event) {
    QsciScintilla::inputMethodEvent(event);
    tellQuietChange();
}

void ModuleEditor::onModified(int, int type) {
    if (!quietChanges_ || !(type & (SC_MOD_BEFOREINSERT | SC_MOD_BEFOREDELETE)) || quietChangePending_) return;
    quietChangePending_ = true;
    linesBeforeQuietChange_ = lines();
    // A change made outside a key event (a paste from the menu, an undo, a fix) is told once the
    // code that made it has returned.
    QMetaObject::invokeMethod(this, &ModuleEditor::tellQuietChange, Qt::QueuedConnection);
}

void ModuleEditor::tellQuietChange() {
    if (!quietChangePending_) return;
    quietChangePending_ = false;
    emit textChanged();
    if (lines() != linesBeforeQuietChange_) emit linesChanged();
}

void ModuleEditor::toggleComment() {
    if (isReadOnly()) return;
    int first = 0, last = 0, indexFrom = 0, indexTo = 0;
    const bool selection = hasSelectedText();
    if (selection) {
        getSelection(&first, &indexFrom, &last, &indexTo);
        if (indexTo == 0 && last > first) --last;  // a selection ending at a line's start
    } else {
        getCursorPosition(&first, &indexFrom);
        last = first;
    }
    bool allComments = true;
    int indent = -1;
    for (int line = first; line <= last; ++line) {
        const QString t = text(line).trimmed();
        if (t.isEmpty()) continue;
        indent = indent < 0 ? indentation(line) : std::min(indent, indentation(line));
        if (!t.startsWith(QLatin1Char(';'))) allComments = false;
    }
    if (indent < 0) return;  // only blank lines
    beginUndoAction();
    for (int line = first; line <= last; ++line) {
        if (text(line).trimmed().isEmpty()) continue;
        if (allComments) {
            const long at = SendScintilla(SCI_GETLINEINDENTPOSITION, line);
            const bool space = SendScintilla(SCI_GETCHARAT, at + 1) == ' ';
            SendScintilla(SCI_DELETERANGE, static_cast<unsigned long>(at), space ? 2L : 1L);
        } else {
            const long at = SendScintilla(SCI_FINDCOLUMN, line, indent);
            SendScintilla(SCI_INSERTTEXT, static_cast<unsigned long>(at), "; ");
        }
    }
    // The whole lines stay selected, so the same keys toggle them back.
    if (selection) {
        QString end = text(last);
        while (end.endsWith(QLatin1Char('\n')) || end.endsWith(QLatin1Char('\r'))) end.chop(1);
        setSelection(first, 0, last, int(end.size()));
    }
    endUndoAction();
}

void ModuleEditor::updateAccessibleKind() {
    const bool plain = lines() >= kPlainAccessibleLines;
    if (plain == plainAccessible_) return;
    plainAccessible_ = plain;
    quietChanges_ = plain;
    // Scintilla tells a change whose type bits meet the mask: without the insert and delete bits,
    // and without the bits that say who made a change (user, undo, redo, steps), only the
    // "before" notifications of an insertion or deletion are told (quietChanges()).
    constexpr unsigned long kWhoAndSteps = SC_PERFORMED_USER | SC_PERFORMED_UNDO | SC_PERFORMED_REDO |
                                           SC_MULTISTEPUNDOREDO | SC_LASTSTEPINUNDOREDO | SC_MULTILINEUNDOREDO |
                                           SC_STARTACTION;
    SendScintilla(SCI_SETMODEVENTMASK,
                  plain ? SC_MODEVENTMASKALL & ~(SC_MOD_INSERTTEXT | SC_MOD_DELETETEXT | kWhoAndSteps)
                        : static_cast<unsigned long>(SC_MODEVENTMASKALL));
    // The interface made before (by QScintilla's factory or by ours) is cached per object.
    if (QAccessibleInterface* made = QAccessible::queryAccessibleInterface(this))
        QAccessible::deleteAccessibleInterface(QAccessible::uniqueId(made));
}

void ModuleEditor::sizeMarkers() {
    const int pixels = std::max(14, int(SendScintilla(SCI_TEXTHEIGHT, 0L)) - 2);
    markerDefine(markerImage(QColor(0xd3, 0x2f, 0x2f), false, pixels), errorMarker_);
    markerDefine(markerImage(QColor(0xef, 0x8f, 0x00), true, pixels), warningMarker_);
    markerDefine(lightbulbImage(QColor(0xd3, 0x2f, 0x2f), pixels), fixErrorMarker_);
    markerDefine(lightbulbImage(QColor(0xef, 0x8f, 0x00), pixels), fixWarningMarker_);
    setMarginWidth(kSymbolMargin, pixels + 4);
    lineNumberDigits_ = 0;  // the numbers' width too
    updateLineNumberWidth();
}

void ModuleEditor::updateLineNumberWidth() {
    int digits = 1;
    for (int n = std::max(1, lines()); n >= 10; n /= 10) ++digits;
    digits = std::max(digits, 3);
    if (digits == lineNumberDigits_) return;
    lineNumberDigits_ = digits;
    // One spare digit of padding so the numbers do not touch the text.
    setMarginWidth(kLineNumberMargin, QString(digits + 1, QLatin1Char('9')));
}

// Bytes go in as they are (not through QString), so moduleText() gives back exactly what was
// set, whatever its line ends or encoding.
void ModuleEditor::loadBytes(const QByteArray& bytes) {
    setReadOnly(false);
    SendScintilla(SCI_SETUNDOCOLLECTION, 0UL);
    SendScintilla(SCI_CLEARALL);
    SendScintilla(SCI_APPENDTEXT, static_cast<uintptr_t>(bytes.size()), bytes.constData());
    SendScintilla(SCI_SETIDLESTYLING, lines() >= kIdleStylingLines ? SC_IDLESTYLING_TOVISIBLE : SC_IDLESTYLING_NONE);
    // Scintilla keeps no per-line heights until a line's height changes: the first annotation
    // shown builds them for every line, 11 ms for 200,000 lines, in the middle of the user's
    // typing. Built here, with the loading, by one that comes and goes.
    SendScintilla(SCI_ANNOTATIONSETTEXT, 0UL, "-");
    SendScintilla(SCI_ANNOTATIONSETTEXT, 0UL, static_cast<const char*>(nullptr));
    updateAccessibleKind();
    // Loading is not an edit; what the notifications of its lines said (or, quiet, did not) is
    // set here.
    quietChangePending_ = false;
    updateLineNumberWidth();
    SendScintilla(SCI_SETUNDOCOLLECTION, 1UL);
    SendScintilla(SCI_EMPTYUNDOBUFFER);
    setModified(false);
    SendScintilla(SCI_GOTOPOS, 0UL);
}

void ModuleEditor::setModule(const std::string& bytes, bool bitcode) {
    clearDiagnostics();
    bitcode_ = bitcode;
    disassembly_.reset();
    if (disassembler_) {
        // A run for the bytes shown before: its text is not wanted any more.
        disassembler_->disconnect(this);
        disassembler_->deleteLater();
        disassembler_ = nullptr;
    }
    if (!bitcode) {
        bitcodeBytes_.clear();
        loadBytes(QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size())));
        return;
    }
    bitcodeBytes_ = bytes;
    const QString program = LlvmDis::program();
    if (program.isEmpty()) {
        loadBytes(
            bitcodeSummaryText(bytes, {false, true, {}, QStringLiteral("llvm-dis-14 is not installed")}).toUtf8());
        setReadOnly(true);
        return;
    }
    // The summary now, the text when llvm-dis-14 has made it: a large module or a slow disk
    // must not hold the window.
    loadBytes(
        bitcodeSummaryText(bytes, {false, false, {}, QStringLiteral("llvm-dis-14 is disassembling it")}).toUtf8());
    setReadOnly(true);
    auto* run = new LlvmDis(this);
    disassembler_ = run;
    connect(run, &LlvmDis::finished, this, [this, run](const Disassembly& dis) { disassemblyEnded(run, dis); });
    run->start(program, bytes);
}

void ModuleEditor::disassemblyEnded(LlvmDis* run, const Disassembly& dis) {
    if (run != disassembler_) return;  // superseded: dropped already
    disassembler_ = nullptr;
    // Ended here or not, it goes: deleting the run kills the program it still runs.
    run->disconnect(this);
    run->deleteLater();
    QString shown;
    if (dis.ok) {
        disassembly_ = dis.text.toStdString();
        shown = QStringLiteral(
                    "; bitcode module (%1 bytes), shown as its llvm-dis-14 disassembly; "
                    "read-only\n")
                    .arg(bitcodeBytes_.size()) +
                dis.text;
    } else {
        shown = bitcodeSummaryText(bitcodeBytes_, dis);
    }
    loadBytes(shown.toUtf8());
    setReadOnly(true);
    emit disassembled();
}

ModuleEditor::~ModuleEditor() {
    if (LlvmDis* run = std::exchange(disassembler_, nullptr)) {
        run->disconnect(this);
        delete run;  // kills llvm-dis-14 if it still runs
    }
}

std::string ModuleEditor::moduleText() const {
    return std::string(moduleTextView());
}

std::string_view ModuleEditor::moduleTextView() const {
    if (bitcode_) return bitcodeBytes_;
    const long length = SendScintilla(SCI_GETLENGTH);
    if (length <= 0) return {};
    const char* data = static_cast<const char*>(SendScintillaPtrResult(SCI_GETCHARACTERPOINTER));
    return std::string_view(data, static_cast<size_t>(length));
}

void ModuleEditor::clearMarks() {
    const long length = SendScintilla(SCI_GETLENGTH);
    for (int indicator : {errorIndicator_, warningIndicator_}) {
        SendScintilla(SCI_SETINDICATORCURRENT, indicator);
        SendScintilla(SCI_INDICATORCLEARRANGE, 0UL, length);
    }
    // The problems' boxes still waiting go too, in the same walk over the lines.
    annotations_->dropPending((1u << errorMarker_) | (1u << warningMarker_) | (1u << fixErrorMarker_) |
                              (1u << fixWarningMarker_));
    fixes_.clear();
}

void ModuleEditor::clearDiagnostics() {
    clearMarks();
    annotations_->clearProblems();
}

void ModuleEditor::setMapNotes(const std::map<int, QString>& notes) {
    annotations_->setMapNotes(notes);
}

QString ModuleEditor::annotationText(int line) const {
    return annotation(line);
}

void ModuleEditor::setDiagnostics(const std::vector<nvvm::Diagnostic>& diagnostics) {
    auto all = std::make_shared<const std::vector<nvvm::Diagnostic>>(diagnostics);
    std::vector<const nvvm::Diagnostic*> mine;
    mine.reserve(all->size());
    for (const auto& d : *all) mine.push_back(&d);
    setDiagnostics(std::move(all), mine);
}

void ModuleEditor::setDiagnostics(nvvm::SharedDiagnostics all, const std::vector<const nvvm::Diagnostic*>& mine) {
    // While the user types, the boxes shown stay as they are (the code does not move) and the
    // new ones wait: markers and squiggles change at once, as they take no room.
    const bool typing = lastKey_.isValid() && lastKey_.elapsed() < kAnnotationPauseMs;
    const bool wait = typing || isListActive();
    if (wait) {
        clearMarks();  // the annotation boxes stay
    } else {
        clearDiagnostics();
    }
    const int lineCount = lines();
    std::map<int, std::vector<Annotations::Problem>> problems;  // per line
    std::map<int, std::pair<bool, std::vector<const nvvm::Fix*>>>
        lineFixes;  // per line: an error among them, the fixes
    for (const nvvm::Diagnostic* each : mine) {
        const nvvm::Diagnostic& d = *each;
        if (d.line <= 0) continue;  // names no place: the Problems panel shows it
        const int line = std::min(d.line, lineCount) - 1;
        const long lineStart = SendScintilla(SCI_POSITIONFROMLINE, line);
        const long lineEnd = SendScintilla(SCI_GETLINEENDPOSITION, line);

        int indicator = -1;
        if (d.severity == nvvm::Severity::Error) {
            indicator = errorIndicator_;
            markerAdd(line, errorMarker_);
        } else if (d.severity == nvvm::Severity::Warning) {
            indicator = warningIndicator_;
            markerAdd(line, warningMarker_);
        }

        if (indicator >= 0 && lineEnd > lineStart) {
            long from, to;
            if (d.column <= 0) {
                from = SendScintilla(SCI_GETLINEINDENTPOSITION, line);
                to = lineEnd;
                if (from >= to) from = lineStart;
            } else {
                // Columns count characters, as goTo's do.
                from = std::min<long>(positionFromLineIndex(line, d.column - 1), lineEnd);
                from = std::max(from, lineStart);
                if (from >= lineEnd) from = SendScintilla(SCI_POSITIONBEFORE, lineEnd);
                to = SendScintilla(SCI_POSITIONAFTER, from);
                auto charAt = [&](long pos) { return static_cast<char>(SendScintilla(SCI_GETCHARAT, pos)); };
                const char first = charAt(from);
                if (isTokenChar(first) || first == '@' || first == '%' || first == '!' || first == '#') {
                    while (to < lineEnd && isTokenChar(charAt(to))) ++to;
                }
            }
            SendScintilla(SCI_SETINDICATORCURRENT, indicator);
            SendScintilla(SCI_INDICATORFILLRANGE, static_cast<unsigned long>(from), to - from);
        }

        if (!d.fixes.empty()) {
            auto& [error, fixes] = lineFixes[line];
            error = error || d.severity == nvvm::Severity::Error;
            for (const auto& fix : d.fixes) fixes.push_back(&fix);
        }

        problems[line].push_back({d.severity, qstr(d.message)});
    }
    // The lightbulb takes the place of the line's error or warning mark: one mark per line, in
    // the severity's colour.
    for (auto& [line, entry] : lineFixes) {
        markerDelete(line, errorMarker_);
        markerDelete(line, warningMarker_);
        const int handle = markerAdd(line, entry.first ? fixErrorMarker_ : fixWarningMarker_);
        fixes_.push_back({handle, std::move(entry.second)});
    }
    diagnostics_ = std::move(all);
    annotations_->setProblems(problems, wait);
}

std::vector<int> ModuleEditor::markedLines() const {
    std::vector<int> out;
    const int mask = (1 << errorMarker_) | (1 << warningMarker_) | (1 << fixErrorMarker_) | (1 << fixWarningMarker_);
    for (long line = SendScintilla(SCI_MARKERNEXT, 0UL, mask); line >= 0;
         line = SendScintilla(SCI_MARKERNEXT, static_cast<unsigned long>(line + 1), mask))
        out.push_back(static_cast<int>(line) + 1);
    return out;
}

std::vector<nvvm::Fix> ModuleEditor::fixesAt(int line) const {
    std::vector<nvvm::Fix> out;
    for (const auto& f : fixes_)
        if (SendScintilla(SCI_MARKERLINEFROMHANDLE, f.markerHandle) == line - 1)
            for (const nvvm::Fix* fix : f.fixes) out.push_back(*fix);
    return out;
}

std::vector<int> ModuleEditor::fixLines() const {
    std::vector<int> out;
    for (const auto& f : fixes_)
        if (const long line = SendScintilla(SCI_MARKERLINEFROMHANDLE, f.markerHandle); line >= 0)
            out.push_back(int(line) + 1);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

QMenu* ModuleEditor::offerFixes(int line) {
    const std::vector<nvvm::Fix> fixes = fixesAt(line);
    if (fixes.empty()) return nullptr;
    auto* menu = new QMenu(this);
    menu->setObjectName(QStringLiteral("fixMenu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    for (size_t i = 0; i < fixes.size(); ++i) {
        auto* action = menu->addAction(lightbulbIcon(), tr("Fix: %1").arg(QString::fromStdString(fixes[i].title)));
        connect(action, &QAction::triggered, this, [this, line, i] { emit fixRequested(line, int(i)); });
    }
    // Under the lightbulb, at the line's left edge.
    const long pos = SendScintilla(SCI_POSITIONFROMLINE, line - 1);
    const int y = int(SendScintilla(SCI_POINTYFROMPOSITION, 0UL, pos)) + int(SendScintilla(SCI_TEXTHEIGHT, line - 1));
    menu->popup(viewport()->mapToGlobal(QPoint(0, y)));
    return menu;
}

void ModuleEditor::goTo(int line, int column) {
    // A completion list left open would, on the next Enter, replace everything from where it
    // opened to the new caret with its entry.
    if (isListActive()) cancelList();
    const int l = std::clamp(line, 1, std::max(1, lines())) - 1;
    SendScintilla(SCI_ENSUREVISIBLEENFORCEPOLICY, l);
    const long lineEnd = SendScintilla(SCI_GETLINEENDPOSITION, l);
    const long pos = std::min<long>(positionFromLineIndex(l, std::max(column, 1) - 1), lineEnd);
    SendScintilla(SCI_GOTOPOS, static_cast<unsigned long>(pos));
    SendScintilla(SCI_SCROLLCARET);
}

bool ModuleEditor::caretInCommentOrString() const {
    // The new character is not styled yet, so the line is read rather than its styles.
    const long pos = SendScintilla(SCI_GETCURRENTPOS);
    const long line = SendScintilla(SCI_LINEFROMPOSITION, pos);
    const long start = SendScintilla(SCI_POSITIONFROMLINE, line);
    const QByteArray prefix = bytes(static_cast<int>(start), static_cast<int>(pos));
    bool inString = false;
    for (char c : prefix) {
        if (c == '"') inString = !inString;
        if (c == ';' && !inString) return true;
    }
    return inString;
}

void ModuleEditor::onCharAdded(int ch) {
    if ((ch == '\n' || ch == '\r') && !isReadOnly()) {
        // QScintilla has copied the indentation of the line above; after a `{` the block's body
        // goes two further in, as the examples are written.
        int line = 0, index = 0;
        getCursorPosition(&line, &index);
        if (line > 0) {
            const QString above = text(line - 1);
            const qsizetype comment = above.indexOf(QLatin1Char(';'));
            if ((comment < 0 ? above : above.left(comment)).trimmed().endsWith(QLatin1Char('{'))) {
                const int indent = indentation(line - 1) + 2;
                setIndentation(line, indent);
                setCursorPosition(line, indent);
            }
        }
        return;
    }
    if (caretInCommentOrString()) {
        // Prose in comments should not pop up keyword lists or signatures.
        if (isListActive()) cancelList();
        if (isCallTipActive()) SendScintilla(SCI_CALLTIPCANCEL);
        return;
    }
    // '@' starts a global name: offer intrinsics and libdevice functions at once, before the
    // two-character threshold that ordinary words need.
    if (ch != '@' || isReadOnly() || isListActive() || !caretOnAScreen()) return;
    const char separator = static_cast<char>(SendScintilla(SCI_AUTOCGETSEPARATOR));
    const QByteArray list = Completions::globalNames().join(QLatin1Char(separator)).toUtf8();
    SendScintilla(SCI_AUTOCSHOW, 0UL, list.constData());
}

}  // namespace nvpg::gui
