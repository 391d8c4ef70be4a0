#pragma once

#include <array>
#include <functional>
#include <memory>
#include <optional>

#include <QStringList>
#include <QTimer>
#include <QWidget>

#include "core/pipeline/Comparison.h"
#include "core/pipeline/History.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"
#include "gui/common/BackgroundWork.h"
#include "gui/compile/SupervisedEngine.h"
#include "gui/panels/CompareSession.h"

class QAction;
class QBoxLayout;
class QCheckBox;
class QComboBox;
class QLabel;
class QScrollArea;
class QStackedWidget;
class QTabBar;
class QTableWidget;
class QToolButton;
class QsciScintilla;

namespace nvpg::gui {

class CompileController;
class WorkspaceDocument;

// The Compare dock: two results side by side, their diff and their per-kernel figures. A side is
// the current compile, a pin (a result kept in the workspace: Pin Result) or a variant (another
// option set, and maybe another CUDA toolkit, saved in the workspace). A variant shown on a side
// is compiled from the same modules on every edit, on an engine process of its own (its own
// libNVVM: two releases share a soname). What the pair means (the diff, the verdict, the
// figures) is pipeline::Comparison's; this view only shows it. A variant may also compile other
// modules (another version of the program's, read from files) with the same options.
class ComparePanel : public QWidget {
    Q_OBJECT

public:
    // `appToolkit` and `settings`: the app's own toolkit and engine settings, which a variant
    // without a toolkit of its own uses.
    ComparePanel(WorkspaceDocument* document, std::shared_ptr<const toolkit::Toolkit> appToolkit,
                 EngineSettings settings, QWidget* parent = nullptr);
    ~ComparePanel() override;
    // The compile shown is the current side; the controller's history gives the earlier ones.
    void attach(CompileController* controller);

    // Copies the editors' text into the document before a variant compiles.
    void setFlush(std::function<void()> flush) { flush_ = std::move(flush); }
    // The outputs a variant's compile asks for: those the main compile asks for.
    void setOutputs(unsigned outputs) { outputs_ = outputs; }
    void setAppToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, EngineSettings settings);
    // The current compile's result as the output panes show it (null: none, or no result).
    void setCurrent(std::shared_ptr<const pipeline::CompileResult> result);
    // The session's compiles (the compile controller's), which the sides "previous compile" and
    // "history:ID" show; the panel is told when it changed (historyChanged), before the new
    // current result comes through setCurrent.
    void setHistory(const pipeline::CompileHistory* history) { history_ = history; }
    void historyChanged();

    // A side names what it shows: "current", "pin:NAME" or "variant:NAME".
    static QString pinSide(const QString& name) { return QStringLiteral("pin:") + name; }
    static QString variantSide(const QString& name) { return QStringLiteral("variant:") + name; }
    static constexpr const char* kCurrent = "current";
    // The compile before the current one, and an entry of the session's history by its id.
    static constexpr const char* kPrevious = "history:previous";
    static QString historySide(uint64_t id) { return QStringLiteral("history:") + QString::number(id); }
    // The transient side of "Show effect": the modules with one option changed, compiled like a
    // variant but never saved in the workspace.
    static constexpr const char* kEffect = "effect";
    // Shows the current compile (A) beside the same modules compiled with `options` (B), named
    // `label` ("ftz 0 → 1"), with `explanation` (the docs' paragraph on that option) above the diff.
    void showEffect(const nvvm::Options& options, const QString& label, const QString& explanation);
    QString effectText() const;  // the paragraph shown, empty when no side is the effect
    // The paragraph is folded under a one-line toggle ("What ftz 0 → 1 does") until clicked.
    QToolButton* effectToggle() const { return effectToggle_; }
    void setSides(const QString& a, const QString& b);
    // "What did the last compile change in the PTX?": the previous compile (A) beside the current
    // one (B), their PTX, the Diff tab in front.
    void showSinceLastCompile();
    // For a workspace just opened: its first two variants side by side, else its newest pin (or
    // its one variant) beside the current compile. False when it has neither (the sides are then
    // the previous compile and the current one, as in a new window).
    bool showSaved();
    QString side(int i) const;
    QStringList sideChoices() const;  // every side the combos offer, in their order
    void setOutput(pipeline::CompareOutput what);

    // Keeps the current result in the workspace as a pin named `name` (made unique); it fails
    // when there is no result to keep. The pin becomes side A, the current compile side B.
    support::Status pinCurrent(const QString& name);
    QString defaultPinName() const;

