#include "gui/panels/ComparePanel.h"

#include <algorithm>

#include <Qsci/qscilexerdiff.h>
#include <Qsci/qsciscintilla.h>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <fmt/format.h>

#include "core/nvvm/Options.h"
#include "core/pipeline/ResultJson.h"
#include "core/pipeline/Summary.h"
#include "core/support/Text.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/PtxLexer.h"
#include "gui/output/Pane.h"
#include "gui/output/SymbolNames.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/VariantDialog.h"

namespace nvpg::gui {

namespace {

const QString kPinPrefix = QStringLiteral("pin:");
const QString kVariantPrefix = QStringLiteral("variant:");
const QString kHistoryPrefix = QStringLiteral("history:");

QString textOf(const pipeline::CompileResult& r, pipeline::CompareOutput what) {
    switch (what) {
        case pipeline::CompareOutput::Ptx:
            return qstr(r.ptx);
        case pipeline::CompareOutput::LtoPtx:
            return qstr(r.linkedPtx);
        case pipeline::CompareOutput::Sass:
            return qstr(r.sass);
    }
    return {};
}

}  // namespace

void ComparePanel::historyChanged() {
    rebuildChoices();
    for (size_t i = 0; i < 2; ++i)
        if (sides_[i].key.startsWith(kHistoryPrefix)) refreshSide(i, false);
    // The new current result follows (setCurrent), and with it the comparison; when it is a
    // later result of the same compile, the previous one is as it was.
    behind_ = true;
}

ComparePanel::~ComparePanel() = default;

void ComparePanel::setAppToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, EngineSettings settings) {
    appToolkit_ = std::move(toolkit);
    settings_ = std::move(settings);
    // Variants on the app's toolkit get engines of the new settings.
    session_->setAppToolkit(appToolkit_, settings_);
    for (size_t i = 0; i < 2; ++i) refreshSide(i, true);
    recompute();
}

void ComparePanel::setCurrent(std::shared_ptr<const pipeline::CompileResult> result) {
    current_ = std::move(result);
    for (size_t i = 0; i < 2; ++i)
        if (sides_[i].key == QLatin1String(kCurrent)) refreshSide(i, false);
    if (!isVisible()) {
        behind_ = true;
        return;
    }
    recompute();
}

void ComparePanel::catchUp() const {
    if (behind_) const_cast<ComparePanel*>(this)->recompute();
}

void ComparePanel::showEvent(QShowEvent* event) {
    catchUp();
    QWidget::showEvent(event);
}

QStringList ComparePanel::sideChoices() const {
    QStringList keys;
    for (int k = 0; k < combos_[0]->count(); ++k) keys << combos_[0]->itemData(k).toString();
    return keys;
}

void ComparePanel::rebuildChoices() {
    const auto& ws = document_->workspace();
    QList<QPair<QString, QString>> items = {{tr("Current compile"), QString::fromLatin1(kCurrent)},
                                            {tr("Previous compile"), QString::fromLatin1(kPrevious)}};
    for (const auto& p : ws.pins) items.append({tr("Pin: %1").arg(qstr(p.name)), pinSide(qstr(p.name))});
    for (const auto& v : ws.variants) items.append({tr("Variant: %1").arg(qstr(v.name)), variantSide(qstr(v.name))});
    if (effect_) items.append({tr("Effect: %1").arg(qstr(effect_->name)), QString::fromLatin1(kEffect)});
    // Every earlier compile of the session, newest first (the newest is the current one).
    if (history_)
        for (size_t k = 1; k < history_->entries().size(); ++k) {
            const auto& e = history_->entries()[k];
            items.append({tr("Compile %1 · %2 · %3").arg(e.id).arg(qstr(pipeline::historyTime(e)), qstr(e.cause)),
                          historySide(e.id)});
        }
    for (size_t i = 0; i < 2; ++i) {
        auto* c = combos_[i];
        c->clear();
        for (const auto& [text, key] : items) c->addItem(text, key);
        int at = c->findData(sides_[i].key);
        if (at < 0) {
            // Its pin or variant is gone, or its compile left the history.
            sides_[i].key = QString::fromLatin1(sides_[i].key.startsWith(kHistoryPrefix) ? kPrevious : kCurrent);
            at = c->findData(sides_[i].key);
        }
        c->setCurrentIndex(at);
    }
    const auto shown = variantShown();
    editVariant_->setEnabled(!shown.isEmpty());
    removeVariant_->setEnabled(!shown.isEmpty());
    removePin_->setEnabled(sides_[0].key.startsWith(kPinPrefix) || sides_[1].key.startsWith(kPinPrefix));
}

