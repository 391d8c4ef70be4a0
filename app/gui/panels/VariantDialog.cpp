#include "gui/panels/VariantDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QVBoxLayout>

#include "core/nvvm/Options.h"
#include "gui/common/Text.h"
#include "gui/panels/OptionsPanel.h"

namespace nvpg::gui {

QString VariantDialog::toolkitWords(const toolkit::Toolkit* appToolkit, const std::string& root,
                                    const std::string& release) {
    if (root.empty()) {
        const auto r = appToolkit ? appToolkit->release() : std::nullopt;
        return r ? tr("CUDA %1").arg(qstr(r->version)) : tr("the app's toolkit");
    }
    return release.empty() ? qstr(root) : tr("CUDA %1").arg(qstr(release));
}

VariantDialog::VariantDialog(const WorkspaceDocument* document, const workspace::Variant* editing,
                             const std::vector<toolkit::FoundToolkit>& toolkits,
                             std::shared_ptr<const toolkit::Toolkit> appToolkit, QWidget* parent)
    : QDialog(parent), document_(document), editing_(editing), appToolkit_(std::move(appToolkit)) {
    setObjectName(QStringLiteral("variantDialog"));
    setWindowTitle(editing ? tr("Edit Variant") : tr("Add Variant"));
    auto* form = new QFormLayout;
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("variantName"));
    name_->setText(editing ? qstr(editing->name) : tr("variant %1").arg(document_->workspace().variants.size() + 1));
    form->addRow(tr("Name"), name_);
    toolkit_ = new QComboBox(this);
    toolkit_->setObjectName(QStringLiteral("variantToolkit"));
    // A toolkit is (root, release); the app's own is empty.
    toolkit_->addItem(tr("The app's toolkit (%1)").arg(toolkitWords(appToolkit_.get(), {}, {})),
                      QStringList{QString(), QString()});
    for (const auto& t : toolkits)
        toolkit_->addItem(tr("%1 — %2").arg(t.release ? tr("CUDA %1").arg(qstr(t.release->version)) : tr("CUDA ?"),
                                            qstr(t.root.string())),
                          QStringList{qstr(t.root.string()), t.release ? qstr(t.release->version) : QString()});
    if (editing && !editing->toolkit.empty() &&
        toolkit_->findData(QStringList{qstr(editing->toolkit), qstr(editing->toolkitRelease)}) < 0)
        toolkit_->addItem(tr("%1 — %2 (as saved)")
                              .arg(toolkitWords(appToolkit_.get(), editing->toolkit, editing->toolkitRelease),
                                   qstr(editing->toolkit)),
                          QStringList{qstr(editing->toolkit), qstr(editing->toolkitRelease)});
    toolkit_->addItem(tr("Other folder…"), QStringList{QStringLiteral("?")});
    auto* toolkitRow = new QHBoxLayout;
    toolkitRow->addWidget(toolkit_, 1);
    form->addRow(tr("CUDA toolkit"), toolkitRow);

    // The option table's controls, on a scratch document holding the variant's options.
    workspace::Workspace scratchWs;
    scratchWs.options = editing ? editing->options : document_->workspace().options;
    scratch_.reset(scratchWs, {});
    options_ = new OptionsPanel(&scratch_, this);
    // A variant is an option set: the workspace's libdevice, verifier and LTO mode stay its own.
    for (QWidget* w : {static_cast<QWidget*>(options_->libdeviceCheck()),
                       static_cast<QWidget*>(options_->verifyCheck()), static_cast<QWidget*>(options_->ltoModeCombo())})
        if (w) w->setEnabled(false);
    connect(toolkit_, &QComboBox::activated, this, &VariantDialog::toolkitChosen);
    if (editing) {
        const int at = toolkit_->findData(QStringList{qstr(editing->toolkit), qstr(editing->toolkitRelease)});
        if (at >= 0) toolkit_->setCurrentIndex(at);
    }
    offerArchs();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(options_, 1);
    auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, this, &VariantDialog::check);
    connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(520, 620);
}

VariantDialog::~VariantDialog() = default;

void VariantDialog::offerArchs() {
    const auto data = toolkit_->currentData().toStringList();
    int major = appToolkit_ ? appToolkit_->cudaMajor() : 13;
    if (data.size() == 2 && !data[1].isEmpty()) major = data[1].section(QLatin1Char('.'), 0, 0).toInt();
    options_->setArchs(nvvm::supportedArchs(major), major, tr("default: libNVVM's"));
}

void VariantDialog::toolkitChosen() {
    if (toolkit_->currentData().toStringList().value(0) == QLatin1String("?")) {
        const auto dir =
            QFileDialog::getExistingDirectory(this, tr("CUDA toolkit folder (a toolkit root or a pip nvidia folder)"));
        if (!dir.isEmpty()) {
            toolkit::SearchConfig search;
            search.explicitRoot = dir.toStdString();
            auto tk = toolkit::Toolkit::locate(search);
            if (!tk) {
                QMessageBox::warning(this, tr("No CUDA toolkit there"), qstr(tk.error().message));
            } else {
                const QString release = (*tk)->release() ? qstr((*tk)->release()->version) : QString();
                toolkit_->insertItem(
                    toolkit_->count() - 1,
                    tr("%1 — %2").arg(release.isEmpty() ? tr("CUDA ?") : tr("CUDA %1").arg(release), dir),
                    QStringList{dir, release});
                toolkit_->setCurrentIndex(toolkit_->count() - 2);
            }
        }
        if (toolkit_->currentData().toStringList().value(0) == QLatin1String("?")) toolkit_->setCurrentIndex(0);
    }
    offerArchs();
}

void VariantDialog::check() {
    const auto wanted = name_->text().trimmed();
    if (wanted.isEmpty()) {
        QMessageBox::warning(this, tr("Variant"), tr("Give the variant a name."));
        return;
    }
    if (document_->variant(wanted) && (!editing_ || qstr(editing_->name) != wanted)) {
        QMessageBox::warning(this, tr("Variant"),
                             tr("There is a variant “%1” already: give this one another name.").arg(wanted));
        return;
    }
    if (options_->hasInvalidInput()) {
        QMessageBox::warning(this, tr("Variant"), tr("An option is not valid: see the note beside it."));
        return;
    }
    accept();
}

workspace::Variant VariantDialog::variant() const {
    workspace::Variant v;
    v.name = name_->text().trimmed().toStdString();
    v.options = scratch_.workspace().options;
    const auto data = toolkit_->currentData().toStringList();
    v.toolkit = data.value(0).toStdString();
    v.toolkitRelease = data.value(1).toStdString();
    return v;
}

}  // namespace nvpg::gui
