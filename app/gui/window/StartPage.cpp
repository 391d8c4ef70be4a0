#include "gui/window/StartPage.h"

#include <QCommandLinkButton>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include "core/nvvm/Module.h"

namespace nvpg::gui {

namespace {

QLabel* heading(const QString& text, QWidget* parent) {
    auto* l = new QLabel(QStringLiteral("<h3>%1</h3>").arg(text.toHtmlEscaped()), parent);
    l->setTextFormat(Qt::RichText);
    return l;
}

void clear(QVBoxLayout* layout) {
    while (auto* item = layout->takeAt(0)) {
        delete item->widget();
        delete item;
    }
}

}  // namespace

StartPage::StartPage(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("startPage"));
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto* body = new QWidget(scroll);
    scroll->setWidget(body);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(24, 16, 24, 16);

    auto* title = new QLabel(tr("<h2>NVVM Playground</h2><p>Edit NVVM IR, see libNVVM's PTX and the LTO result side "
                                "by side, run the kernels on your GPU. Start from a small kernel, your own IR files, "
                                "an example, or a workspace you had open.</p>"),
                             body);
    title->setWordWrap(true);
    layout->addWidget(title);

    auto* newModule = new QPushButton(tr("New module"), body);
    newModule->setObjectName(QStringLiteral("startNewModule"));
    newModule->setToolTip(
        tr("A small complete kernel (data[i] *= k) with a run configuration: it compiles, survives "
           "LTO and runs as it is (Module ▸ New Module, Ctrl+Shift+N)"));
    newModule->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    connect(newModule, &QPushButton::clicked, this, &StartPage::newModuleRequested);
    auto* openFiles = new QPushButton(tr("Open…"), body);
    openFiles->setObjectName(QStringLiteral("startOpen"));
    openFiles->setToolTip(tr("A workspace (.nvpg), or NVVM IR files, %1: the IR files you choose, one or several, "
                             "become the modules of a new workspace (File ▸ Open, Ctrl+O)")
                              .arg(QString::fromStdString(nvvm::moduleFileKindsText())));
    openFiles->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    connect(openFiles, &QPushButton::clicked, this, &StartPage::openRequested);
    course_ = new QPushButton(tr("Learn NVVM: the course"), body);
    course_->setObjectName(QStringLiteral("startCourse"));
    course_->setToolTip(
        tr("Lessons that check themselves, from a first kernel to registers and spills (File ▸ "
           "Lessons); it goes on where you left it"));
    course_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    course_->hide();
    connect(course_, &QPushButton::clicked, this, &StartPage::courseRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(newModule);
    buttons->addWidget(openFiles);
    buttons->addWidget(course_);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    // Recent first: it is short, and what a returning user wants.
    layout->addWidget(heading(tr("Recent"), body));
    recent_ = new QVBoxLayout;
    recent_->setSpacing(0);
    layout->addLayout(recent_);
    layout->addWidget(heading(tr("Examples"), body));
    examples_ = new QVBoxLayout;
    examples_->setSpacing(0);
    layout->addLayout(examples_);
    layout->addStretch(1);
}

void StartPage::cover(QWidget* widget) {
    covered_ = widget;
    setAutoFillBackground(true);
    widget->installEventFilter(this);
    setGeometry(widget->geometry());
    raise();
}

bool StartPage::eventFilter(QObject* watched, QEvent* event) {
    if (watched == covered_ && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        setGeometry(covered_->geometry());
    return QWidget::eventFilter(watched, event);
}

void StartPage::setExamples(const QList<QPair<QString, QString>>& examples) {
    clear(examples_);
    for (const auto& [name, description] : examples) {
        auto* b = new QCommandLinkButton(name, description.section(". ", 0, 0), this);
        b->setObjectName(QStringLiteral("startExample"));
        b->setProperty("example", name);
        b->setToolTip(description);
        connect(b, &QCommandLinkButton::clicked, this, [this, name] { emit exampleChosen(name); });
        examples_->addWidget(b);
    }
}

void StartPage::setCourse(int lessons) {
    course_->setVisible(lessons > 0);
    course_->setText(tr("Learn NVVM: the course (%1 lessons)").arg(lessons));
}

void StartPage::setRecent(const QStringList& paths) {
    clear(recent_);
    if (paths.isEmpty()) {
        recent_->addWidget(new QLabel(tr("No recent workspaces yet: the ones you open or save appear here."), this));
        return;
    }
    for (const auto& path : paths) {
        auto* b = new QCommandLinkButton(QFileInfo(path).fileName(), path, this);
        b->setObjectName(QStringLiteral("startRecent"));
        b->setProperty("path", path);
        connect(b, &QCommandLinkButton::clicked, this, [this, path] { emit recentChosen(path); });
        recent_->addWidget(b);
    }
}

}  // namespace nvpg::gui
