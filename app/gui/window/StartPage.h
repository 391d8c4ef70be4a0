#pragma once

#include <QStringList>
#include <QWidget>

class QVBoxLayout;

namespace nvpg::gui {

// What an empty workspace shows instead of a blank editor area: the bundled examples (the list
// File ▸ Examples has), the recent workspaces (File ▸ Open Recent's) and a New module button that
// adds a small kernel that compiles and runs as it is. The window fills the lists and acts on
// the choices; this is only the view.
class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);
    // Each example: its name and its one-line description (the workspace's "description").
    void setExamples(const QList<QPair<QString, QString>>& examples);
    void setRecent(const QStringList& paths);

signals:
    void exampleChosen(const QString& name);
    void recentChosen(const QString& path);
    void newModuleRequested();

private:
    QVBoxLayout* examples_;
    QVBoxLayout* recent_;
};

}  // namespace nvpg::gui
