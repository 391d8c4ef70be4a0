// The Options dock and the Settings dialog: each control edits the document (and only when its
// input is valid), the document's changes come back without echoing as edits, and the toolkit
// preview says what a path holds.
#include <QCheckBox>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>
#include <QToolTip>
#include <QTreeWidget>

#include <functional>

#include "HostileToolkit.h"
#include "TestSupport.h"
#include "core/nvvm/Options.h"
#include "gui/compile/CompileController.h"
#include "gui/dialogs/SettingsDialog.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/output/OutputView.h"
#include "gui/panels/OptionsPanel.h"
#include "gui/panels/ProblemsPanel.h"
#include "gui/window/MainWindow.h"

using nvpg::gui::OptionsPanel;
using nvpg::gui::SettingsDialog;
using nvpg::gui::WorkspaceDocument;
namespace nvvm = nvpg::nvvm;
namespace lto = nvpg::lto;

namespace {

void selectData(QComboBox* c, const QVariant& data) {
    const int i = c->findData(data);
    QVERIFY2(i >= 0, qPrintable(data.toString()));
    c->setCurrentIndex(i);
}

// Where the real toolkit's root is: above nvvm/lib64 in a standard toolkit, above lib64 in a
// pip-wheel tree.
QString realToolkitRoot() {
    auto dir = nvpg::test::realToolkit()->nvvmReport().path.parent_path().parent_path();
    if (dir.filename() == "nvvm") dir = dir.parent_path();
    return QString::fromStdString(dir.string());
}

// Waits until the preview shows the search for `path` and no other search is due.
bool waitForPreview(SettingsDialog& dlg, const QString& path) {
    QString shown;
    bool any = false;
    auto c = QObject::connect(&dlg, &SettingsDialog::previewUpdated, [&](const QString& p) {
        shown = p;
        any = true;
    });
    QDeadlineTimer deadline(30000);
    while ((dlg.previewPending() || !any || shown != path) && !deadline.hasExpired()) QTest::qWait(20);
    QObject::disconnect(c);
    return any && shown == path && !dlg.previewPending();
}

}  // namespace

// A table option's control in the dock, as the type its kind makes.
template <class W>
W* control(const nvpg::gui::OptionsPanel& panel, std::string_view name) {
    auto* w = qobject_cast<W*>(panel.optionControl(name));
    if (!w)
        qFatal("the Options dock has no %s control for %s", W::staticMetaObject.className(), std::string(name).c_str());
    return w;
}

class TestOptions : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanup();

    void defaultsShowLibnvvmValues();
    void oneRowPerTableOption();
    void oneEntryPerValue();
    void archComboSetsAndClearsArch();
    void hoverShowsTheDocsEntries();
    void triStatesMapToOptional_data();
    void triStatesMapToOptional();
    void optLevel();
    void jumpTableDensity();
    void libdeviceAndLtoMode();
    void debugNoteWithoutOpt0();
    void oneSettingsChangePerEdit();
    void badExtraFlagIsNotApplied();
    void extraFlagWithOwnFieldIsRejected();
    void invalidTextSurvivesOtherEdits();
    void typedExtraFlagsApply();
    void halfTypedFlagIsNeverCompiled();
    void resetUpdatesControlsWithoutEditing();
    void resetWithForeignArch();

    void previewOfEmptyFolder();
    void previewOfRealToolkit();
    void previewOfACrashingLibnvvm();
    void closingWhileALibnvvmHangsDoesNotWait();
    void okStoresCancelLeaves();
    void absurdStoredTimeoutsAreNotUsed_data();
    void absurdStoredTimeoutsAreNotUsed();
};

void TestOptions::initTestCase() {
    // Before any QSettings: Qt picks the settings path once.
    nvpg::test::isolateAppData("tst_gui_options");
}

void TestOptions::cleanup() {
    QSettings().clear();
}

void TestOptions::defaultsShowLibnvvmValues() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.setArchs(nvvm::supportedArchs(13), 13, "default: libNVVM's (compute_75)");
    QCOMPARE(panel.archCombo()->itemText(0), QStringLiteral("default: libNVVM's (compute_75)"));
    QCOMPARE(panel.archCombo()->count(), int(nvvm::supportedArchs(13).size()) + 1);
    QCOMPARE(panel.archCombo()->currentIndex(), 0);
    // The default's own value, marked: it leaves the option unset.
    QCOMPARE(control<QComboBox>(panel, "opt")->currentText(), QStringLiteral("3 (default)"));
    QCOMPARE(control<QComboBox>(panel, "ftz")->currentText(), QStringLiteral("off (0, default)"));
    QCOMPARE(control<QComboBox>(panel, "prec-div")->currentText(), QStringLiteral("on (1, default)"));
    QCOMPARE(control<QComboBox>(panel, "prec-sqrt")->currentText(), QStringLiteral("on (1, default)"));
    QCOMPARE(control<QComboBox>(panel, "fma")->currentText(), QStringLiteral("on (1, default)"));
    QCOMPARE(control<QSpinBox>(panel, "jump-table-density")->text(), QStringLiteral("101 (default)"));
    QVERIFY(control<QComboBox>(panel, "ftz")->toolTip().contains("denormals"));
    QVERIFY(control<QSpinBox>(panel, "jump-table-density")->toolTip().contains("-jump-table-density="));
    QVERIFY(!panel.hasInvalidInput());
    QVERIFY(!doc.isModified());  // building the panel edits nothing
}