void ComparePanel::setSides(const QString& a, const QString& b) {
    sides_[0].key = a;
    sides_[1].key = b;
    rebuildChoices();
    for (size_t i = 0; i < 2; ++i) refreshSide(i, true);
    recompute();
}

void ComparePanel::showSinceLastCompile() {
    output_ = pipeline::CompareOutput::Ptx;
    outputCombo_->setCurrentIndex(outputCombo_->findData(int(output_)));
    setSides(QString::fromLatin1(kPrevious), QString::fromLatin1(kCurrent));
    showView(View::Diff);
}

bool ComparePanel::showSaved() {
    const auto& ws = document_->workspace();
    const QString current = QString::fromLatin1(kCurrent);
    if (ws.variants.size() >= 2)
        setSides(variantSide(qstr(ws.variants[0].name)), variantSide(qstr(ws.variants[1].name)));
    else if (!ws.variants.empty())
        setSides(current, variantSide(qstr(ws.variants[0].name)));
    else if (!ws.pins.empty())
        setSides(pinSide(qstr(ws.pins.back().name)), current);
    else
        return false;
    return true;
}

QString ComparePanel::side(int i) const {
    return sides_[size_t(i)].key;
}

void ComparePanel::setOutput(pipeline::CompareOutput what) {
    output_ = what;
    outputCombo_->setCurrentIndex(outputCombo_->findData(int(what)));
    recompute();
}

QString ComparePanel::toolkitWords(const std::string& root, const std::string& release) const {
    return VariantDialog::toolkitWords(appToolkit_.get(), root, release);
}

void ComparePanel::refreshSide(size_t i, bool compile) {
    auto& s = sides_[i];
    const auto& key = s.key;
    if (!compiledSide(key)) session_->drop(i);
    if (key == QLatin1String(kCurrent)) {
        s.result = current_;
        s.notice = current_ ? QString() : tr("No compile to show yet: compile (Ctrl+B).");
        s.label = tr("current compile · %1").arg(toolkitWords({}, {}));
        // What caused it, when it is the history's newest.
        if (history_ && current_ && !history_->entries().empty() && history_->entries().front().result == current_)
            s.label =
                tr("current compile (%1) · %2").arg(qstr(history_->entries().front().cause), toolkitWords({}, {}));
        return;
    }
    if (key.startsWith(kHistoryPrefix)) {
        const pipeline::HistoryEntry* e = nullptr;
        if (history_)
            e = key == QLatin1String(kPrevious) ? history_->previous()
                                                : history_->find(key.mid(kHistoryPrefix.size()).toULongLong());
        s.result = e ? e->result : nullptr;
        if (!e) {
            s.label = key == QLatin1String(kPrevious) ? tr("previous compile") : tr("an earlier compile");
            s.notice = key == QLatin1String(kPrevious)
                           ? tr("No previous compile yet: edit the modules or change an option, and this side shows "
                                "the compile before.")
                           : tr("That compile is no longer in the history (it keeps the last %1 compiles, within "
                                "%2 MiB). Pin a result (Build ▸ Pin Result) to keep it.")
                                 .arg(history_ ? history_->limits().entries : 0)
                                 .arg(history_ ? history_->limits().bytes >> 20 : 0);
            return;
        }
        s.notice.clear();
        s.label = tr("%1 · compile %2 at %3 · %4")
                      .arg(key == QLatin1String(kPrevious) ? tr("previous compile") : tr("history"))
                      .arg(e->id)
                      .arg(qstr(pipeline::historyTime(*e)), toolkitWords({}, {}));
        return;
    }
    if (key.startsWith(kPinPrefix)) {
        const auto name = key.mid(kPinPrefix.size());
        const auto* pin = document_->pin(name);
        s.result.reset();
        if (!pin) {
            s.notice = tr("The pin “%1” is not in the workspace any more.").arg(name);
            return;
        }
        s.label = tr("pin “%1” · pinned %2 · %3")
                      .arg(name, qstr(pin->pinned).replace(QLatin1Char('T'), QLatin1Char(' ')),
                           toolkitWords(pin->toolkit, pin->toolkitRelease));
        auto r = pipeline::pinnedResultFromJson(pin->result, pin->outputs);
        if (r) {
            s.result = std::make_shared<const pipeline::CompileResult>(std::move(*r));
            s.notice.clear();
        } else {
            s.notice = tr("The pin “%1” cannot be read: %2").arg(name, qstr(r.error().message));
        }
        return;
    }
    const auto* v = variantFor(key);
    const auto name = v ? qstr(v->name) : key.mid(kVariantPrefix.size());
    if (!v) {
        s.result.reset();
        s.notice = tr("The variant “%1” is not in the workspace any more.").arg(name);
        return;
    }
    std::vector<std::string> otherModules;
    for (const auto& m : v->modules) otherModules.push_back(m.name);
    s.label = key == QLatin1String(kEffect) ? tr("effect: %1 · %2").arg(name, toolkitWords({}, {}))
              : otherModules.empty()
                  ? tr("variant “%1” · %2").arg(name, toolkitWords(v->toolkit, v->toolkitRelease))
                  : tr("variant “%1” · other modules: %2 · %3")
                        .arg(name, qstr(support::joinShort(otherModules)), toolkitWords(v->toolkit, v->toolkitRelease));
    if (!session_->hasEngineFor(i, *v)) {
        s.result.reset();
        if (const auto made = session_->makeEngine(i, *v); !made) {
            // Never another toolkit in its place: the comparison would be of something else.
            s.notice =
                tr("The toolkit of variant “%1” (%2, %3) is missing: %4. Choose another one with Edit "
                   "Variant…, or put it back.")
                    .arg(name,
                         v->toolkitRelease.empty() ? tr("release unknown") : tr("CUDA %1").arg(qstr(v->toolkitRelease)),
                         qstr(v->toolkit), qstr(made.error().message));
            return;
        }
    }
    if (compile) {
        s.notice = s.result ? QString() : tr("compiling…");
        debounce_.stop();
        compileVariants();
    }
}

