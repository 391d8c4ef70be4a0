#pragma once

#include <memory>
#include <vector>

#include <QDialog>

#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"
#include "gui/document/WorkspaceDocument.h"

class QComboBox;
class QLineEdit;

namespace nvpg::gui {

class OptionsPanel;

// Add Variant / Edit Variant: a name, the modules (the workspace's, or other modules read from
// .ll/.bc files or a workspace, as nvpg compare --against reads them), a CUDA toolkit (the app's,
// one found on this machine, or a folder picked) and an option set, in the Options dock's own
// table (OptionsPanel) on a scratch document. It sits beside the panels because it embeds one. OK
// checks the name is given and unused and every option valid.
class VariantDialog : public QDialog {
    Q_OBJECT

public:
    // `editing`: the variant edited, null for a new one. `toolkits`: those found on this machine;
    // `appToolkit`: the app's own, which a variant without a toolkit uses.
    VariantDialog(const WorkspaceDocument* document, const workspace::Variant* editing,
                  const std::vector<toolkit::FoundToolkit>& toolkits,
                  std::shared_ptr<const toolkit::Toolkit> appToolkit, QWidget* parent = nullptr);
    ~VariantDialog() override;

    // The variant as chosen (once exec() returned Accepted).
    workspace::Variant variant() const;
    // Other modules for the variant: `files` (.ll/.bc modules, or one .nvpg) read now, each named
    // by its file name; an error (nothing changed) says which file and why. Choose files… in the
    // modules menu asks for them.
    support::Status chooseModules(const QStringList& files);
    // The variant's modules as chosen: empty for the workspace's.
    const std::vector<nvvm::Module>& modules() const { return modules_; }

    // How a toolkit is named on screen: "CUDA 12.9", its folder when its release is unknown, and
    // the app's (`root` empty) by the app's release.
    static QString toolkitWords(const toolkit::Toolkit* appToolkit, const std::string& root,
                                const std::string& release);

private:
    void toolkitChosen();
    void modulesChosen();
    void showModules();
    void offerArchs();
    void check();

    const WorkspaceDocument* document_;
    const workspace::Variant* editing_;
    std::shared_ptr<const toolkit::Toolkit> appToolkit_;
    WorkspaceDocument scratch_;  // the options edited, in a document of their own (the table's)
    QLineEdit* name_ = nullptr;
    QComboBox* toolkit_ = nullptr;
    QComboBox* modulesCombo_ = nullptr;
    std::vector<nvvm::Module> modules_;
    OptionsPanel* options_ = nullptr;
};

}  // namespace nvpg::gui
