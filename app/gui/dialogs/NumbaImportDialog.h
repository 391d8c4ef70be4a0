#pragma once
// File > Import from numba…: what `nvpg import numba` takes (the file, the kernel, numba's
// signature, optional example inputs, the Python and arch), asked for in one small dialog.
#include <QDialog>

#include "core/interop/NumbaImport.h"

class QLineEdit;
class QLabel;
class QPushButton;

namespace nvpg::gui {

class NumbaImportDialog : public QDialog {
    Q_OBJECT
public:
    explicit NumbaImportDialog(QWidget* parent = nullptr);

    // The request as filled in (arch empty: the caller chooses the default).
    interop::NumbaImportRequest request() const;

private:
    void updateOk();
    QLineEdit *file_, *function_, *signature_, *args_, *python_, *arch_, *output_;
    QPushButton* ok_ = nullptr;
    bool outputEdited_ = false;
};

}  // namespace nvpg::gui