// The dock's option rows are the option table's, in its order: each control is named, labelled
// and explained as its entry says, edits the document's option to each value it offers, and
// shows that value again when a panel is built on the document.
void TestOptions::oneRowPerTableOption() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.setArchs(nvvm::supportedArchs(13), 13, "default");
    auto* form = qobject_cast<QFormLayout*>(panel.layout());
    QVERIFY(form);
    QStringList rows, want;
    for (int r = 0; r < form->rowCount(); ++r) {
        // Each option's row: its control, then its Show effect button.
        auto* item = form->itemAt(r, QFormLayout::FieldRole);
        const QString row = item && item->widget() ? item->widget()->objectName() : QString();
        if (row.startsWith("row-") && nvvm::findOption(row.mid(4).toStdString())) rows << row.mid(4);
    }
    for (const auto& info : nvvm::optionTable())
        if (!info.outputChoice) want << QString::fromUtf8(info.name.data(), qsizetype(info.name.size()));
    QCOMPARE(rows, want);

    for (const auto& info : nvvm::optionTable()) {
        const std::string name(info.name);
        QWidget* control = panel.optionControl(name);
        if (info.outputChoice) {
            QVERIFY2(!control, name.c_str());
            continue;
        }
        QVERIFY2(control, name.c_str());
        QCOMPARE(control->objectName().toStdString(), name);
        QVERIFY2(control->toolTip().contains(QString::fromUtf8(info.flag.data(), qsizetype(info.flag.size()))),
                 name.c_str());
        QVERIFY2(control->toolTip().contains(QString::fromUtf8(info.help.data(), qsizetype(info.help.size()))),
                 name.c_str());
        const QString label = QString::fromUtf8(info.label.data(), qsizetype(info.label.size()));
        QCOMPARE(control->parentWidget()->objectName(), "row-" + QString::fromStdString(name));
        QVERIFY(panel.effectButton(name) && panel.effectButton(name)->parentWidget() == control->parentWidget());
        auto* labelWidget = qobject_cast<QLabel*>(form->labelForField(control->parentWidget()));
        if (labelWidget) QCOMPARE(labelWidget->buddy(), control);
        auto* check = qobject_cast<QCheckBox*>(control);
        QCOMPARE(check ? check->text() : (labelWidget ? labelWidget->text() : QString()), label);

        // Every value the control offers, then back to unset.
        std::vector<std::function<void()>> choices;
        std::function<void()> unset;
        if (auto* c = qobject_cast<QComboBox*>(control)) {
            QVERIFY2(c->count() > 1, name.c_str());
            int unsetAt = -1;
            for (int i = 0; i < c->count(); ++i) {
                if (c->itemData(i).isValid())
                    choices.push_back([c, i] { c->setCurrentIndex(i); });
                else
                    unsetAt = i;
            }
            QVERIFY2(unsetAt >= 0, name.c_str());
            unset = [c, unsetAt] { c->setCurrentIndex(unsetAt); };
        } else if (check) {
            choices.push_back([check] { check->setChecked(true); });
            unset = [check] { check->setChecked(false); };
        } else if (auto* spin = qobject_cast<QSpinBox*>(control)) {
            // libNVVM's default is a value of the range, which stands for unset.
            const int byDefault =
                QString::fromUtf8(info.libnvvmDefault.data(), qsizetype(info.libnvvmDefault.size())).toInt();
            QCOMPARE(spin->minimum(), info.min);
            QCOMPARE(spin->maximum(), info.max);
            for (int v : {info.min, info.max})
                if (v != byDefault) choices.push_back([spin, v] { spin->setValue(v); });
            unset = [spin, byDefault] { spin->setValue(byDefault); };
        } else {
            QFAIL(name.c_str());
        }
        for (const auto& choose : choices) {
            choose();
            const auto value = doc.workspace().options.get(name);
            QVERIFY2(value, name.c_str());
            const auto flags = doc.workspace().options.flags();
            QCOMPARE(flags.size(), size_t(1));
            QVERIFY2(flags.front().rfind(std::string(info.flag), 0) == 0, flags.front().c_str());
            if (auto* c = qobject_cast<QComboBox*>(control))
                QCOMPARE(QString::fromStdString(*value), c->currentData().toString());
            if (auto* spin = qobject_cast<QSpinBox*>(control))
                QCOMPARE(QString::fromStdString(*value), QString::number(spin->value()));

            OptionsPanel other(&doc);
            other.setArchs(nvvm::supportedArchs(13), 13, "default");
            QWidget* shown = other.optionControl(name);
            if (auto* c = qobject_cast<QComboBox*>(shown))
                QCOMPARE(c->currentIndex(), qobject_cast<QComboBox*>(control)->currentIndex());
            if (auto* b = qobject_cast<QCheckBox*>(shown)) QVERIFY(b->isChecked());
            if (auto* spin = qobject_cast<QSpinBox*>(shown))
                QCOMPARE(spin->value(), qobject_cast<QSpinBox*>(control)->value());
        }
        unset();
        QVERIFY2(!doc.workspace().options.get(name), name.c_str());
        QVERIFY(doc.workspace().options.flags().empty());
    }
}

