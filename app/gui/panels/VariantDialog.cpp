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
#include "core/support/Text.h"
#include "core/workspace/Inputs.h"
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
    // The modules: the workspace's as edited, or another version of them read from files.
    modulesCombo_ = new QComboBox(this);
    modulesCombo_->setObjectName(QStringLiteral("variantModules"));
    modulesCombo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    modulesCombo_->setMinimumContentsLength(30);
    modulesCombo_->setToolTip(
        tr("Other modules (.ll/.bc files, or a workspace's) are compiled in place of the workspace's, with this "
           "variant's options: another version of the program beside the current one"));
    if (editing) modules_ = editing->modules;
    showModules();
    connect(modulesCombo_, &QComboBox::activated, this, &VariantDialog::modulesChosen);
    form->addRow(tr("Modules"), modulesCombo_);
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

// The modules menu: the workspace's, the other modules chosen (when there are), and Choose files….
void VariantDialog::showModules() {
    modulesCombo_->clear();
    modulesCombo_->addItem(tr("The workspace's modules, as edited"), QStringLiteral("workspace"));
    if (!modules_.empty()) {
        std::vector<std::string> names;
        for (const auto& m : modules_) names.push_back(m.name);
        modulesCombo_->addItem(tr("Other modules: %1").arg(qstr(support::joinShort(names))), QStringLiteral("other"));
        modulesCombo_->setItemData(1, qstr(support::joinShort(names)), Qt::ToolTipRole);
    }
    modulesCombo_->addItem(tr("Other modules: choose files…"), QStringLiteral("?"));
    modulesCombo_->setCurrentIndex(modules_.empty() ? 0 : 1);
}

void VariantDialog::modulesChosen() {
    const auto chosen = modulesCombo_->currentData().toString();
    if (chosen == QLatin1String("workspace")) {
        modules_.clear();
    } else if (chosen == QLatin1String("?")) {
        const auto files =
            QFileDialog::getOpenFileNames(this, tr("Other modules for the variant"), QString(),
                                          tr("NVVM IR modules or a workspace (*.ll *.bc *.nvpg);;All files (*)"));
        if (!files.isEmpty())
            if (auto st = chooseModules(files); !st)
                QMessageBox::warning(this, tr("Other modules"), qstr(st.error().message));
    }
    showModules();
}

support::Status VariantDialog::chooseModules(const QStringList& files) {
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(f.toStdString());
    // The files nvpg compare --against takes, read the same way; named as the editors name them.
    auto read = workspace::readInputs(paths, workspace::ModuleNaming::FileName);
    if (!read) return read.error();
    if (read->modules.empty())
        return support::makeError(support::ErrorKind::Usage,
                                  tr("%1 has no modules: choose a workspace with modules, or .ll/.bc files.")
                                      .arg(files.join(QStringLiteral(", ")))
                                      .toStdString());
    modules_ = std::move(read->modules);
    showModules();
    return {};
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
    v.modules = modules_;
    return v;
}

}  // namespace nvpg::gui
