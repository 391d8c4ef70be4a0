#pragma once

#include <functional>
#include <memory>

#include <QObject>
#include <QString>

class QTimer;
class QWidget;

namespace nvpg::gui {

class CompileController;
class EditorArea;
class Journal;
class WorkspaceDocument;
class WorkspaceFiles;

// Nothing typed is lost: the window's unsaved work goes to its journal a second after an edit and
// at each compile; after a crash or kill -9 the next start offers it back.
class Recovery : public QObject {
    Q_OBJECT

public:
    Recovery(QWidget* window, WorkspaceFiles* files, WorkspaceDocument* document, EditorArea* editors,
             CompileController* controller);
    ~Recovery() override;

    // Writes the journal now.
    void write();
    QString journalFile() const;
    // Offers back the unsaved work of a window that died (the newest, when several did). True
    // when restored.
    bool offerRestore();
    enum class Choice { Restore, Discard, Later };
    // Tests answer the restore offer without a dialog.
    void setQuestion(std::function<Choice(const QString& text)> ask) { ask_ = std::move(ask); }
    // A clean end: nothing to offer back.
    void close();

signals:
    void message(const QString& text, int timeoutMs);

private:
    QWidget* window_;
    WorkspaceFiles* files_;
    WorkspaceDocument* document_;
    EditorArea* editors_;
    std::unique_ptr<Journal> journal_;
    QTimer* timer_;
    std::function<Choice(const QString&)> ask_;
};

}  // namespace nvpg::gui