// Each control offers a value once: libNVVM's default is not a second entry beside its own value
// ("default (0)" and "off (0)" for ftz); choosing it leaves the option unset. The arch's default is
// not a value of the list but a rule (the local GPU's, or the release's), so it is left out.
void TestOptions::oneEntryPerValue() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    int checked = 0;
    for (const auto& info : nvvm::optionTable()) {
        if (info.outputChoice || info.kind == nvvm::OptionKind::Arch) continue;
        const std::string name(info.name);
        const QString byDefault = QString::fromUtf8(info.libnvvmDefault.data(), qsizetype(info.libnvvmDefault.size()));
        QWidget* control = panel.optionControl(name);
        QVERIFY2(control, name.c_str());
        QStringList values, texts;  // what each entry means, and what it says
        if (auto* c = qobject_cast<QComboBox*>(control)) {
            for (int i = 0; i < c->count(); ++i) {
                values << (c->itemData(i).isValid() ? c->itemData(i).toString() : byDefault);
                texts << c->itemText(i);
            }
        } else if (auto* spin = qobject_cast<QSpinBox*>(control)) {
            for (int v = spin->minimum(); v <= spin->maximum(); ++v) {
                spin->setValue(v);
                const bool special = v == spin->minimum() && !spin->specialValueText().isEmpty();
                values << (special ? byDefault : QString::number(v));
                texts << spin->text();
            }
        } else if (qobject_cast<QCheckBox*>(control)) {
            values << "off"
                   << "on";
            texts << "unchecked"
                  << "checked";
        } else {
            QFAIL(name.c_str());
        }
        for (const auto& v : values)
            QVERIFY2(
                values.count(v) == 1,
                qPrintable(QString("%1 offers %2 twice: %3").arg(QString::fromStdString(name), v, texts.join(" | "))));
        QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
        if (!byDefault.isEmpty() && info.kind != nvvm::OptionKind::Switch)
            QVERIFY2(values.contains(byDefault), name.c_str());  // and the default is offered
        ++checked;
    }
    QVERIFY(checked >= 7);
    QVERIFY(doc.workspace().options.flags().empty());  // the spin box went back to its default
}

void TestOptions::archComboSetsAndClearsArch() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.setArchs(nvvm::supportedArchs(13), 13, "default: compute_90 (local GPU)");
    selectData(panel.archCombo(), QStringLiteral("compute_80"));
    QCOMPARE(doc.workspace().options.arch, std::optional<std::string>("compute_80"));
    QVERIFY(doc.isModified());
    panel.archCombo()->setCurrentIndex(0);
    QVERIFY(!doc.workspace().options.arch);
    QVERIFY(panel.archNote()->isHidden());
}

