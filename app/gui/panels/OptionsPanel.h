#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <QPalette>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace nvpg::nvvm {
struct Options;
}

namespace nvpg::gui {

class WorkspaceDocument;

// The Options dock: arch (libNVVM's list; default: the local GPU's), opt, ftz, prec-div,
// prec-sqrt, fma, -g, jump-table-density, libdevice, LTO mode, extra flags. Each control edits
// the document at once; invalid input (an extra flag with two dashes, say) is explained next to
// the control and not applied, so the compile never sees it.
class OptionsPanel : public QWidget {
    Q_OBJECT

public:
    explicit OptionsPanel(WorkspaceDocument* document, QWidget* parent = nullptr);
    // The archs to offer and what "default" means here ("compute_90, the local GPU's").
    void setArchs(const std::vector<std::string>& archs, int cudaMajor,
                  const QString& defaultLabel);
    bool hasInvalidInput() const;

    // The controls, for the main window's shortcuts and for tests.
    QComboBox* archCombo() const { return arch_; }
    QComboBox* optCombo() const { return opt_; }
    QComboBox* ftzCombo() const { return ftz_; }
    QComboBox* precDivCombo() const { return precDiv_; }
    QComboBox* precSqrtCombo() const { return precSqrt_; }
    QComboBox* fmaCombo() const { return fma_; }
    QCheckBox* debugCheck() const { return debug_; }
    QSpinBox* jumpTableSpin() const { return jumpTable_; }
    QCheckBox* libdeviceCheck() const { return libdevice_; }
    QComboBox* ltoModeCombo() const { return ltoMode_; }
    QLineEdit* extraFlagsEdit() const { return extra_; }
    QLabel* extraFlagsError() const { return extraError_; }
    QLabel* debugNote() const { return debugNote_; }
    QLabel* archNote() const { return archNote_; }

private:
    QComboBox* makeTriState(const char* name, bool libnvvmDefault);
    // Applies one field's edit to a copy of the document's options.
    void editOptions(const std::function<void(nvvm::Options&)>& edit);
    // Shows whether the flags are valid next to the field; true when they are.
    bool checkExtraFlags(const std::vector<std::string>& flags);
    void onExtraFlagsEdited();
    void syncFromDocument();
    void selectArch(const std::optional<std::string>& arch);
    void updateNotes();

    WorkspaceDocument* document_;
    int cudaMajor_ = 13;
    QString defaultArchLabel_;

    QComboBox* arch_ = nullptr;
    QLabel* archNote_ = nullptr;
    QComboBox* opt_ = nullptr;
    QComboBox* ftz_ = nullptr;
    QComboBox* precDiv_ = nullptr;
    QComboBox* precSqrt_ = nullptr;
    QComboBox* fma_ = nullptr;
    QCheckBox* debug_ = nullptr;
    QLabel* debugNote_ = nullptr;
    QSpinBox* jumpTable_ = nullptr;
    QCheckBox* libdevice_ = nullptr;
    QComboBox* ltoMode_ = nullptr;
    QLineEdit* extra_ = nullptr;
    QLabel* extraError_ = nullptr;
    QPalette extraPalette_;

    // Set while the controls are written from the document, and while this panel writes to
    // the document: neither may echo back as an edit.
    bool syncing_ = false;
    bool applying_ = false;
    bool extraInvalid_ = false;
    // The document's extra flags when the field was last written from it. While they stay the
    // same, the field keeps what the user typed, even when that is not valid yet.
    std::vector<std::string> syncedExtraFlags_;
};

}  // namespace nvpg::gui
