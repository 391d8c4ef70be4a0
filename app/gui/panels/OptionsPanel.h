#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <QPalette>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QToolButton;
class QLineEdit;
class QSpinBox;
class QTimer;

namespace nvpg::nvvm {
struct Options;
struct OptionInfo;
}  // namespace nvpg::nvvm

namespace nvpg::gui {

class WorkspaceDocument;

// The Options dock: one row per option of nvvm::optionTable() (arch from libNVVM's list, default:
// the local GPU's; opt, ftz, prec-div, prec-sqrt, fma, -g, jump-table density), then libdevice, verify,
// LTO mode and extra flags. Each control edits the document at once, but the extra-flags field
// only when typing pauses (or on Enter): a half-typed flag is never compiled. Invalid input (an
// extra flag with two dashes, say) is explained next to the control and not applied, so the
// compile never sees it and the last valid flags stay.
class OptionsPanel : public QWidget {
    Q_OBJECT

public:
    explicit OptionsPanel(WorkspaceDocument* document, QWidget* parent = nullptr);
    // The archs to offer and what "default" means here ("compute_90, the local GPU's").
    void setArchs(const std::vector<std::string>& archs, int cudaMajor, const QString& defaultLabel);
    bool hasInvalidInput() const;

    // The controls, for the main window's shortcuts and for tests. A table option's control is
    // named as the option ("prec-div"): a combo box, a check box (a switch) or a spin box (a number
    // range); nullptr for a name the dock does not show.
    QWidget* optionControl(std::string_view name) const;
    QComboBox* archCombo() const { return arch_; }
    QCheckBox* libdeviceCheck() const { return libdevice_; }
    QCheckBox* verifyCheck() const { return verify_; }
    QComboBox* ltoModeCombo() const { return ltoMode_; }
    QLineEdit* extraFlagsEdit() const { return extra_; }
    QLabel* extraFlagsError() const { return extraError_; }
    QLabel* debugNote() const { return debugNote_; }
    QLabel* archNote() const { return archNote_; }
    // The "Show effect" button beside an option's control (for the arch, a menu of the archs).
    QToolButton* effectButton(std::string_view name) const;

signals:
    // Show effect: the current compile beside the same modules with `option` flipped (`value`
    // empty), or set to `value` (an arch from the button's menu).
    void effectRequested(const QString& option, const QString& value);

private:
    // The control of one table option, connected to the document.
    QWidget* makeControl(const nvvm::OptionInfo& info);
    void showOption(const nvvm::OptionInfo& info, QWidget* control, const nvvm::Options& o);
    // Applies one field's edit to a copy of the document's options.
    void editOptions(const std::function<void(nvvm::Options&)>& edit);
    // Shows whether the flags are valid next to the field; true when they are.
    bool checkExtraFlags(const std::vector<std::string>& flags);
    void onExtraFlagsEdited();
    void syncFromDocument();
    void selectArch(const std::optional<std::string>& arch);
    // The arch combo's tooltip: the chosen arch's docs entry, then the arch option's.
    void updateArchTooltip();
    void updateNotes();

    WorkspaceDocument* document_;
    int cudaMajor_ = 13;
    QString defaultArchLabel_;

    QComboBox* arch_ = nullptr;
    QLabel* archNote_ = nullptr;
    QLabel* debugNote_ = nullptr;
    // The table's options the dock shows, in the table's order, with their controls.
    std::vector<std::pair<const nvvm::OptionInfo*, QWidget*>> options_;
    std::vector<std::pair<std::string, QToolButton*>> effectButtons_;
    QCheckBox* libdevice_ = nullptr;
    QCheckBox* verify_ = nullptr;
    QComboBox* ltoMode_ = nullptr;
    QLineEdit* extra_ = nullptr;
    QLabel* extraError_ = nullptr;
    QTimer* extraPause_ = nullptr;  // typing in extra_ paused: check and apply it
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