// An option's hover shows its docs entry (resources/docs/options.json: what it does to
// the PTX, its values, default and effect), and the arch selector's the chosen arch's entry
// (arch.json), each item of its list its own.
void TestOptions::hoverShowsTheDocsEntries() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.setArchs(nvvm::supportedArchs(13), 13, "default: compute_90 (local GPU)");
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    auto* ftz = control<QComboBox>(panel, "ftz");
    const QString tip = ftz->toolTip();
    QVERIFY2(tip.contains("denormals") && tip.contains("-ftz="), qPrintable(tip));  // the help and flag, as before
    QVERIFY2(tip.contains("ftz — flush single-precision denormals") && tip.contains("Effect: ") &&
                 tip.contains("add.ftz.f32") && tip.contains("Default: 0") && tip.contains("https://docs.nvidia.com/"),
             qPrintable(tip));
    // A hover shows it.
    QHelpEvent help(QEvent::ToolTip, QPoint(2, 2), ftz->mapToGlobal(QPoint(2, 2)));
    QApplication::sendEvent(ftz, &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains("Effect: "), qPrintable(QToolTip::text()));
    QToolTip::hideText();

    // The arch: the chosen one's entry, changing with the choice; the default shows the option's.
    auto* arch = panel.archCombo();
    QVERIFY2(arch->toolTip().contains("arch — the target architecture"), qPrintable(arch->toolTip()));
    QVERIFY(!arch->toolTip().contains("compute_90 — "));
    selectData(arch, QStringLiteral("compute_90a"));
    QVERIFY2(arch->toolTip().contains("compute_90a — ") && arch->toolTip().contains("wgmma") &&
                 arch->toolTip().contains("SASS target: sm_90a"),
             qPrintable(arch->toolTip()));
    selectData(arch, QStringLiteral("compute_80"));
    QVERIFY2(arch->toolTip().contains("compute_80 — ") && arch->toolTip().contains("cp.async"),
             qPrintable(arch->toolTip()));
    // A workspace's arch shows its entry too (set from the document, not the combo).
    nvvm::Options o = doc.workspace().options;
    o.arch = "compute_89";
    doc.setOptions(o);
    QVERIFY2(arch->toolTip().contains("compute_89 — "), qPrintable(arch->toolTip()));
    // Each arch of the list has its entry on the list's hover.
    for (int i = 1; i < arch->count(); ++i)
        QVERIFY2(arch->itemData(i, Qt::ToolTipRole).toString().contains(arch->itemData(i).toString() + " — "),
                 qPrintable(arch->itemText(i)));
}

void TestOptions::triStatesMapToOptional_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"ftz", "prec-div", "prec-sqrt", "fma"}) QTest::newRow(n) << QString(n);
}

void TestOptions::triStatesMapToOptional() {
    QFETCH(QString, name);
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    auto* combo = panel.findChild<QComboBox*>(name);
    QVERIFY(combo);
    const auto key = name.toStdString();
    const auto d = nvvm::findOption(key)->libnvvmDefault;
    const int byDefault = QString::fromUtf8(d.data(), qsizetype(d.size())).toInt();
    const int other = 1 - byDefault;
    QCOMPARE(combo->count(), 2);
    selectData(combo, other);
    QCOMPARE(doc.workspace().options.get(key), std::optional<std::string>(std::to_string(other)));
    // libNVVM's default: unset, so no flag is passed.
    combo->setCurrentIndex(1 - combo->currentIndex());
    QCOMPARE(doc.workspace().options.get(key), std::nullopt);
    QVERIFY(combo->currentText().contains(QString("(%1, default)").arg(byDefault)));
    // A workspace that sets the default's value shows the default's entry.
    auto options = doc.workspace().options;
    QVERIFY(options.set(key, std::to_string(byDefault)).ok());
    doc.setOptions(options);
    QVERIFY(!combo->currentData().isValid());
}

void TestOptions::optLevel() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    selectData(control<QComboBox>(panel, "opt"), 0);
    QCOMPARE(doc.workspace().options.opt, std::optional(0));
    // 3 is libNVVM's default: its entry leaves the option unset.
    control<QComboBox>(panel, "opt")->setCurrentIndex(1);
    QCOMPARE(control<QComboBox>(panel, "opt")->currentText(), QStringLiteral("3 (default)"));
    QVERIFY(!doc.workspace().options.opt);
}

void TestOptions::jumpTableDensity() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    control<QSpinBox>(panel, "jump-table-density")->setValue(40);
    QCOMPARE(doc.workspace().options.jumpTableDensity, std::optional(40));
    control<QSpinBox>(panel, "jump-table-density")->setValue(0);
    QCOMPARE(doc.workspace().options.jumpTableDensity, std::optional(0));
    // 101 is libNVVM's default: unset.
    control<QSpinBox>(panel, "jump-table-density")->setValue(101);
    QVERIFY(!doc.workspace().options.jumpTableDensity);
    QCOMPARE(control<QSpinBox>(panel, "jump-table-density")->text(), QStringLiteral("101 (default)"));
    QCOMPARE(doc.workspace().options.flags(), std::vector<std::string>{});
}

void TestOptions::libdeviceAndLtoMode() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    QVERIFY(!doc.workspace().libdevice);
    panel.libdeviceCheck()->setChecked(true);
    QVERIFY(doc.workspace().libdevice);
    panel.libdeviceCheck()->setChecked(false);
    QVERIFY(!doc.workspace().libdevice);

    QCOMPARE(doc.workspace().ltoMode, lto::Mode::Program);
    selectData(panel.ltoModeCombo(), QStringLiteral("separate"));
    QCOMPARE(doc.workspace().ltoMode, lto::Mode::Separate);
    QVERIFY(panel.ltoModeCombo()->currentText().startsWith("separate (one Program per module)"));
    selectData(panel.ltoModeCombo(), QStringLiteral("program"));
    QCOMPARE(doc.workspace().ltoMode, lto::Mode::Program);
}

