#pragma once

#include <QStringList>
#include <QWidget>

class QPushButton;
class QVBoxLayout;

namespace nvpg::gui {

// What an empty workspace shows instead of a blank editor area: the bundled examples (the list
// File ▸ Examples has), the recent workspaces (File ▸ Open Recent's), a New module button that
// adds a small kernel that compiles and runs as it is, and an Open button (File ▸ Open's: a
// workspace or the user's own IR files). The window fills the lists and acts on the choices;
// this is only the view.
class StartPage : public QWidget {
    Q_OBJECT

public:
    explicit StartPage(QWidget* parent = nullptr);
    // Each example: its name and its one-line description (the workspace's "description").
    void setExamples(const QList<QPair<QString, QString>>& examples);
    void setRecent(const QStringList& paths);
    // The bundled course's size: a button opens it (hidden when there is none).
    void setCourse(int lessons);
    // Lies over `widget` (same parent, same geometry, kept so as it moves and resizes) instead of
    // taking its place: the widget stays shown underneath, so the first module's editor is laid
    // out and painted as it always was, without a stall when the page goes.
    void cover(QWidget* widget);

signals:
    void exampleChosen(const QString& name);
    void recentChosen(const QString& path);
    void newModuleRequested();
    void openRequested();
    void courseRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* covered_ = nullptr;
    QVBoxLayout* examples_;
    QVBoxLayout* recent_;
    QPushButton* course_ = nullptr;
};

}  // namespace nvpg::gui