void ComparePanel::edited() {
    if (compiledSide(sides_[0].key) || compiledSide(sides_[1].key)) debounce_.start();
}

bool ComparePanel::compiling() const {
    return session_->waiting(0) || session_->waiting(1);
}

void ComparePanel::compileVariants() {
    bool any = false;
    for (size_t i = 0; i < 2; ++i) any = any || (compiledSide(sides_[i].key) && session_->hasEngine(i));
    if (!any) return;
    if (flush_) flush_();
    const auto& ws = document_->workspace();
    for (size_t i = 0; i < 2; ++i) {
        if (!compiledSide(sides_[i].key) || !session_->hasEngine(i)) continue;
        const auto* v = variantFor(sides_[i].key);
        if (!v) continue;
        pipeline::Job job;
        // Other modules replace the workspace's; everything else is the workspace's.
        job.modules = v->modules.empty() ? ws.modules : v->modules;
        job.options = v->options;
        job.libdevice = ws.libdevice;
        // Without a saved choice, other modules that call libdevice get it, as they would opened
        // or given to nvpg (the libdevice rule).
        if (!v->modules.empty() && !job.libdevice && !ws.libdeviceSaved)
            job.libdevice = !workspace::libdeviceCallsOf(v->modules).empty();
        job.verify = ws.verify;
        job.ltoMode = ws.ltoMode;
        job.outputs = outputs_ ? outputs_ : pipeline::kPtx;
        session_->compile(i, std::move(job));
    }
    emit updated();
}

void ComparePanel::onReply(size_t i, const EngineReply& reply) {
    auto& s = sides_[i];
    if (reply.result) {
        s.result = reply.result;
        s.notice.clear();
    } else {
        s.result.reset();
        s.notice = reply.error;
    }
    recompute();
}

void ComparePanel::onLate(size_t i, std::shared_ptr<const pipeline::CompileResult> result) {
    auto& s = sides_[i];
    s.result = std::move(result);
    recompute();
}

QString ComparePanel::verdict() const {
    catchUp();
    return verdict_->text();
}
QString ComparePanel::sideNotice(int i) const {
    return sides_[size_t(i)].notice;
}
QString ComparePanel::sideLabel(int i) const {
    return sides_[size_t(i)].label;
}
QString ComparePanel::sideText(int i) const {
    catchUp();
    return panes_[size_t(i)]->text();
}