void TestOptions::debugNoteWithoutOpt0() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    QVERIFY(panel.debugNote()->isHidden());
    control<QCheckBox>(panel, "g")->setChecked(true);
    QVERIFY(doc.workspace().options.debug);
    // opt unset means libNVVM's 3: the note shows, and it is a note, not invalid input.
    QVERIFY(!panel.debugNote()->isHidden());
    QVERIFY(panel.debugNote()->text().contains("opt 0"));
    QVERIFY(!panel.hasInvalidInput());
    selectData(control<QComboBox>(panel, "opt"), 0);
    QVERIFY(panel.debugNote()->isHidden());
    control<QComboBox>(panel, "opt")->setCurrentIndex(1);  // "3 (default)"
    QVERIFY(!panel.debugNote()->isHidden());
    control<QCheckBox>(panel, "g")->setChecked(false);
    QVERIFY(panel.debugNote()->isHidden());
    QVERIFY(!doc.workspace().options.debug);
}

void TestOptions::oneSettingsChangePerEdit() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    QSignalSpy spy(&doc, &WorkspaceDocument::settingsChanged);
    selectData(control<QComboBox>(panel, "ftz"), 1);
    QCOMPARE(spy.count(), 1);
    control<QSpinBox>(panel, "jump-table-density")->setValue(7);
    QCOMPARE(spy.count(), 2);
    panel.libdeviceCheck()->setChecked(true);
    QCOMPARE(spy.count(), 3);
    // The document's echo did not move any control.
    QCOMPARE(control<QComboBox>(panel, "ftz")->currentData(), QVariant(1));
    QCOMPARE(control<QSpinBox>(panel, "jump-table-density")->value(), 7);
}

void TestOptions::badExtraFlagIsNotApplied() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.extraFlagsEdit()->setText("-generate-line-info");
    QCOMPARE(doc.workspace().options.extraFlags, std::vector<std::string>{"-generate-line-info"});

    QSignalSpy spy(&doc, &WorkspaceDocument::settingsChanged);
    panel.extraFlagsEdit()->setText("--generate-line-info");
    QVERIFY(panel.hasInvalidInput());
    QVERIFY(!panel.extraFlagsError()->isHidden());
    QVERIFY2(panel.extraFlagsError()->text().contains("single dash"), qPrintable(panel.extraFlagsError()->text()));
    QVERIFY(panel.extraFlagsEdit()->property("invalid").toBool());
    QVERIFY(panel.extraFlagsEdit()->palette().color(QPalette::Base) != panel.palette().color(QPalette::Base));
    QCOMPARE(doc.workspace().options.extraFlags, std::vector<std::string>{"-generate-line-info"});
    QCOMPARE(spy.count(), 0);

    panel.extraFlagsEdit()->setText("-generate-line-info  -Xopt ");
    QVERIFY(!panel.hasInvalidInput());
    QVERIFY(panel.extraFlagsError()->isHidden());
    QVERIFY(!panel.extraFlagsEdit()->property("invalid").toBool());
    QCOMPARE(doc.workspace().options.extraFlags, (std::vector<std::string>{"-generate-line-info", "-Xopt"}));
    QCOMPARE(spy.count(), 1);
    // What the user typed stays as typed (spaces and all): the echo does not rewrite it.
    QCOMPARE(panel.extraFlagsEdit()->text(), QStringLiteral("-generate-line-info  -Xopt "));
}

void TestOptions::extraFlagWithOwnFieldIsRejected() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.extraFlagsEdit()->setText("-ftz=1");
    QVERIFY(panel.hasInvalidInput());
    QVERIFY(panel.extraFlagsError()->text().contains("own field"));
    QVERIFY(doc.workspace().options.extraFlags.empty());
    QVERIFY(!doc.isModified());
}

void TestOptions::invalidTextSurvivesOtherEdits() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.extraFlagsEdit()->setText("--g");
    QVERIFY(panel.hasInvalidInput());
    selectData(control<QComboBox>(panel, "fma"), 0);
    QCOMPARE(doc.workspace().options.fma, std::optional(false));
    QCOMPARE(panel.extraFlagsEdit()->text(), QStringLiteral("--g"));
    QVERIFY(panel.hasInvalidInput());
    // Another part of the app changing a setting does not wipe it either.
    doc.setLibdevice(true);
    QCOMPARE(panel.extraFlagsEdit()->text(), QStringLiteral("--g"));
    QVERIFY(panel.libdeviceCheck()->isChecked());
    QVERIFY(doc.workspace().options.extraFlags.empty());
}

