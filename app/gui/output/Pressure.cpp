#include "gui/output/Pressure.h"

#include <algorithm>

#include <QLabel>

#include <Qsci/qsciscintilla.h>

#include "core/support/Symbols.h"
#include "core/support/Text.h"
#include "gui/common/Text.h"
#include "gui/compile/CompileController.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/EditorArea.h"
#include "gui/editor/HoverDocs.h"
#include "gui/editor/ModuleEditor.h"
#include "gui/editor/PressureStrip.h"
#include "gui/output/LineMapLinks.h"
#include "gui/output/OutputView.h"

namespace nvpg::gui {

using inspect::MappedOutput;

Pressure::Pressure(EditorArea* editors, OutputView* output, LineMapLinks* links, WorkspaceDocument* document,
                   QObject* parent)
    : QObject(parent), editors_(editors), output_(output), links_(links), document_(document) {
    connect(output_, &OutputView::pressureLinkActivated, this, &Pressure::linkActivated);
    connect(output_, &OutputView::sassDisplayChanged, this, &Pressure::sassDisplayChanged);
    connect(editors_, &EditorArea::editorMade, this, &Pressure::paintEditor);
}

int Pressure::scale() const {
    int most = 1;
    for (const auto& k : live_.kernels) most = std::max(most, k.registers.value_or(k.gpr));
    return most;
}

void Pressure::setResult(std::shared_ptr<const pipeline::CompileResult> result) {
    result_ = std::move(result);
    live_ = result_ ? pipeline::liveFigures(*result_) : pipeline::LiveFigures{};
    places_ = result_ ? pipeline::localMemoryPlaces(*result_) : pipeline::LocalMemoryPlaces{};
    for (int i = 0; i < 3; ++i) localShown_[i] = 0, localNext_[i] = 0;
    paintOutputs();
    for (int m = 0; m < int(document_->workspace().modules.size()); ++m) paintEditor(m);
}

void Pressure::textEdited() {
    for (int m = 0; m < int(document_->workspace().modules.size()); ++m)
        if (auto* e = editors_->madeEditor(m)) PressureStrip::of(e)->clear();
}

void Pressure::sassDisplayChanged() {
    paintOutputs();
}

int Pressure::sassShownLine(int listingLine) const {
    const auto view = output_->sassView();
    return view ? view->shownLine(listingLine) : listingLine;
}

std::vector<int> Pressure::shownLocalLines(MappedOutput output) const {
    switch (output) {
        case MappedOutput::Ptx:
            return places_.ptx;
        case MappedOutput::LtoPtx:
            return places_.ltoPtx;
        case MappedOutput::Sass: {
            std::vector<int> shown;
            for (const int l : places_.sass)
                if (const int s = sassShownLine(l); s > 0) shown.push_back(s);
            return shown;
        }
    }
    return {};
}

void Pressure::paintOutputs() {
    const int most = scale();
    // The SASS pane: each instruction's own figures, in the lines the pane shows.
    std::vector<int> sass;
    std::vector<const inspect::LiveCount*> sassCounts;
    if (live_.available())
        for (size_t i = 0; i < live_.counts.size(); ++i) {
            if (!live_.counts[i].known) continue;
            const int shown = sassShownLine(live_.listing.instructions[i].line);
            if (shown <= 0) continue;
            if (sass.size() < size_t(shown)) sass.resize(size_t(shown), -1), sassCounts.resize(size_t(shown), nullptr);
            sass[size_t(shown) - 1] = std::max(sass[size_t(shown) - 1], live_.counts[i].gpr);
            sassCounts[size_t(shown) - 1] = &live_.counts[i];
        }
    auto* sassStrip = PressureStrip::of(output_->sassEditor());
    sassStrip->setFigures(sass, most, [sassCounts, most](int line, int) {
        const auto* c = sassCounts[size_t(line) - 1];
        return tr("Live here: %1 general registers (R), %2 predicate (P), %3 uniform (UR), %4 uniform predicate "
                  "(UP); the kernel has %5 registers. From nvdisasm -lrm count.")
            .arg(c->gpr)
            .arg(c->pred)
            .arg(c->ugpr)
            .arg(c->upred)
            .arg(most);
    });
    sassStrip->setMarks(shownLocalLines(MappedOutput::Sass));
    auto ptxTip = [most](int, int figure) {
        return tr("Up to %1 registers live in the SASS this line became (the kernel has %2): the largest "
                  "nvdisasm -lrm count of its instructions, through the line map.")
            .arg(figure)
            .arg(most);
    };
    auto* ptxStrip = PressureStrip::of(output_->ptxEditor());
    ptxStrip->setFigures(live_.ptxLines, most, ptxTip);
    ptxStrip->setMarks(places_.ptx);
    auto* ltoStrip = PressureStrip::of(output_->ltoEditor());
    ltoStrip->setFigures(live_.ltoPtxLines, most, ptxTip);
    ltoStrip->setMarks(places_.ltoPtx);

    // The notes under the headers: the busiest kernel's peak, and the local memory of the pane.
    const pipeline::KernelLivePeak* top = nullptr;
    for (const auto& k : live_.kernels)
        if (!top || k.gpr > top->gpr) top = &k;
    QStringList tip;
    for (const auto& k : live_.kernels)
        tip << QStringLiteral("%1: %2%3")
                   .arg(qstr(support::readableName(k.kernel)), qstr(pipeline::peakWords(k)),
                        k.registers ? tr(" (of %1 registers)").arg(*k.registers) : QString());
    for (auto output : inspect::kMappedOutputs) {
        QStringList parts;
        const bool hasText = output == MappedOutput::Sass     ? !result_ || !result_->sass.empty()
                             : output == MappedOutput::LtoPtx ? result_ && !result_->linkedPtx.empty()
                                                              : result_ && !result_->ptx.empty();
        if (top && hasText) {
            QString words = qstr(pipeline::peakWords(*top)).toHtmlEscaped();
            const QString place = top->line > 0 ? QStringLiteral("%1:%2").arg(qstr(top->module)).arg(top->line)
                                                : tr("SASS line %1").arg(top->sassLine);
            words.replace(place.toHtmlEscaped(), QStringLiteral("<a href=\"peak\">%1</a>").arg(place.toHtmlEscaped()));
            if (live_.kernels.size() > 1)
                words +=
                    tr(" (%1)").arg(qstr(support::elideMiddle(support::readableName(top->kernel), 40)).toHtmlEscaped());
            parts << words;
        }
        const auto local = shownLocalLines(output);
        if (!local.empty() && hasText)
            parts << tr("local memory: <a href=\"local\">%1</a>")
                         .arg(local.size() == 1 ? tr("1 line") : tr("%1 lines").arg(local.size()));
        // The docs' entry on these figures (resources/docs/view.json). A word, not a symbol: DejaVu
        // Sans, many desktops' UI font, has no circled i (U+24D8), and it would draw as a box.
        if (!parts.isEmpty()) parts << tr("<a href=\"about\">about</a>");
        output_->setPressureNote(output, parts.join(QStringLiteral(" · ")), tip.join(QLatin1Char('\n')));
    }
}

void Pressure::paintEditor(int module) {
    auto* e = editors_->madeEditor(module);
    if (!e) return;
    auto* strip = PressureStrip::of(e);
    const auto& modules = document_->workspace().modules;
    if (!result_ || !result_->lineMap || module >= int(modules.size()) || modules[size_t(module)].isBitcode()) {
        strip->clear();
        return;
    }
    const int mapModule = result_->lineMap->moduleIndex(modules[size_t(module)].name);
    std::vector<int> figures;
    for (const auto& l : live_.irLines)
        if (l.module == mapModule) {
            if (figures.size() < size_t(l.line)) figures.resize(size_t(l.line), -1);
            figures[size_t(l.line) - 1] = l.gpr;
        }
    std::vector<int> marks;
    for (const auto& l : places_.ir)
        if (l.module == mapModule) marks.push_back(l.line);
    const int most = scale();
    strip->setFigures(std::move(figures), most, [most](int, int figure) {
        return tr("Up to %1 registers live in the SASS this line became (the kernel has %2); an inlined "
                  "libdevice call counts its whole body here.")
            .arg(figure)
            .arg(most);
    });
    strip->setMarks(std::move(marks));
}

void Pressure::linkActivated(MappedOutput output, const QString& link) {
    if (link == QStringLiteral("peak")) {
        const pipeline::KernelLivePeak* top = nullptr;
        for (const auto& k : live_.kernels)
            if (!top || k.gpr > top->gpr) top = &k;
        if (!top) return;
        if (output == MappedOutput::Sass || top->line <= 0) {
            const int shown = sassShownLine(top->sassLine);
            output_->showSassTab(true);
            if (auto* e = output_->sassEditor(); shown > 0) {
                e->setCursorPosition(shown - 1, 0);
                e->ensureLineVisible(shown - 1);
            }
            links_->focusOutputLine(MappedOutput::Sass, shown);
        } else {
            links_->showIrLine(qstr(top->module), top->line);
            links_->focusIrLine(qstr(top->module), top->line);
        }
        return;
    }
    if (link == QStringLiteral("about")) {
        HoverDocs::popover(output_->pressureLabel(output), "live-registers", inspect::DocContext::View);
        return;
    }
    if (link == QStringLiteral("local")) {
        const auto lines = shownLocalLines(output);
        if (lines.empty()) return;
        const size_t k = localNext_[int(output)] % lines.size();
        localNext_[int(output)] = k + 1;
        const int line = lines[k];
        localShown_[int(output)] = line;
        if (auto* e = output_->outputEditor(output)) {
            e->setCursorPosition(line - 1, 0);
            e->ensureLineVisible(line - 1);
        }
        links_->focusOutputLine(output, line);
    }
}

void Pressure::attach(CompileController* controller) {
    const auto show = [this](quint64, std::shared_ptr<const pipeline::CompileResult> result) {
        setResult(std::move(result));
    };
    connect(controller, &CompileController::lateShown, this, show);
    connect(controller, &CompileController::sassShown, this, show);
}

}  // namespace nvpg::gui
