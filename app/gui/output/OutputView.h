#pragma once

#include <memory>
#include <optional>

#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/inspect/LineMap.h"
#include "core/inspect/SassView.h"
#include "core/pipeline/OutputNames.h"
#include "core/pipeline/Summary.h"
#include "gui/compile/Engine.h"
#include "gui/output/FiguresTable.h"
#include "gui/output/OutputExport.h"

class QAction;
class QLabel;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QsciScintilla;

namespace nvpg::gui {

class CompileController;
class DiffPage;

// The right-hand side: two read-only panes side by side, the whole program's PTX (libNVVM) on
// the left, and on the right, as tabs, the LTO-linked PTX (nvJitLink) and the SASS (nvdisasm of
// the cubin the compile ended with), each under a header with sizes and stage times and a table
// of its kernels' figures (registers, spills, ...; SASS: registers and instructions); the LTO
// header adds the cubin size and what nvJitLink was given. Under each header a note says how
// its line map stands when it has none to show. A toggle (PTX vs Linked) shows the diff of the
// PTX and the linked PTX instead; Since Last Compile asks for the PTX's diff with the previous
// compile's. Export (OutputExport) writes PTX, LTO-IR, linked PTX, cubin or SASS to a
// file. Resting the mouse on a word of the PTX, LTO PTX or SASS shows its doc (HoverDocs).
class OutputView : public QWidget {
    Q_OBJECT

public:
    using Kind = pipeline::Artifact;
    // The SASS listing when it comes, then the late result (live registers, graph, map).
    void attach(CompileController* controller);

    explicit OutputView(QWidget* parent = nullptr);
    ~OutputView() override;

    // Fills both panes from a reply; an error reply keeps the last output and says why on top.
    void showReply(const EngineReply& reply);
    // The PTX part of a newer compile (Engine::ptxReplied): the PTX pane shows it, and the LTO
    // and SASS panes, still the older compile's, say so in their headers (ltoPending) until
    // showReply brings this compile's.
    void showPtx(const EngineReply& reply);
    bool ltoPending() const { return !ltoMark_.isEmpty(); }
    // The request whose output each pane shows (EngineReply::generation; 0 before any).
    quint64 ptxGeneration() const { return ptxGeneration_; }
    quint64 ltoGeneration() const { return ltoGeneration_; }
    // The complete result of the reply on screen, once its SASS is made (Engine::lateReplied).
    void showLate(const std::shared_ptr<const pipeline::CompileResult>& result);
    void clear();
    // The panes' text is from before a compile that was cancelled: the headers say so (`why`)
    // until the next reply.
    void markStale(const QString& why);
    bool isStale() const;
    void setDiffMode(bool on);
    bool diffMode() const;

    QString ptxText() const;
    QString ltoText() const;
    QString ptxHeader() const;
    QString ltoHeader() const;
    // nvdisasm's listing of the SASS pane (what Export writes), and the text the pane shows: the
    // compact view (offsets in the margin) unless the nvdisasm listing toggle is on.
    QString sassText() const;
    QString sassShownText() const;
    // The compact view on screen, for mapping listing lines to shown ones; null while the pane
    // shows the listing as it is.
    std::shared_ptr<const inspect::SassView> sassView() const { return sassView_; }
    void setSassRaw(bool raw);
    bool sassRaw() const { return sassRaw_; }
    QAction* sassRawAction() const { return sassRawAction_; }
    QString sassHeader() const;
    // Why the SASS pane has no text (no nvdisasm: how to get it); empty while it has text.
    QString sassNotice() const;
    QTableWidget* sassFiguresTable() const { return sassFigures_; }
    // Shows the SASS tab (or the LTO one) of the right-hand pane.
    void showSassTab(bool sass);
    bool sassTabShown() const;
    // Presenter mode: only the pane of `output` (the others hidden); nothing: every pane again.
    void showOnly(std::optional<inspect::MappedOutput> output);

    // The pane of one output, and the line under its header that says how its line map stands
    // ("mapping lines…", "no line map: why"); empty text hides it.
    QsciScintilla* outputEditor(inspect::MappedOutput output) const;
    void setMapNote(inspect::MappedOutput output, const QString& note);
    QString mapNote(inspect::MappedOutput output) const;
    // The line under a pane's header that names its kernels' live-register peak and its local
    // memory, with links (pressureLinkActivated); rich text, empty hides it.
    void setPressureNote(inspect::MappedOutput output, const QString& html, const QString& toolTip = {});
    QString pressureNote(inspect::MappedOutput output) const;
    QLabel* pressureLabel(inspect::MappedOutput output) const { return pressureNotes_[int(output)]; }

    // The header tooltips: libdevice functions (PTX), every kernel's figures (LTO).
    QString ptxHeaderToolTip() const;
    QString ltoHeaderToolTip() const;
    // Each pane's per-kernel figures (registers, spills, stack, shared, local, constant) as a
    // table under its header, and the caption over it that says where they come from (or why
    // there are none). Hidden while a pane has neither.
    QTableWidget* ptxFiguresTable() const { return ptxFigures_; }
    QTableWidget* ltoFiguresTable() const { return ltoFigures_; }
    QString ptxFiguresCaption() const;
    QString ltoFiguresCaption() const;
    // Unified diff of PTX → linked PTX; computed on first use after each new result.
    QString diffText() const;
    QString diffHeader() const;
    // The banner over the panes; empty while hidden.
    QString errorText() const;
    // Why the LTO pane has no text (no nvJitLink, a failed link); empty while it has text.
    QString ltoNotice() const;
    // What the main window knows and the result does not: why nvJitLink is missing here.
    void setLtoUnavailableReason(const QString& why);
    // The same for SASS: why no SASS is asked for here (nvdisasm not found, and how to get it).
    void setSassUnavailableReason(const QString& why);