void TestOptions::typedExtraFlagsApply() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.extraFlagsEdit()->setFocus();
    QTest::keyClicks(panel.extraFlagsEdit(), "-generate-line-info");
    // Typed flags apply when the typing pauses.
    QTRY_COMPARE(doc.workspace().options.extraFlags, std::vector<std::string>{"-generate-line-info"});
    QVERIFY(!panel.hasInvalidInput());
    QVERIFY(panel.extraFlagsError()->isHidden());
    QTest::keyClicks(panel.extraFlagsEdit(), " --x");
    QTRY_VERIFY(panel.hasInvalidInput());
    QVERIFY(panel.extraFlagsError()->isVisible());
    QCOMPARE(doc.workspace().options.extraFlags, std::vector<std::string>{"-generate-line-info"});
}

// Someone typing "-ftz=1" into the window's field, key by key with the events of each key
// processed: no compile starts with a part of it ("-ftz" is not a libNVVM flag), the field says
// where ftz is set, and no "unsupported option" shows. A valid flag typed the same way compiles
// once, whole.
void TestOptions::halfTypedFlagIsNeverCompiled() {
    nvpg::test::useNvpgAsEngine();
    nvpg::gui::MainWindow w;
    w.setSaveQuestion([] { return QMessageBox::Discard; });
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy replies(w.controller(), &nvpg::gui::CompileController::replyShown);
    QVERIFY(w.openPaths({QString::fromStdString((nvpg::test::dataDir() / "ir/sinf.ll").string())}));
    QVERIFY(replies.wait(60000));
    QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->busy(), 60000);

    // Every options change compiles at once: what the document holds at each is what is compiled.
    std::vector<std::vector<std::string>> compiled;
    connect(w.document(), &WorkspaceDocument::settingsChanged, this,
            [&] { compiled.push_back(w.document()->workspace().options.extraFlags); });
    auto* panel = w.optionsPanel();
    auto* edit = panel->extraFlagsEdit();
    edit->setFocus();
    QTest::keyClicks(edit, "-ftz=1", Qt::NoModifier, 40);
    QTest::qWait(1500);
    QVERIFY2(compiled.empty(), compiled.empty() ? "" : nvpg::support::join(compiled.front(), " ").c_str());
    QVERIFY(panel->hasInvalidInput());
    QVERIFY(!panel->extraFlagsError()->isHidden());
    QVERIFY2(panel->extraFlagsError()->text().contains("sets the option ftz, which has its own field above"),
             qPrintable(panel->extraFlagsError()->text()));
    QTRY_VERIFY_WITH_TIMEOUT(!w.controller()->busy(), 60000);
    QVERIFY2(!w.output()->errorText().contains("unsupported"), qPrintable(w.output()->errorText()));
    auto* rows = w.problems()->view();
    for (int i = 0; i < rows->topLevelItemCount(); ++i)
        QVERIFY2(!rows->topLevelItem(i)->text(nvpg::gui::ProblemsPanel::MessageColumn).contains("unsupported"),
                 qPrintable(rows->topLevelItem(i)->text(nvpg::gui::ProblemsPanel::MessageColumn)));
    QCOMPARE(w.document()->workspace().options.extraFlags, std::vector<std::string>{});

    edit->selectAll();
    QTest::keyClicks(edit, "-generate-line-info", Qt::NoModifier, 40);
    QTRY_COMPARE(compiled.size(), size_t(1));
    QCOMPARE(compiled.front(), std::vector<std::string>{"-generate-line-info"});
    QVERIFY(!panel->hasInvalidInput());
    QVERIFY(panel->extraFlagsError()->isHidden());
    QTest::qWait(1000);
    QCOMPARE(compiled.size(), size_t(1));
}