    // What the view shows, for the main window and tests.
    const std::optional<pipeline::Comparison>& comparison() const {
        catchUp();
        return comparison_;
    }
    QString verdict() const;
    QString sideNotice(int i) const;  // why side i has no result ("compiling…", a missing toolkit)
    QString sideLabel(int i) const;
    QString sideText(int i) const;  // what side i's pane shows
    std::shared_ptr<const pipeline::CompileResult> sideResult(int i) const { return sides_[size_t(i)].result; }
    bool compiling() const;  // a variant side's compile is in flight
    QsciScintilla* diffPane() const {
        catchUp();
        return diff_;
    }
    QsciScintilla* sidePane(int i) const {
        catchUp();
        return panes_[size_t(i)];
    }
    QTableWidget* figuresTable() const {
        catchUp();
        return figures_;
    }
    // The views, switched by the tabs over them (viewBar).
    enum class View { SideBySide, Diff, Figures };
    void showView(View view);
    View view() const;
    QTabBar* viewBar() const { return viewBar_; }
    // Whether the controls and verdict sit in a column beside the views (a wide dock) or over them.
    bool besideViews() const { return wide_; }
    QComboBox* sideCombo(int i) const { return combos_[size_t(i)]; }
    // "Ignore renumbering": the normalized diff (pipeline::DiffStyle) when checked, the default.
    QCheckBox* normalizedBox() const { return normalized_; }

    // The toolkits found on this machine (toolkit::findToolkits, with the folders added in
    // Settings), read once in the background; empty until then.
    const std::vector<toolkit::FoundToolkit>& toolkits() const { return toolkits_; }

public slots:
    // The modules or the workspace's settings changed: the variant sides compile again, after a
    // short delay while typing goes on.
    void edited();
    // Dialogs: add a variant, edit or remove the one shown on side B (else A), delete the pin shown.
    void addVariant();
    void editVariant();
    void removeVariant();
    void removePin();

signals:
    // The view shows a new comparison, or a side's notice changed.
    void updated();
    void toolkitsFound();

private:
    struct Side {
        QString key;
        std::shared_ptr<const pipeline::CompileResult> result;
        QString notice;
        QString label;
    };
    void rebuildChoices();
    void refreshSide(size_t i, bool compile);
    void compileVariants();
    void onReply(size_t i, const EngineReply& reply);
    void onLate(size_t i, std::shared_ptr<const pipeline::CompileResult> result);
    void recompute();
    // A new current result while the panel is hidden is compared once it shows, or once asked
    // for: comparing it and filling the panes cost the UI thread ~30 ms per reply of a 3,000-line
    // module while nobody looked.
    void catchUp() const;
    mutable bool behind_ = false;

protected:
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;  // the column's width follows the font (zoom)
    // The arrangement over the views': a dock made narrower than the column and the views need
    // puts the column over them (resizeEvent), rather than refusing to narrow.
    QSize minimumSizeHint() const override;

private:
    void showVariantDialog(const workspace::Variant* editing);
    QString toolkitWords(const std::string& root, const std::string& release) const;
    QString variantShown() const;  // the variant on side B, else A; empty when neither
    // The variant a side compiles: a workspace variant's, or the effect's; null for other sides.
    const workspace::Variant* variantFor(const QString& key) const;
    static bool compiledSide(const QString& key);
    bool effectShown() const;  // a side is the effect
    void showEffectNote();     // the toggle while the effect is shown, the paragraph while unfolded
    void fitEffectNote();      // the paragraph as tall as its lines, kEffectLines at most
    static constexpr int kEffectLines = 5;
    // The column of controls beside the views (`wide`) or over them.
    void arrange(bool wide);
    static constexpr int kColumnChars = 58;  // the column's width beside the views, in characters

    WorkspaceDocument* document_;
    std::shared_ptr<const toolkit::Toolkit> appToolkit_;
    EngineSettings settings_;
    std::function<void()> flush_;
    unsigned outputs_ = 0;
    std::shared_ptr<const pipeline::CompileResult> current_;
    const pipeline::CompileHistory* history_ = nullptr;
    std::optional<workspace::Variant> effect_;
    std::array<Side, 2> sides_;
    std::unique_ptr<CompareSession> session_;  // the variant sides' engines
    pipeline::CompareOutput output_ = pipeline::CompareOutput::Ptx;
    std::optional<pipeline::Comparison> comparison_;
    std::vector<toolkit::FoundToolkit> toolkits_;
    QTimer debounce_;

    QBoxLayout* main_ = nullptr;
    QWidget* column_ = nullptr;
    QScrollArea* columnScroll_ = nullptr;
    QWidget* right_ = nullptr;  // the paragraph of an effect, unfolded, over the views
    bool wide_ = false;
    std::array<QComboBox*, 2> combos_{};
    QComboBox* outputCombo_ = nullptr;
    QLabel* verdict_ = nullptr;
    QToolButton* effectToggle_ = nullptr;
    QScrollArea* effectArea_ = nullptr;
    QLabel* effectNote_ = nullptr;
    QTabBar* viewBar_ = nullptr;
    QStackedWidget* views_ = nullptr;
    std::array<QLabel*, 2> headers_{};
    std::array<QsciScintilla*, 2> panes_{};
    QsciScintilla* diff_ = nullptr;
    QTableWidget* figures_ = nullptr;
    QAction* removePin_ = nullptr;
    QCheckBox* normalized_ = nullptr;
    QAction* editVariant_ = nullptr;
    QAction* removeVariant_ = nullptr;
};

}  // namespace nvpg::gui
