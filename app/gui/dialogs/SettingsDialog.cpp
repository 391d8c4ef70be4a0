#include "gui/dialogs/SettingsDialog.h"

#include <cmath>
#include <memory>

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/engine/Compiler.h"
#include "core/engine/Remote.h"
#include "core/engine/ToolkitProbe.h"
#include "core/toolkit/Toolkit.h"
#include "gui/common/Text.h"
#include "gui/compile/SupervisedEngine.h"

namespace nvpg::gui {

namespace {

const QString kCudaPathKey = QStringLiteral("toolkit/cudaPath");
const QString kFontSizeKey = QStringLiteral("view/editorFontSize");
const QString kOnKey = QStringLiteral("engine/on");
const QString kRemoteNvpgKey = QStringLiteral("engine/remoteNvpg");

// core words the explicit root as the CLI's option; here it is this dialog's path.
QString forTheDialog(QString text) {
    text.replace(QLatin1String("via --cuda-path"), QLatin1String("via the path above"));
    text.replace(QLatin1String("a --cuda-path that"), QLatin1String("a path that"));
    return text;
}

}  // namespace

SettingsDialog::SettingsDialog(QWidget* parent)
    : QDialog(parent), searchCancel_(std::make_shared<engine::CallCancel>()) {
    setWindowTitle(tr("Settings"));
    auto* layout = new QVBoxLayout(this);

    auto* intro = new QLabel(tr("CUDA toolkit: the folder that holds nvvm/lib64/libnvvm.so.4 (a standard toolkit), "
                                "lib64/libnvvm.so.4 (a pip-wheel tree), or a pip site-packages/nvidia folder. Leave it "
                                "empty "
                                "to search as nvpg does: "
                                "CUDA_PATH, CUDA_HOME, CONDA_PREFIX, python3's nvidia packages, /usr/local/cuda, "
                                "/opt/cuda, then the system loader."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* row = new QHBoxLayout;
    path_ = new QLineEdit(this);
    path_->setObjectName(QStringLiteral("cudaPath"));
    path_->setPlaceholderText(tr("search as nvpg does"));
    path_->setClearButtonEnabled(true);
    browse_ = new QPushButton(tr("Browse…"), this);
    browse_->setObjectName(QStringLiteral("browse"));
    row->addWidget(path_, 1);
    row->addWidget(browse_);
    layout->addLayout(row);

    layout->addWidget(new QLabel(tr("What is found there:"), this));
    preview_ = new QPlainTextEdit(this);
    preview_->setObjectName(QStringLiteral("preview"));
    preview_->setReadOnly(true);
    preview_->setLineWrapMode(QPlainTextEdit::NoWrap);
    preview_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(preview_, 1);

    layout->addWidget(new QLabel(tr("Toolkits on this machine (for variants, in the Compare dock):"), this));
    toolkits_ = new QTreeWidget(this);
    toolkits_->setObjectName(QStringLiteral("toolkits"));
    toolkits_->setHeaderLabels({tr("Release"), tr("Folder"), tr("Found")});
    toolkits_->setRootIsDecorated(false);
    layout->addWidget(toolkits_, 1);
    auto* toolkitButtons = new QHBoxLayout;
    auto* addFolder = new QPushButton(tr("Add Folder…"), this);
    addFolder->setObjectName(QStringLiteral("addToolkitFolder"));
    auto* removeFolder = new QPushButton(tr("Remove Folder"), this);
    removeFolder->setObjectName(QStringLiteral("removeToolkitFolder"));
    toolkitButtons->addWidget(addFolder);
    toolkitButtons->addWidget(removeFolder);
    toolkitButtons->addStretch(1);
    layout->addLayout(toolkitButtons);
    connect(addFolder, &QPushButton::clicked, this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("CUDA toolkit folder (a toolkit root or a pip nvidia folder)"));
        if (!dir.isEmpty()) addToolkitFolder(dir);
    });
    connect(removeFolder, &QPushButton::clicked, this, [this] {
        auto* item = toolkits_->currentItem();
        if (!item || !extraPaths_.contains(item->text(1))) return;
        extraPaths_.removeAll(item->text(1));
        listToolkits();
    });
    extraPaths_ = extraToolkitPaths();
    listToolkits();

    inProcess_ = new QCheckBox(tr("Compile and run in the app's own process (for debugging: input that crashes "
                                  "libNVVM, or a kernel that faults, then takes the app down with it)"),
                               this);
    inProcess_->setObjectName(QStringLiteral("inProcess"));
    inProcess_->setChecked(inProcessEngine());
    layout->addWidget(inProcess_);

    // Where the engine runs: here, or on a GPU server over the user's own ssh.
    auto* engineBox = new QGroupBox(tr("Engine"), this);
    auto* engineLayout = new QVBoxLayout(engineBox);
    engineHere_ = new QRadioButton(tr("On this machine"), engineBox);
    engineHere_->setObjectName(QStringLiteral("engineHere"));
    engineLayout->addWidget(engineHere_);
    auto* farRow = new QHBoxLayout;
    engineFar_ = new QRadioButton(tr("On another machine over SSH:"), engineBox);
    engineFar_->setObjectName(QStringLiteral("engineFar"));
    farDest_ = new QLineEdit(engineBox);
    farDest_->setObjectName(QStringLiteral("farDestination"));
    farDest_->setPlaceholderText(tr("gpu-server, alice@gpu-server, a Host alias, ssh://alice@gpu-server:2222"));
    farRow->addWidget(engineFar_);
    farRow->addWidget(farDest_, 1);
    engineLayout->addLayout(farRow);
    auto* nvpgRow = new QHBoxLayout;
    nvpgRow->addWidget(new QLabel(tr("nvpg there:"), engineBox));
    farNvpg_ = new QLineEdit(engineBox);
    farNvpg_->setObjectName(QStringLiteral("farNvpg"));
    farNvpg_->setPlaceholderText(tr("nvpg (on the far login's PATH), or its path"));
    testConnection_ = new QPushButton(tr("Test Connection"), engineBox);
    testConnection_->setObjectName(QStringLiteral("testConnection"));
    nvpgRow->addWidget(farNvpg_, 1);
    nvpgRow->addWidget(testConnection_);
    engineLayout->addLayout(nvpgRow);
    auto* sshNote = new QLabel(tr("ssh runs as you, with your keys, agent and ~/.ssh/config (NVPG_SSH_COMMAND names "
                                  "another ssh command); it never asks for a password or a host key. The far "
                                  "machine's toolkit compiles and its GPU runs: nothing of CUDA is needed here."),
                               engineBox);
    sshNote->setWordWrap(true);
    engineLayout->addWidget(sshNote);
    connection_ = new QPlainTextEdit(engineBox);
    connection_->setObjectName(QStringLiteral("connection"));
    connection_->setReadOnly(true);
    connection_->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    connection_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    // Room for what Test Connection found (it scrolls for the rest), also on a 720p screen.
    connection_->setMinimumHeight(connection_->fontMetrics().lineSpacing() * 6);
    connection_->setMaximumHeight(connection_->fontMetrics().lineSpacing() * 12);
    connection_->hide();
    engineLayout->addWidget(connection_);
    layout->addWidget(engineBox);
    const auto far = farEnd();
    (far ? engineFar_ : engineHere_)->setChecked(true);
    if (far) {
        farDest_->setText(QString::fromStdString(far->destination));
        if (far->remoteNvpg != "nvpg") farNvpg_->setText(QString::fromStdString(far->remoteNvpg));
    }
    const auto enableFar = [this] {
        const bool on = engineFar_->isChecked();
        farDest_->setEnabled(on);
        farNvpg_->setEnabled(on);
        testConnection_->setEnabled(on);
        // In the app's own process is this machine's.
        inProcess_->setEnabled(!on);
    };
    connect(engineFar_, &QRadioButton::toggled, this, enableFar);
    enableFar();
    connect(testConnection_, &QPushButton::clicked, this, &SettingsDialog::startConnectionTest);
    auto* timeoutRow = new QHBoxLayout;
    timeoutRow->addWidget(new QLabel(tr("Stop a compile that takes longer than"), this));
    compileTimeout_ = new QSpinBox(this);
    compileTimeout_->setObjectName(QStringLiteral("compileTimeout"));
    compileTimeout_->setRange(5, int(engine::kMaxTimeoutSeconds));
    compileTimeout_->setSuffix(tr(" s"));
    compileTimeout_->setValue(int(compileTimeoutSeconds()));
    timeoutRow->addWidget(compileTimeout_);
    timeoutRow->addStretch(1);
    layout->addLayout(timeoutRow);
    auto* fontRow = new QHBoxLayout;
    fontRow->addWidget(new QLabel(tr("Font size of the editors and output panes"), this));
    fontSize_ = new QSpinBox(this);
    fontSize_->setObjectName(QStringLiteral("editorFontSize"));
    fontSize_->setRange(6, 40);
    fontSize_->setSuffix(tr(" pt"));
    fontSize_->setValue(editorFontSize());
    fontRow->addWidget(fontSize_);
    fontRow->addWidget(new QLabel(tr("(View ▸ Zoom, Ctrl+= / Ctrl+- / Ctrl+0, adds to it)"), this));
    fontRow->addStretch(1);
    layout->addLayout(fontRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    // A search opens libraries and may ask python3 for its site-packages: not on each keystroke.
    debounce_.setSingleShot(true);
    debounce_.setInterval(300);
    connect(&debounce_, &QTimer::timeout, this, &SettingsDialog::startSearch);
    connect(path_, &QLineEdit::textChanged, this, [this] { debounce_.start(); });
    connect(browse_, &QPushButton::clicked, this, &SettingsDialog::browse);

    path_->setText(cudaPath());
    debounce_.stop();
    startSearch();
    resize(760, 640);
}

SettingsDialog::~SettingsDialog() {
    // A libNVVM that hangs as it loads would hold the search's join until the compile timeout.
    searchCancel_->cancel();
    // A connection being tested ends with the dialog.
    if (testCancel_) testCancel_->cancel();
}

std::optional<engine::FarEnd> SettingsDialog::farEnd() {
    QSettings settings;
    const auto on = settings.value(kOnKey).toString().trimmed();
    if (on.isEmpty()) return std::nullopt;
    engine::FarEnd far;
    far.destination = on.toStdString();
    const auto nvpg = settings.value(kRemoteNvpgKey).toString().trimmed();
    if (!nvpg.isEmpty()) far.remoteNvpg = nvpg.toStdString();
    return far;
}

std::optional<engine::FarEnd> SettingsDialog::farEndEdited(QString* problem) const {
    if (!engineFar_->isChecked()) return std::nullopt;
    engine::FarEnd far;
    far.destination = farDest_->text().trimmed().toStdString();
    if (const auto nvpg = farNvpg_->text().trimmed(); !nvpg.isEmpty()) far.remoteNvpg = nvpg.toStdString();
    if (auto st = engine::checkDestination(far.destination, "the machine to connect to"); !st) {
        if (problem) *problem = qstr(st.error().message);
        return std::nullopt;
    }
    return far;
}

QString SettingsDialog::testConnection(const engine::FarEnd& far, const engine::CallCancel* cancel) {
    auto launcher = engine::engineLauncher("engine", far);
    if (!launcher) return tr("Cannot connect: %1").arg(qstr(launcher.error().message));
    engine::Compiler compiler(nullptr, std::nullopt, launcher->argv, compileTimeoutSeconds());
    compiler.setFarEnd(far);
    auto described = compiler.describeFar(/*withGpus=*/true, cancel);
    if (!described) return tr("Failed: %1").arg(qstr(described.error().message));
    return tr("Connected.\n\n") + qstr(engine::describeFarMachine(far, *described));
}

QString SettingsDialog::connectionText() const {
    return connection_->toPlainText();
}

void SettingsDialog::startConnectionTest() {
    connection_->show();
    QString problem;
    const auto far = farEndEdited(&problem);
    if (!far) {
        connection_->setPlainText(problem.isEmpty() ? tr("Choose \"On another machine over SSH\" first.") : problem);
        emit connectionTested();
        return;
    }
    connection_->setPlainText(tr("Connecting to %1…").arg(qstr(far->destination)));
    if (testCancel_) testCancel_->cancel();  // a test still running is for what was typed before
    testCancel_ = std::make_shared<engine::CallCancel>();
    tests_.submit([far = *far, cancel = testCancel_](const JobToken&) { return testConnection(far, cancel.get()); },
                  [this](QString text) {
                      connection_->setPlainText(text);
                      emit connectionTested();
                  });
}

QStringList SettingsDialog::extraToolkitPaths() {
    return QSettings().value(QStringLiteral("toolkit/extraPaths")).toStringList();
}

void SettingsDialog::setExtraToolkitPaths(const QStringList& paths) {
    QSettings().setValue(QStringLiteral("toolkit/extraPaths"), paths);
}

QString SettingsDialog::cudaPath() {
    return QSettings().value(kCudaPathKey).toString();
}

double SettingsDialog::compileTimeoutSeconds() {
    // The settings file is the user's to edit: a value nvpg's --engine-timeout would refuse (nan,
    // 0, 1e300, text) is taken as the default rather than passed to the engine.
    constexpr double kDefault = 300;
    bool ok = false;
    const double s = QSettings().value(QStringLiteral("engine/compileTimeout"), kDefault).toDouble(&ok);
    return ok && std::isfinite(s) && s > 0 && s <= engine::kMaxTimeoutSeconds ? s : kDefault;
}

int SettingsDialog::editorFontSize() {
    const int system = QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize();
    bool ok = false;
    const int size = QSettings().value(kFontSizeKey, system).toInt(&ok);
    return ok && size >= 6 && size <= 40 ? size : system;
}

bool SettingsDialog::inProcessEngine() {
    return QSettings().value(QStringLiteral("engine/inProcess"), false).toBool();
}

QString SettingsDialog::path() const {
    return path_->text().trimmed();
}

void SettingsDialog::setPath(const QString& path) {
    path_->setText(path);
}

QString SettingsDialog::previewText() const {
    return preview_->toPlainText();
}

bool SettingsDialog::previewPending() const {
    return debounce_.isActive() || searches_.busy();
}

void SettingsDialog::accept() {
    QString farProblem;
    const auto far = farEndEdited(&farProblem);
    if (engineFar_->isChecked() && !far) {
        // Nothing is stored while the destination is one ssh would misread.
        connection_->show();
        connection_->setPlainText(farProblem);
        farDest_->setFocus();
        return;
    }
    QSettings settings;
    // Empty means "search": removing the key keeps that the same as never having set it.
    if (path().isEmpty())
        settings.remove(kCudaPathKey);
    else
        settings.setValue(kCudaPathKey, path());
    if (far) {
        settings.setValue(kOnKey, qstr(far->destination));
        if (far->remoteNvpg == "nvpg")
            settings.remove(kRemoteNvpgKey);
        else
            settings.setValue(kRemoteNvpgKey, qstr(far->remoteNvpg));
    } else {
        settings.remove(kOnKey);
    }
    settings.setValue(QStringLiteral("engine/inProcess"), inProcess_->isChecked());
    setExtraToolkitPaths(extraPaths_);
    settings.setValue(QStringLiteral("engine/compileTimeout"), compileTimeout_->value());
    // The system's size is not stored, so the default follows the desktop's.
    if (fontSize_->value() == QFontDatabase::systemFont(QFontDatabase::FixedFont).pointSize())
        settings.remove(kFontSizeKey);
    else
        settings.setValue(kFontSizeKey, fontSize_->value());
    QDialog::accept();
}

void SettingsDialog::addToolkitFolder(const QString& folder) {
    if (!extraPaths_.contains(folder)) extraPaths_ << folder;
    listToolkits();
}

void SettingsDialog::listToolkits() {
    toolkitsListed_ = false;
    std::vector<std::filesystem::path> extra;
    for (const auto& p : extraPaths_) extra.emplace_back(p.toStdString());
    // Looking may ask python3 for its site-packages: off the UI thread. Only the newest listing
    // is shown.
    runInBackground(
        this, [extra] { return toolkit::findToolkits({}, extra); },
        [this, listing = ++listings_](std::vector<toolkit::FoundToolkit> found) {
            if (listing == listings_) showToolkits(found);
        });
}

void SettingsDialog::showToolkits(const std::vector<toolkit::FoundToolkit>& found) {
    toolkits_->clear();
    for (const auto& t : found) {
        auto* item = new QTreeWidgetItem(toolkits_);
        item->setText(0, t.release ? tr("CUDA %1").arg(qstr(t.release->version)) : tr("CUDA ?"));
        item->setText(1, qstr(t.root.string()));
        item->setText(2, qstr(t.via));
        item->setToolTip(1, tr("libNVVM: %1\nlibdevice: %2\nnvJitLink: %3\nrelease: %4")
                                .arg(qstr(t.nvvm.path.string()),
                                     t.libdevice.found ? qstr(t.libdevice.path.string()) : tr("not found"),
                                     t.nvJitLink.found ? qstr(t.nvJitLink.path.string()) : tr("not found"),
                                     t.release ? qstr(t.release->source) : tr("not recorded beside it")));
    }
    // An added folder with no toolkit in it says so rather than vanish from the list.
    for (const auto& p : extraPaths_) {
        bool listed = false;
        for (const auto& t : found) listed = listed || qstr(t.root.string()) == p;
        if (listed) continue;
        auto* item = new QTreeWidgetItem(toolkits_);
        item->setText(0, tr("no toolkit"));
        item->setText(1, p);
        item->setText(2, tr("added in Settings: no libNVVM found there"));
    }
    toolkits_->resizeColumnToContents(0);
    toolkits_->resizeColumnToContents(1);
    toolkitsListed_ = true;
    emit toolkitsUpdated();
}

void SettingsDialog::browse() {
    const QString start = path().isEmpty() ? QStringLiteral("/usr/local/cuda") : path();
    const QString dir = QFileDialog::getExistingDirectory(this, tr("CUDA toolkit folder"), start);
    if (dir.isEmpty()) return;
    path_->setText(dir);
    debounce_.stop();
    startSearch();
}

void SettingsDialog::startSearch() {
    // A slow disk or python3 query must not freeze the dialog. A path typed while one is searched
    // is searched next; the one in hand is shown when done, then the newer one.
    searches_.submit([path = this->path(), cancel = searchCancel_](
                         const JobToken&) { return std::make_pair(path, describeToolkit(path, cancel.get())); },
                     [this](std::pair<QString, QString> found) { searchDone(found.first, found.second); });
}

void SettingsDialog::searchDone(const QString& path, const QString& text) {
    preview_->setPlainText(text);
    emit previewUpdated(path);
}

QString SettingsDialog::describeToolkit(const QString& path, const engine::CallCancel* cancel) {
    toolkit::SearchConfig config;
    QString out;
    if (path.isEmpty()) {
        out += tr("No path set: the default search.\n\n");
    } else {
        const QFileInfo fi(path);
        if (!fi.exists())
            out += tr("%1 does not exist.\n\n").arg(path);
        else if (!fi.isDir())
            out += tr("%1 is not a folder.\n\n").arg(path);
        config.explicitRoot = path.toStdString();
    }

    const auto root = config.explicitRoot;
    auto tk = toolkit::Toolkit::locate(std::move(config));
    if (!tk) {
        // Without libNVVM the search stops there, so the others are not reported.
        out += tr("libNVVM: not found\n%1").arg(qstr(tk.error().message));
        return forTheDialog(out);
    }
    // Opened in an engine process, as the app's toolkit is (MainWindow::probeToolkit): a libNVVM
    // that crashes or hangs as it loads is described here, not run in the app.
    const auto command = inProcessEngine() ? std::vector<std::string>{} : EngineSettings::defaults().command;
    if (auto opened = command.empty() ? (*tk)->open()
                                      : engine::probeToolkit(**tk, root, command, compileTimeoutSeconds(), cancel);
        !opened) {
        out += tr("libNVVM: unusable\n%1").arg(qstr(opened.error().message));
        return forTheDialog(out);
    }
    for (const auto& r : (*tk)->reports()) {
        if (r.found) {
            out +=
                tr("%1: found, %2\n  %3 (%4)\n").arg(qstr(r.name), qstr(r.version), qstr(r.path.string()), qstr(r.via));
            if (!r.problem.empty()) out += QStringLiteral("  %1\n").arg(qstr(r.problem));
        } else {
            out += tr("%1: not found\n  %2\n").arg(qstr(r.name), qstr(r.problem));
            if (!r.tried.empty()) out += tr("  places tried:\n");
            for (const auto& t : r.tried)
                out += QStringLiteral("    %1 (%2): %3\n").arg(qstr(t.place), qstr(t.via), qstr(t.why));
        }
        out += QLatin1Char('\n');
    }
    return forTheDialog(out.trimmed() + QLatin1Char('\n'));
}

}  // namespace nvpg::gui