void TestOptions::resetUpdatesControlsWithoutEditing() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.setArchs(nvvm::supportedArchs(13), 13, "default");
    panel.extraFlagsEdit()->setText("--opt=3");  // pending invalid input, replaced by the load
    QVERIFY(panel.hasInvalidInput());

    nvpg::workspace::Workspace ws;
    ws.name = "loaded";
    ws.options.arch = "compute_90";
    ws.options.opt = 0;
    ws.options.ftz = true;
    ws.options.precDiv = false;
    ws.options.fma = false;
    ws.options.debug = true;
    ws.options.jumpTableDensity = 10;
    ws.options.extraFlags = {"-generate-line-info"};
    ws.libdevice = true;
    ws.ltoMode = lto::Mode::Separate;

    QSignalSpy settings(&doc, &WorkspaceDocument::settingsChanged);
    QSignalSpy modified(&doc, &WorkspaceDocument::modifiedChanged);
    doc.reset(ws, QString());
    QCOMPARE(settings.count(), 1);  // reset's own, no echo from the panel
    QCOMPARE(modified.count(), 0);
    QVERIFY(!doc.isModified());
    QVERIFY(doc.workspace().options == ws.options);

    QCOMPARE(panel.archCombo()->currentData().toString(), QStringLiteral("compute_90"));
    QCOMPARE(control<QComboBox>(panel, "opt")->currentData(), QVariant(0));
    QCOMPARE(control<QComboBox>(panel, "ftz")->currentData(), QVariant(1));
    QCOMPARE(control<QComboBox>(panel, "prec-div")->currentData(), QVariant(0));
    QVERIFY(!control<QComboBox>(panel, "prec-sqrt")->currentData().isValid());
    QCOMPARE(control<QComboBox>(panel, "fma")->currentData(), QVariant(0));
    QVERIFY(control<QCheckBox>(panel, "g")->isChecked());
    QVERIFY(panel.debugNote()->isHidden());  // opt 0
    QCOMPARE(control<QSpinBox>(panel, "jump-table-density")->value(), 10);
    QVERIFY(panel.libdeviceCheck()->isChecked());
    QCOMPARE(panel.ltoModeCombo()->currentData().toString(), QStringLiteral("separate"));
    QCOMPARE(panel.extraFlagsEdit()->text(), QStringLiteral("-generate-line-info"));
    QVERIFY(!panel.hasInvalidInput());
    QVERIFY(panel.extraFlagsError()->isHidden());

    // Back to defaults: every control shows "default" again.
    doc.reset(nvpg::workspace::Workspace{}, QString());
    QVERIFY(!doc.isModified());
    QCOMPARE(panel.archCombo()->currentIndex(), 0);
    QCOMPARE(control<QComboBox>(panel, "opt")->currentText(), QStringLiteral("3 (default)"));
    QCOMPARE(control<QComboBox>(panel, "ftz")->currentText(), QStringLiteral("off (0, default)"));
    QCOMPARE(control<QSpinBox>(panel, "jump-table-density")->value(), 101);
    QVERIFY(!control<QCheckBox>(panel, "g")->isChecked());
    QVERIFY(!panel.libdeviceCheck()->isChecked());
    QCOMPARE(panel.ltoModeCombo()->currentData().toString(), QStringLiteral("program"));
    QVERIFY(panel.extraFlagsEdit()->text().isEmpty());

    // And edits after a load apply as usual.
    selectData(panel.archCombo(), QStringLiteral("compute_86"));
    QCOMPARE(doc.workspace().options.arch, std::optional<std::string>("compute_86"));
    QVERIFY(doc.isModified());
}

void TestOptions::resetWithForeignArch() {
    WorkspaceDocument doc;
    OptionsPanel panel(&doc);
    panel.setArchs(nvvm::supportedArchs(13), 13, "default");
    nvpg::workspace::Workspace ws;
    ws.options.arch = "compute_52";  // a CUDA 12 arch, not in 13's list
    ws.options.extraFlags = {"--bad"};
    doc.reset(ws, QString());
    QVERIFY(!doc.isModified());
    QCOMPARE(panel.archCombo()->currentData().toString(), QStringLiteral("compute_52"));
    QVERIFY(panel.archCombo()->currentText().contains("not in libNVVM"));
    QVERIFY(!panel.archNote()->isHidden());
    QVERIFY(panel.archNote()->text().contains("compute_52"));
    // The workspace's bad flag is explained, and left in the document as loaded.
    QVERIFY(panel.hasInvalidInput());
    QVERIFY(panel.extraFlagsError()->text().contains("single dash"));
    QCOMPARE(doc.workspace().options.extraFlags, std::vector<std::string>{"--bad"});

    // Choosing a listed arch drops the foreign item.
    const int before = panel.archCombo()->count();
    selectData(panel.archCombo(), QStringLiteral("compute_80"));
    QCOMPARE(doc.workspace().options.arch, std::optional<std::string>("compute_80"));
    QVERIFY(panel.archNote()->isHidden());
    QCOMPARE(panel.archCombo()->count(), before - 1);
}

void TestOptions::previewOfEmptyFolder() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    SettingsDialog dlg;
    QVERIFY(dlg.path().isEmpty());
    dlg.setPath(dir.path());
    QVERIFY(dlg.previewPending());
    QVERIFY(waitForPreview(dlg, dir.path()));
    const QString text = dlg.previewText();
    QVERIFY2(text.contains("not found"), qPrintable(text));
    QVERIFY2(text.contains(dir.path() + "/nvvm/lib64/libnvvm.so.4"), qPrintable(text));
    QVERIFY2(text.contains(dir.path() + "/lib64/libnvvm.so.4"), qPrintable(text));

    dlg.setPath(dir.path() + "/missing");
    QVERIFY(waitForPreview(dlg, dir.path() + "/missing"));
    QVERIFY2(dlg.previewText().contains("does not exist"), qPrintable(dlg.previewText()));
}

