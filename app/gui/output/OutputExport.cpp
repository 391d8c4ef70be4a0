#include "gui/output/OutputExport.h"

#include <algorithm>
#include <string>
#include <vector>

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QToolButton>
#include <QWidget>

#include "gui/common/Text.h"
#include "gui/document/FileChecks.h"

namespace nvpg::gui {

namespace {

struct ExportSpec {
    const char* title;
    const char* filter;
};

ExportSpec exportSpec(OutputExport::Kind kind) {
    switch (kind) {
        case OutputExport::Kind::Ptx:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "Export PTX"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "PTX (*.ptx);;All files (*)")};
        case OutputExport::Kind::LtoIr:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "Export LTO-IR"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "LTO-IR (*.ltoir);;All files (*)")};
        case OutputExport::Kind::LinkedPtx:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "Export linked PTX"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "PTX (*.ptx);;All files (*)")};
        case OutputExport::Kind::Cubin:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "Export cubin"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "cubin (*.cubin);;All files (*)")};
        case OutputExport::Kind::Sass:
            return {QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "Export SASS"),
                    QT_TRANSLATE_NOOP("nvpg::gui::OutputExport", "SASS (*.sass);;All files (*)")};
    }
    return {"", ""};
}

}  // namespace

OutputExport::OutputExport(QWidget* view, ResultSource result)
    : QObject(view), view_(view), result_(std::move(result)), dir_(QDir::homePath()) {
    auto* menu = new QMenu(view);
    const std::pair<Kind, QString> texts[] = {
        {Kind::Ptx, tr("Export PTX…")},
        {Kind::LtoIr, tr("Export LTO-IR…")},
        {Kind::LinkedPtx, tr("Export linked PTX…")},
        {Kind::Cubin, tr("Export cubin…")},
        {Kind::Sass, tr("Export SASS…")},
    };
    for (const auto& [kind, text] : texts) {
        auto* a = menu->addAction(text);
        a->setEnabled(false);
        connect(a, &QAction::triggered, this, [this, kind = kind] { exportWithDialog(kind); });
        actions_[int(kind)] = a;
    }
    button_ = new QToolButton(view);
    button_->setObjectName(QStringLiteral("exportButton"));
    button_->setText(tr("Export"));
    button_->setMenu(menu);
    button_->setPopupMode(QToolButton::InstantPopup);
    button_->setAutoRaise(true);
    button_->setEnabled(false);
}

void OutputExport::updateActions() {
    bool any = false;
    for (int k = 0; k < int(std::size(actions_)); ++k) {
        const bool can = canExport(Kind(k));
        actions_[k]->setEnabled(can);
        any = any || can;
    }
    button_->setEnabled(any);
}

bool OutputExport::canExport(Kind kind) const {
    const auto result = result_();
    if (!result) return false;
    switch (kind) {
        case Kind::Ptx:
            return !result->ptx.empty();
        case Kind::LtoIr:
            return std::any_of(result->ltoIr.begin(), result->ltoIr.end(),
                               [](const auto& b) { return !b.bytes.empty(); });
        case Kind::LinkedPtx:
            return !result->linkedPtx.empty();
        case Kind::Cubin:
            return !result->cubin.empty();
        case Kind::Sass:
            return !result->sass.empty();
    }
    return false;
}

QStringList OutputExport::exportPaths(Kind kind, const QString& path) const {
    const auto result = result_();
    if (kind != Kind::LtoIr || !result || result->ltoIr.size() <= 1) return {path};
    std::vector<std::string> modules;
    for (const auto& blob : result->ltoIr) modules.push_back(blob.name);
    QStringList paths;
    for (const auto& p : pipeline::perModulePaths(path.toStdString(), modules)) paths << qstr(p);
    return paths;
}

bool OutputExport::exportTo(Kind kind, const QString& path, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (!canExport(kind)) return fail(tr("There is nothing to export: compile first."));
    const auto result = result_();
    std::vector<const std::string*> contents;
    switch (kind) {
        case Kind::Ptx:
            contents = {&result->ptx};
            break;
        case Kind::LinkedPtx:
            contents = {&result->linkedPtx};
            break;
        case Kind::Cubin:
            contents = {&result->cubin};
            break;
        case Kind::Sass:
            contents = {&result->sass};
            break;
        case Kind::LtoIr:
            for (const auto& blob : result->ltoIr) contents.push_back(&blob.bytes);
            break;
    }
    const QStringList paths = exportPaths(kind, path);
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const std::string& bytes = *contents[size_t(i)];
        // Never onto a FIFO (it would wait for a reader) or a device.
        if (const auto why = notRegularFile(paths[i]); !why.isEmpty()) return fail(why);
        // QSaveFile: a failed or interrupted export leaves any earlier file of that name whole.
        QSaveFile file(paths[i]);
        if (!file.open(QIODevice::WriteOnly))
            return fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(paths[i]), file.errorString()));
        if (file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) || !file.commit())
            return fail(tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(paths[i]), file.errorString()));
    }
    emit exported(paths);
    return true;
}

void OutputExport::setBaseName(const QString& base) {
    const QFileInfo fi(base);
    if (fi.isAbsolute()) dir_ = fi.absolutePath();
    const QString stem = fi.completeBaseName();
    base_ = stem.isEmpty() ? QStringLiteral("program") : stem;
}

void OutputExport::exportWithDialog(Kind kind) {
    if (!canExport(kind)) return;
    const ExportSpec spec = exportSpec(kind);
    QString caption = tr(spec.title);
    if (kind == Kind::LtoIr && result_()->ltoIr.size() > 1) caption += tr(" (one file per module: NAME.MODULE.ltoir)");
    const QString suggested = QDir(dir_).filePath(qstr(pipeline::defaultOutputName(base_.toStdString(), kind)));
    const QString path = QFileDialog::getSaveFileName(view_, caption, suggested, tr(spec.filter));
    if (path.isEmpty()) return;
    dir_ = QFileInfo(path).absolutePath();
    QString error;
    if (!exportTo(kind, path, &error)) QMessageBox::warning(view_, caption, error);
}

}  // namespace nvpg::gui