void ComparePanel::recompute() {
    behind_ = false;
    for (size_t i = 0; i < 2; ++i) {
        const auto& s = sides_[i];
        const QString letter = i == 0 ? QStringLiteral("A") : QStringLiteral("B");
        headers_[i]->setText(QStringLiteral("%1: %2").arg(letter, s.label));
        QString text = s.result ? textOf(*s.result, output_) : QString();
        if (text.isEmpty() && s.result && !s.result->ok) text = qstr(pipeline::failureSummary(*s.result));
        setPaneText(panes_[i], s.result ? text : s.notice);
    }
    comparison_.reset();
    figures_->clear();
    figures_->setRowCount(0);
    if (sides_[0].result && sides_[1].result) {
        comparison_ = pipeline::compareResults(
            *sides_[0].result, *sides_[1].result, output_, sides_[0].label.toStdString(), sides_[1].label.toStdString(),
            normalized_->isChecked() ? pipeline::DiffStyle::Normalized : pipeline::DiffStyle::Raw);
        const auto& c = *comparison_;
        QString words = qstr(pipeline::comparisonVerdict(c));
        if (c.missingA.empty() && c.missingB.empty()) words += QLatin1Char('\n') + qstr(pipeline::figureChanges(c));
        if (compiling()) words += tr(" (a side is compiling…)");
        verdict_->setText(words);
        setPaneText(diff_, c.identical ? tr("The %1 of A and B is the same, byte for byte.")
                                             .arg(qstr(std::string(pipeline::compareOutputName(c.output))))
                                       : qstr(pipeline::diffText(c).empty() ? pipeline::comparisonVerdict(c)
                                                                            : pipeline::diffText(c)));
        const auto columns = pipeline::comparisonColumns();
        const auto rows = pipeline::comparisonRows(c);
        figures_->setColumnCount(int(columns.size()));
        QStringList headers;
        for (const auto& h : columns) headers << qstr(h);
        figures_->setHorizontalHeaderLabels(headers);
        figures_->setRowCount(int(rows.size()) + 1);
        for (size_t r = 0; r < rows.size(); ++r)
            for (size_t k = 0; k < rows[r].size(); ++k) {
                auto* item = new QTableWidgetItem(qstr(rows[r][k]));
                // The first cell is the kernel's symbol with "(A only)" or the like after it.
                const std::string& symbol = c.kernels[r].kernel;
                if (k == 0 && support::startsWith(rows[r][0], symbol))
                    SymbolNames::setCell(item, symbol, qstr(rows[r][0].substr(symbol.size())));
                figures_->setItem(int(r), int(k), item);
            }
        figures_->setItem(int(rows.size()), 0, new QTableWidgetItem(tr("(compile time)")));
        figures_->setItem(int(rows.size()), 1,
                          new QTableWidgetItem(tr("A %1 → B %2")
                                                   .arg(qstr(pipeline::formatSeconds(c.secondsA)),
                                                        qstr(pipeline::formatSeconds(c.secondsB)))));
        figures_->resizeColumnsToContents();
        figures_->setColumnWidth(0,
                                 std::min(figures_->columnWidth(0), figures_->fontMetrics().averageCharWidth() * 36));
    } else {
        QStringList why;
        for (size_t i = 0; i < 2; ++i)
            if (!sides_[i].result) why << tr("%1: %2").arg(i == 0 ? "A" : "B", sides_[i].notice);
        verdict_->setText(why.join(QLatin1Char('\n')));
        setPaneText(diff_, why.join(QLatin1Char('\n')));
    }
    const auto shown = variantShown();
    editVariant_->setEnabled(!shown.isEmpty());
    removeVariant_->setEnabled(!shown.isEmpty());
    removePin_->setEnabled(sides_[0].key.startsWith(kPinPrefix) || sides_[1].key.startsWith(kPinPrefix));
    showEffectNote();
    arrange(wide_);  // over the views, the column is as tall as the verdict now is
    emit updated();
}

QString ComparePanel::defaultPinName() const {
    for (int n = int(document_->workspace().pins.size()) + 1;; ++n) {
        const auto name = tr("pin %1").arg(n);
        if (!document_->pin(name)) return name;
    }
}

