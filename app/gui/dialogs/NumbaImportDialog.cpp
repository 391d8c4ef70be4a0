#include "gui/dialogs/NumbaImportDialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QToolButton>
#include <QVBoxLayout>

namespace nvpg::gui {

namespace {

// A line edit with a "…" button that picks a file.
QWidget* withBrowse(QLineEdit* edit, QWidget* parent, const QString& title, const QString& filter, bool save) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit);
    auto* browse = new QToolButton(row);
    browse->setText(QStringLiteral("…"));
    browse->setToolTip(title);
    layout->addWidget(browse);
    QObject::connect(browse, &QToolButton::clicked, row, [=] {
        const QString start = edit->text().isEmpty() ? QDir::currentPath() : edit->text();
        const QString path = save ? QFileDialog::getSaveFileName(parent, title, start, filter)
                                  : QFileDialog::getOpenFileName(parent, title, start, filter);
        if (!path.isEmpty()) edit->setText(path);
    });
    return row;
}

}  // namespace

NumbaImportDialog::NumbaImportDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Import from numba"));
    setObjectName("numbaImportDialog");
    QSettings settings;
    file_ = new QLineEdit(settings.value("numbaImport/file").toString(), this);
    file_->setObjectName("numbaFile");
    function_ = new QLineEdit(settings.value("numbaImport/function").toString(), this);
    function_->setObjectName("numbaFunction");
    function_->setPlaceholderText(tr("axpy: a @cuda.jit kernel in the file"));
    signature_ = new QLineEdit(settings.value("numbaImport/signature").toString(), this);
    signature_->setObjectName("numbaSignature");
    signature_->setPlaceholderText(QStringLiteral("void(float32[::1], float32, float32[::1])"));
    args_ = new QLineEdit(this);
    args_->setObjectName("numbaArgs");
    args_->setPlaceholderText(tr("optional: an .npz with an entry per argument"));
    python_ = new QLineEdit(settings.value("numbaImport/python").toString(), this);
    python_->setObjectName("numbaPython");
    python_->setPlaceholderText(tr("python3 on PATH"));
    arch_ = new QLineEdit(this);
    arch_->setObjectName("numbaArch");
    arch_->setPlaceholderText(tr("the local GPU's, else %1").arg(interop::kNumbaDefaultArch));
    output_ = new QLineEdit(this);
    output_->setObjectName("numbaOutput");

    auto* form = new QFormLayout;
    form->addRow(tr("Python &file:"), withBrowse(file_, this, tr("The Python file with the kernel"),
                                                 tr("Python (*.py);;All files (*)"), false));
    form->addRow(tr("&Kernel:"), function_);
    form->addRow(tr("&Signature:"), signature_);
    form->addRow(tr("Example &inputs:"),
                 withBrowse(args_, this, tr("Example inputs"), tr("NumPy archives (*.npz);;All files (*)"), false));
    form->addRow(tr("&Python:"), withBrowse(python_, this, tr("A Python with numba-cuda"), tr("All files (*)"), false));
    form->addRow(tr("&Arch:"), arch_);
    form->addRow(tr("Save &as:"), withBrowse(output_, this, tr("The workspace to write"),
                                             tr("NVVM Playground workspaces (*.nvpg)"), true));
    auto* note = new QLabel(tr("numba-cuda runs the file in that Python and compiles the kernel for the signature; "
                               "the workspace gets the NVVM IR and options numba hands to libNVVM, and a run "
                               "configuration that passes arrays as numba does. Install numba-cuda with "
                               "<tt>pip install \"numba-cuda[cu13]\"</tt>."),
                            this);
    note->setWordWrap(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    ok_ = buttons->button(QDialogButtonBox::Ok);
    ok_->setText(tr("&Import"));
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        QSettings s;
        s.setValue("numbaImport/file", file_->text());
        s.setValue("numbaImport/function", function_->text());
        s.setValue("numbaImport/signature", signature_->text());
        s.setValue("numbaImport/python", python_->text());
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);

    // The workspace goes beside the Python file, named after the kernel, until the user names it.
    const auto suggest = [this] {
        if (outputEdited_) return;
        const QFileInfo py(file_->text());
        const QString name = function_->text().isEmpty() ? py.completeBaseName() : function_->text();
        output_->setText(file_->text().isEmpty() ? QString() : py.absoluteDir().filePath(name + ".nvpg"));
        outputEdited_ = false;
    };
    connect(file_, &QLineEdit::textChanged, this, suggest);
    connect(function_, &QLineEdit::textChanged, this, suggest);
    connect(output_, &QLineEdit::textEdited, this, [this] { outputEdited_ = true; });
    for (auto* e : {file_, function_, signature_, output_})
        connect(e, &QLineEdit::textChanged, this, [this] { updateOk(); });
    suggest();
    updateOk();
    resize(640, sizeHint().height());
}

void NumbaImportDialog::updateOk() {
    ok_->setEnabled(!file_->text().trimmed().isEmpty() && !function_->text().trimmed().isEmpty() &&
                    !signature_->text().trimmed().isEmpty() && !output_->text().trimmed().isEmpty());
}

interop::NumbaImportRequest NumbaImportDialog::request() const {
    interop::NumbaImportRequest r;
    r.file = file_->text().trimmed().toStdString();
    r.function = function_->text().trimmed().toStdString();
    r.signature = signature_->text().trimmed().toStdString();
    r.argsNpz = args_->text().trimmed().toStdString();
    r.python = python_->text().trimmed().toStdString();
    r.arch = arch_->text().trimmed().toStdString();
    r.output = output_->text().trimmed().toStdString();
    return r;
}

}  // namespace nvpg::gui
