#pragma once

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMainWindow;
class QsciScintilla;
class QWidget;

namespace nvpg::gui {

class ComparePanel;
class CompileController;
class CompileStatus;
class EditorArea;
class FindBar;
class FixController;
class LessonPanel;
class LineMapLinks;
class OutputView;
class Presentation;
class ProgramTransfer;
class RunPanel;
class ToolkitStatus;
class WorkspaceDocument;
class WorkspaceFiles;

// The window's menus and toolbar, made of the features' own actions (the Runs dock's Run, the
// SASS pane's raw toggle, presenter mode's) and of the entries that act on the window's parts.
class WindowActions : public QObject {
    Q_OBJECT

public:
    struct Parts {
        QMainWindow* window;
        WorkspaceDocument* document;
        CompileController* controller;
        EditorArea* editors;
        OutputView* output;
        FindBar* findBar;
        QWidget* findSides[2];  // under the editors, under the output panes
        ComparePanel* compare;
        QDockWidget* compareDock;
        LessonPanel* lesson;
        RunPanel* runs;
        FixController* fixes;
        LineMapLinks* links;
        WorkspaceFiles* files;
        Presentation* presentation;
        ProgramTransfer* transfer;
        CompileStatus* status;
        ToolkitStatus* toolkit;
    };
    explicit WindowActions(const Parts& parts);

    // The menu bar and the Build toolbar; after the docks (the View menu lists them).
    void build();
    // View > Line map.
    QAction* lineMapAction() const { return lineMapAction_; }
    // The Module menu's entries for the module shown.
    void updateModuleActions();
    // Module > New Module: a kernel that compiles and runs as it is.
    void addTemplateModule();
    // Asks, then makes a bitcode module its llvm-dis-14 text.
    void convertToText(int module);

signals:
    void settingsAccepted();
    void pinRequested(const QString& name);
    void failed(const QString& title, const QString& message);

private:
    void buildFile();
    void buildEdit();
    void buildModule();
    void buildBuild();
    void buildView();
    void buildHelp();
    // The editor or output pane that has focus (or holds the focused find bar's search), else
    // the current module's editor: what Find, Go to Line and the Edit actions work on.
    QsciScintilla* focusedPane() const;
    // The find bar goes under the side (editors or output panes) whose pane it searches.
    void attachFindBar(QsciScintilla* pane);

    Parts p_;
    QAction* compile_ = nullptr;
    QAction* cancel_ = nullptr;
    QAction* lazyAction_ = nullptr;
    QAction* convertAction_ = nullptr;
    QAction* splitAction_ = nullptr;
    QAction* autoAction_ = nullptr;
    QAction* lineMapAction_ = nullptr;
    QList<QAction*> moduleActions_;
};

}  // namespace nvpg::gui