    // The last result shown (kept across error replies); null before the first one.
    std::shared_ptr<const pipeline::CompileResult> result() const { return result_; }

    // Export of the result on screen: OutputExport's, which these pass on to.
    bool canExport(Kind kind) const { return export_->canExport(kind); }
    QStringList exportPaths(Kind kind, const QString& path) const { return export_->exportPaths(kind, path); }
    bool exportTo(Kind kind, const QString& path, QString* error = nullptr) {
        return export_->exportTo(kind, path, error);
    }
    void setExportBaseName(const QString& base) { export_->setBaseName(base); }

    // "PTX vs Linked": the toggle of the diff page (setDiffMode).
    QAction* diffAction() const { return diffAction_; }
    // "Since Last Compile": asks for the diff of the previous compile's PTX and this one's
    // (sinceLastCompileRequested; the window shows it in the Compare dock, from the history).
    // Enabled while there is a previous compile.
    QAction* sinceLastAction() const { return sinceLastAction_; }
    void setPreviousCompile(bool exists);
    QAction* exportAction(Kind kind) const { return export_->action(kind); }
    QsciScintilla* ptxEditor() const { return ptxEdit_; }
    QsciScintilla* ltoEditor() const { return ltoEdit_; }
    QsciScintilla* sassEditor() const { return sassEdit_; }
    QsciScintilla* diffEditor() const;

public slots:
    void exportPtx();
    void exportLtoIr();
    void exportLinkedPtx();
    void exportCubin();
    void exportSass();

signals:
    void diffModeChanged(bool on);
    void sinceLastCompileRequested();
    // The SASS pane's text or its view changed (a new listing, the raw toggle).
    void sassDisplayChanged();
    void exported(const QStringList& paths);
    // A link of a pane's pressure note was clicked: "peak", "local".
    void pressureLinkActivated(inspect::MappedOutput output, const QString& link);

protected:
    // The window's zoom reaches the figures tables: their rows and height follow the font.
    void changeEvent(QEvent* event) override;

private:
    void showResult(const std::shared_ptr<const pipeline::CompileResult>& result);
    // `olderOutput`: the panes keep an earlier compile's output, and the banner says so.
    void showBanner(const QString& text, bool olderOutput = true);
    void updateHeaders();
    void updateLtoPane();
    void updateSassPane();
    void showSassText(const std::string& listing);
    // Fills the PTX and (with `lto`) LTO figures tables from summary_; tables of more than kRowsPerTurn rows in
    // later turns of the event loop, one table per turn, and a table already showing the same
    // figures not again (FiguresTable::fillIfChanged).
    void updateFigures(bool lto = true);
    void fillFigures(int table);  // 0 PTX, 1 LTO
    quint64 figuresTurn_ = 0;     // a later turn fills only the newest figures
    void refreshDiff() const;

    std::shared_ptr<const pipeline::CompileResult> result_;
    pipeline::ResultSummary summary_;  // of result_: the headers and notices shown
    QString ltoUnavailable_;
    QString sassUnavailable_;
    // The headers' marks: the failed stage of the last reply on its pane; a cancel since then.
    QString ptxFailure_, ltoFailure_;
    bool stale_ = false;
    QString staleWhy_;
    // While the LTO and SASS panes are of an older compile than the PTX pane: what their headers say.
    QString ltoMark_;
    quint64 ptxGeneration_ = 0, ltoGeneration_ = 0;
    OutputExport* export_ = nullptr;

    QLabel* banner_ = nullptr;
    QStackedWidget* pages_ = nullptr;
    QSplitter* splitter_ = nullptr;
    QLabel* ptxHeader_ = nullptr;
    QLabel* ltoHeader_ = nullptr;
    QLabel* sassHeader_ = nullptr;
    QLabel* mapNotes_[3] = {};
    QLabel* pressureNotes_[3] = {};
    QTabWidget* rightTabs_ = nullptr;
    QLabel* sassFiguresCaption_ = nullptr;
    FiguresTable* sassFigures_ = nullptr;
    QStackedWidget* sassStack_ = nullptr;
    QLabel* sassNotice_ = nullptr;
    QsciScintilla* sassEdit_ = nullptr;
    std::string sassListing_;
    std::shared_ptr<const inspect::SassView> sassView_;
    bool sassRaw_ = false;
    QAction* sassRawAction_ = nullptr;
    QLabel* ptxFiguresCaption_ = nullptr;
    QLabel* ltoFiguresCaption_ = nullptr;
    FiguresTable* ptxFigures_ = nullptr;
    FiguresTable* ltoFigures_ = nullptr;
    QStackedWidget* ptxStack_ = nullptr;
    QStackedWidget* ltoStack_ = nullptr;
    QLabel* ptxNotice_ = nullptr;
    QLabel* ltoNotice_ = nullptr;
    QsciScintilla* ptxEdit_ = nullptr;
    QsciScintilla* ltoEdit_ = nullptr;
    DiffPage* diff_ = nullptr;
    QToolButton* diffButton_ = nullptr;
    QAction* diffAction_ = nullptr;
    QAction* sinceLastAction_ = nullptr;
    // The diff is computed lazily: dtl on large PTX is not free, and most of the time nobody
    // is looking at it.
    mutable bool diffStale_ = true;
};

}  // namespace nvpg::gui