void TestOptions::previewOfRealToolkit() {
    const QString root = realToolkitRoot();
    SettingsDialog dlg;
    dlg.setPath(root);
    QVERIFY(waitForPreview(dlg, root));
    const QString text = dlg.previewText();
    QVERIFY2(text.contains("libNVVM: found"), qPrintable(text));
    QVERIFY2(text.contains(root), qPrintable(text));
    QVERIFY2(text.contains("via"), qPrintable(text));

    // Empty: the default search, which finds the same toolkit the tests use.
    dlg.setPath(QString());
    QVERIFY(waitForPreview(dlg, QString()));
    QVERIFY2(dlg.previewText().contains("libNVVM: found"), qPrintable(dlg.previewText()));
}

// A libnvvm.so.4 that segfaults as it loads: the preview opens it in an
// engine process and says what it did; the dialog (and the app) stay up.
void TestOptions::previewOfACrashingLibnvvm() {
    QTemporaryDir dir;
    const auto root = QString::fromStdString(nvpg::test::hostileToolkit(dir.path().toStdString(), "segv").string());
    SettingsDialog dlg;
    dlg.setPath(root);
    QVERIFY(waitForPreview(dlg, root));
    const QString text = dlg.previewText();
    QVERIFY2(text.contains("libNVVM: unusable"), qPrintable(text));
    QVERIFY2(text.contains("libNVVM crashed (SIGSEGV"), qPrintable(text));
    QVERIFY2(text.contains(root + "/lib64/libnvvm.so.4"), qPrintable(text));
}

// One that sleeps as it loads: closing the dialog stops the probe's engine instead of waiting for
// the compile timeout (300 s).
void TestOptions::closingWhileALibnvvmHangsDoesNotWait() {
    QTemporaryDir dir;
    const auto root = QString::fromStdString(nvpg::test::hostileToolkit(dir.path().toStdString(), "sleep").string());
    QElapsedTimer clock;
    {
        SettingsDialog dlg;
        dlg.setPath(root);
        QTest::qWait(800);  // past the debounce: the search is under way
        QVERIFY(dlg.previewPending());
        clock.start();
    }
    QVERIFY2(clock.elapsed() < 3000, qPrintable(QString("the dialog took %1 ms to close").arg(clock.elapsed())));
    QTRY_VERIFY_WITH_TIMEOUT(nvpg::test::childrenOf(::getpid()).empty(), 5000);
}

void TestOptions::okStoresCancelLeaves() {
    QVERIFY(SettingsDialog::cudaPath().isEmpty());
    {
        SettingsDialog dlg;
        dlg.setPath("  /opt/some-cuda ");
        dlg.accept();
        QCOMPARE(dlg.result(), int(QDialog::Accepted));
    }
    QCOMPARE(SettingsDialog::cudaPath(), QStringLiteral("/opt/some-cuda"));
    {
        SettingsDialog dlg;
        QCOMPARE(dlg.path(), QStringLiteral("/opt/some-cuda"));  // opens on the stored one
        dlg.setPath("/elsewhere");
        dlg.reject();
    }
    QCOMPARE(SettingsDialog::cudaPath(), QStringLiteral("/opt/some-cuda"));
    {
        SettingsDialog dlg;
        dlg.setPath(QString());
        dlg.accept();
    }
    QVERIFY(SettingsDialog::cudaPath().isEmpty());
    QVERIFY(!QSettings().contains("toolkit/cudaPath"));
}

QTEST_MAIN(TestOptions)
#include "tst_options.moc"

void TestOptions::absurdStoredTimeoutsAreNotUsed_data() {
    QTest::addColumn<QVariant>("stored");
    QTest::addColumn<double>("used");
    QTest::newRow("nan") << QVariant(QStringLiteral("nan")) << 300.0;
    QTest::newRow("inf") << QVariant(QStringLiteral("inf")) << 300.0;
    QTest::newRow("1e300") << QVariant(QStringLiteral("1e300")) << 300.0;
    QTest::newRow("zero") << QVariant(0) << 300.0;
    QTest::newRow("negative") << QVariant(-5) << 300.0;
    QTest::newRow("text") << QVariant(QStringLiteral("soon")) << 300.0;
    QTest::newRow("a day and a second") << QVariant(86401) << 300.0;
    QTest::newRow("a minute") << QVariant(60) << 60.0;
}

// The settings file is the user's to edit; what nvpg's --engine-timeout refuses must not reach
// the engine from there either.
void TestOptions::absurdStoredTimeoutsAreNotUsed() {
    QFETCH(QVariant, stored);
    QFETCH(double, used);
    QSettings().setValue(QStringLiteral("engine/compileTimeout"), stored);
    QCOMPARE(SettingsDialog::compileTimeoutSeconds(), used);
    QSettings().remove(QStringLiteral("engine/compileTimeout"));
}