support::Status ComparePanel::pinCurrent(const QString& wanted) {
    if (!current_)
        return support::makeError(support::ErrorKind::Usage,
                                  tr("There is no compile result to pin yet: compile first (Ctrl+B).").toStdString());
    QString name = wanted.trimmed().isEmpty() ? defaultPinName() : wanted.trimmed();
    for (int n = 2; document_->pin(name); ++n) name = QStringLiteral("%1 (%2)").arg(wanted.trimmed()).arg(n);
    // What made the result shown: the document as its request took it (the editors are copied
    // in at each request, and a newer request's reply would have replaced this one).
    const auto& ws = document_->workspace();
    workspace::Pin pin;
    pin.name = name.toStdString();
    pin.pinned = QDateTime::currentDateTime().toString(Qt::ISODate).toStdString();
    pin.modules = ws.modules;
    pin.options = ws.options;
    pin.libdevice = ws.libdevice;
    if (settings_.cudaPath) pin.toolkit = settings_.cudaPath->string();
    if (appToolkit_ && appToolkit_->release()) pin.toolkitRelease = appToolkit_->release()->version;
    pin.result = pipeline::pinnedResultToJson(*current_, pin.outputs);
    document_->putPin(std::move(pin));
    setSides(pinSide(name), QString::fromLatin1(kCurrent));
    return {};
}

bool ComparePanel::compiledSide(const QString& key) {
    return key.startsWith(kVariantPrefix) || key == QLatin1String(kEffect);
}

const workspace::Variant* ComparePanel::variantFor(const QString& key) const {
    if (key == QLatin1String(kEffect)) return effect_ ? &*effect_ : nullptr;
    if (key.startsWith(kVariantPrefix)) return document_->variant(key.mid(kVariantPrefix.size()));
    return nullptr;
}

void ComparePanel::showEffect(const nvvm::Options& options, const QString& label, const QString& explanation) {
    workspace::Variant v;
    v.name = label.toStdString();
    v.options = options;
    effect_ = std::move(v);
    effectToggle_->setText(tr("What %1 does").arg(label));
    effectNote_->setText(explanation.isEmpty()
                             ? tr("%1: the docs have no paragraph on this option.").arg(label)
                             : tr("<b>%1</b>: %2")
                                   .arg(label.toHtmlEscaped(), explanation.toHtmlEscaped().replace(
                                                                   QLatin1Char('\n'), QStringLiteral("<br>"))));
    // The effect side compiles anew for its options: a fresh result, not the last effect's.
    for (auto& s : sides_)
        if (s.key == QLatin1String(kEffect)) s.result.reset();
    setSides(QString::fromLatin1(kCurrent), QString::fromLatin1(kEffect));
}

bool ComparePanel::effectShown() const {
    return sides_[0].key == QLatin1String(kEffect) || sides_[1].key == QLatin1String(kEffect);
}

QString ComparePanel::effectText() const {
    return effectShown() ? effectNote_->text() : QString();
}

QString ComparePanel::variantShown() const {
    for (int i : {1, 0})
        if (sides_[size_t(i)].key.startsWith(kVariantPrefix)) return sides_[size_t(i)].key.mid(kVariantPrefix.size());
    return {};
}

void ComparePanel::addVariant() {
    showVariantDialog(nullptr);
}

void ComparePanel::editVariant() {
    if (const auto* v = document_->variant(variantShown())) showVariantDialog(v);
}

void ComparePanel::removeVariant() {
    const auto name = variantShown();
    if (!name.isEmpty()) document_->removeVariant(name);
}

void ComparePanel::removePin() {
    for (int i : {0, 1})
        if (sides_[size_t(i)].key.startsWith(kPinPrefix)) {
            document_->removePin(sides_[size_t(i)].key.mid(kPinPrefix.size()));
            return;
        }
}

void ComparePanel::showVariantDialog(const workspace::Variant* editing) {
    VariantDialog dialog(document_, editing, toolkits_, appToolkit_, this);
    if (dialog.exec() != QDialog::Accepted) return;
    auto v = dialog.variant();
    const QString vname = qstr(v.name);
    document_->putVariant(std::move(v), editing ? qstr(editing->name) : QString());
    // Shown at once, against the current compile (or the pin on side A, chosen there to compare
    // with): an earlier compile of the session, the default side A, may not be there yet.
    const QString other = sides_[0].key.startsWith(kPinPrefix) ? sides_[0].key : QString::fromLatin1(kCurrent);
    setSides(other, variantSide(vname));
}

void ComparePanel::attach(CompileController* controller) {
    setHistory(&controller->history());
    connect(controller, &CompileController::historyChanged, this, &ComparePanel::historyChanged);
    connect(controller, &CompileController::replyShown, this,
            [this](const EngineReply& reply) { setCurrent(reply.result); });
    connect(controller, &CompileController::lateShown, this,
            [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
                if (result) setCurrent(std::move(result));
            });
}

}  // namespace nvpg::gui
