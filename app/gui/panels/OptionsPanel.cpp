#include "panels/OptionsPanel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSpinBox>

#include "document/WorkspaceDocument.h"
#include "lto/Mode.h"
#include "nvvm/Options.h"

namespace nvpg::gui {

namespace {

// libNVVM's own values when a flag is not passed (libNVVM API docs).
constexpr int kDefaultOpt = 3;
constexpr int kDefaultJumpTableDensity = 101;
constexpr bool kDefaultFtz = false, kDefaultPrecDiv = true, kDefaultPrecSqrt = true,
               kDefaultFma = true;

// Marks an arch item that is not in libNVVM's list but came from the document, so the combo
// can show what a loaded workspace asks for instead of silently showing something else.
constexpr int kForeignArchRole = Qt::UserRole + 1;

const QColor kErrorColor(0xc6, 0x28, 0x28);

QString tooltipFor(std::string_view name) {
    for (const auto& o : nvvm::optionTable()) {
        if (o.name != name) continue;
        const QString flag = QString::fromUtf8(o.flag.data(), qsizetype(o.flag.size()));
        const QString help = QString::fromUtf8(o.help.data(), qsizetype(o.help.size()));
        const QString allowed = QString::fromUtf8(o.allowed.data(), qsizetype(o.allowed.size()));
        return QStringLiteral("%1\nlibNVVM flag: %2 (%3)").arg(help, flag, allowed);
    }
    return {};
}

std::vector<std::string> splitFlags(const QString& text) {
    std::vector<std::string> out;
    static const QRegularExpression space(QStringLiteral("\\s+"));
    for (const auto& t : text.split(space, Qt::SkipEmptyParts)) out.push_back(t.toStdString());
    return out;
}

QString joinFlags(const std::vector<std::string>& flags) {
    QStringList parts;
    for (const auto& f : flags) parts << QString::fromStdString(f);
    return parts.join(QLatin1Char(' '));
}

std::optional<bool> triValue(const QComboBox* c) {
    const QVariant v = c->currentData();
    if (!v.isValid()) return std::nullopt;
    return v.toInt() != 0;
}

void setTriValue(QComboBox* c, std::optional<bool> v) {
    c->setCurrentIndex(v ? c->findData(*v ? 1 : 0) : 0);
}

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

QLabel* makeNote(QWidget* parent, const char* name, bool error) {
    auto* l = new QLabel(parent);
    l->setObjectName(QString::fromLatin1(name));
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (error) {
        QPalette p = l->palette();
        p.setColor(QPalette::WindowText, kErrorColor);
        l->setPalette(p);
    }
    l->hide();
    return l;
}

}  // namespace

OptionsPanel::OptionsPanel(WorkspaceDocument* document, QWidget* parent)
    : QWidget(parent), document_(document) {
    auto* form = new QFormLayout(this);
    // The dock is narrow and sits in a scroll area: let fields shrink and wrap rather than
    // widen the dock to the longest item text.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    auto shrinkable = [](QComboBox* c) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(10);
    };

    arch_ = new QComboBox(this);
    arch_->setObjectName(QStringLiteral("arch"));
    arch_->setToolTip(tooltipFor("arch"));
    shrinkable(arch_);
    archNote_ = makeNote(this, "archNote", true);
    form->addRow(tr("arch"), arch_);
    form->addRow(QString(), archNote_);

    opt_ = new QComboBox(this);
    opt_->setObjectName(QStringLiteral("opt"));
    opt_->addItem(tr("default (%1)").arg(kDefaultOpt), QVariant());
    opt_->addItem(tr("0 (no optimisation)"), 0);
    opt_->addItem(tr("3"), 3);
    opt_->setToolTip(tooltipFor("opt"));
    shrinkable(opt_);
    form->addRow(tr("opt"), opt_);

    ftz_ = makeTriState("ftz", kDefaultFtz);
    precDiv_ = makeTriState("prec-div", kDefaultPrecDiv);
    precSqrt_ = makeTriState("prec-sqrt", kDefaultPrecSqrt);
    fma_ = makeTriState("fma", kDefaultFma);
    for (auto* c : {ftz_, precDiv_, precSqrt_, fma_}) form->addRow(c->objectName(), c);

    debug_ = new QCheckBox(tr("debug info (-g, needs opt 0)"), this);
    debug_->setObjectName(QStringLiteral("g"));
    debug_->setToolTip(tooltipFor("g"));
    debugNote_ = makeNote(this, "debugNote", false);
    form->addRow(QString(), debug_);
    form->addRow(QString(), debugNote_);

    jumpTable_ = new QSpinBox(this);
    jumpTable_->setObjectName(QStringLiteral("jump-table-density"));
    // -1 stands for "unset" so that libNVVM's own default applies and no flag is passed.
    jumpTable_->setRange(-1, 101);
    jumpTable_->setSpecialValueText(tr("default (%1)").arg(kDefaultJumpTableDensity));
    jumpTable_->setValue(-1);
    jumpTable_->setToolTip(tooltipFor("jump-table-density"));
    form->addRow(tr("jump-table density"), jumpTable_);

    libdevice_ = new QCheckBox(tr("link libdevice (lazily)"), this);
    libdevice_->setObjectName(QStringLiteral("libdevice"));
    libdevice_->setToolTip(
        tr("Adds libdevice (nvvm/libdevice/libdevice.10.bc) with nvvmLazyAddModuleToProgram: only "
           "the functions the modules call are linked, once per program."));
    form->addRow(QString(), libdevice_);

    ltoMode_ = new QComboBox(this);
    ltoMode_->setObjectName(QStringLiteral("ltoMode"));
    ltoMode_->addItem(tr("program (recompile the PTX's Program with -gen-lto)"),
                      QStringLiteral("program"));
    ltoMode_->addItem(tr("separate (one Program per module)"), QStringLiteral("separate"));
    // The dock is narrow: the items' full text stays reachable when the combo cuts it.
    for (int i = 0; i < ltoMode_->count(); ++i)
        ltoMode_->setItemData(i, ltoMode_->itemText(i), Qt::ToolTipRole);
    ltoMode_->setToolTip(
        tr("How the LTO-IR that nvJitLink links is made. Kernels not listed in @llvm.used are "
           "dropped by the link either way."));
    shrinkable(ltoMode_);
    form->addRow(tr("LTO mode"), ltoMode_);

    extra_ = new QLineEdit(this);
    extra_->setObjectName(QStringLiteral("extraFlags"));
    extra_->setPlaceholderText(tr("raw libNVVM flags, e.g. -generate-line-info"));
    extra_->setToolTip(
        tr("Raw libNVVM flags separated by spaces, passed as written after the options above. "
           "Options that have a field above are set there."));
    extra_->setClearButtonEnabled(true);
    extraPalette_ = extra_->palette();
    extraError_ = makeNote(this, "extraFlagsError", true);
    form->addRow(tr("extra flags"), extra_);
    form->addRow(QString(), extraError_);

    setArchs(nvvm::supportedArchs(cudaMajor_), cudaMajor_, tr("default (libNVVM's)"));

    connect(arch_, &QComboBox::currentIndexChanged, this, [this] {
        if (syncing_) return;
        const QVariant v = arch_->currentData();
        const auto arch = v.isValid() ? std::optional(v.toString().toStdString()) : std::nullopt;
        editOptions([&](nvvm::Options& o) { o.arch = arch; });
        // A loaded workspace's unlisted arch is offered only while it is the one chosen.
        QScopedValueRollback guard(syncing_, true);
        const QSignalBlocker block(arch_);
        selectArch(arch);
    });
    connect(opt_, &QComboBox::currentIndexChanged, this, [this] {
        if (syncing_) return;
        const QVariant v = opt_->currentData();
        editOptions([&](nvvm::Options& o) {
            o.opt = v.isValid() ? std::optional(v.toInt()) : std::nullopt;
        });
    });
    auto connectTri = [this](QComboBox* c, std::optional<bool> nvvm::Options::*field) {
        connect(c, &QComboBox::currentIndexChanged, this, [this, c, field] {
            if (syncing_) return;
            const auto v = triValue(c);
            editOptions([&](nvvm::Options& o) { o.*field = v; });
        });
    };
    connectTri(ftz_, &nvvm::Options::ftz);
    connectTri(precDiv_, &nvvm::Options::precDiv);
    connectTri(precSqrt_, &nvvm::Options::precSqrt);
    connectTri(fma_, &nvvm::Options::fma);
    connect(debug_, &QCheckBox::toggled, this, [this](bool on) {
        if (syncing_) return;
        editOptions([&](nvvm::Options& o) { o.debug = on; });
    });
    connect(jumpTable_, &QSpinBox::valueChanged, this, [this](int v) {
        if (syncing_) return;
        editOptions([&](nvvm::Options& o) {
            o.jumpTableDensity = v < 0 ? std::nullopt : std::optional(v);
        });
    });
    connect(libdevice_, &QCheckBox::toggled, this, [this](bool on) {
        if (syncing_) return;
        QScopedValueRollback guard(applying_, true);
        document_->setLibdevice(on);
    });
    connect(ltoMode_, &QComboBox::currentIndexChanged, this, [this] {
        if (syncing_) return;
        const auto mode = lto::parseMode(ltoMode_->currentData().toString().toStdString());
        QScopedValueRollback guard(applying_, true);
        document_->setLtoMode(mode.value_or(lto::Mode::Program));
    });
    connect(extra_, &QLineEdit::textChanged, this, [this] {
        if (!syncing_) onExtraFlagsEdited();
    });
    connect(document_, &WorkspaceDocument::settingsChanged, this, &OptionsPanel::syncFromDocument);

    syncFromDocument();
}

QComboBox* OptionsPanel::makeTriState(const char* name, bool libnvvmDefault) {
    auto* c = new QComboBox(this);
    c->setObjectName(QString::fromLatin1(name));
    c->addItem(tr("default (%1)").arg(libnvvmDefault ? 1 : 0), QVariant());
    c->addItem(tr("on (1)"), 1);
    c->addItem(tr("off (0)"), 0);
    c->setToolTip(tooltipFor(name));
    return c;
}

void OptionsPanel::setArchs(const std::vector<std::string>& archs, int cudaMajor,
                            const QString& defaultLabel) {
    cudaMajor_ = cudaMajor;
    defaultArchLabel_ = defaultLabel.isEmpty() ? tr("default") : defaultLabel;
    {
        QScopedValueRollback guard(syncing_, true);
        QSignalBlocker block(arch_);
        arch_->clear();
        arch_->addItem(defaultArchLabel_, QVariant());
        arch_->setItemData(0, defaultArchLabel_, Qt::ToolTipRole);
        for (const auto& a : archs)
            arch_->addItem(QString::fromStdString(a), QString::fromStdString(a));
        selectArch(document_->workspace().options.arch);
    }
    updateNotes();
}

bool OptionsPanel::hasInvalidInput() const {
    return extraInvalid_;
}

void OptionsPanel::editOptions(const std::function<void(nvvm::Options&)>& edit) {
    nvvm::Options o = document_->workspace().options;
    edit(o);
    {
        QScopedValueRollback guard(applying_, true);
        document_->setOptions(o);
    }
    updateNotes();
}

bool OptionsPanel::checkExtraFlags(const std::vector<std::string>& flags) {
    nvvm::Options candidate;
    candidate.extraFlags = flags;
    // Validated alone, so that the message is about these flags and not about another field.
    const auto status = candidate.validate(cudaMajor_);
    extraInvalid_ = !status.ok();
    extraError_->setText(extraInvalid_ ? QString::fromStdString(status.error().message)
                                       : QString());
    extraError_->setVisible(extraInvalid_);
    QPalette p = extraPalette_;
    if (extraInvalid_)
        p.setColor(QPalette::Base, mix(extraPalette_.color(QPalette::Base), kErrorColor, 0.2));
    extra_->setPalette(p);
    extra_->setProperty("invalid", extraInvalid_);
    return !extraInvalid_;
}

void OptionsPanel::onExtraFlagsEdited() {
    const auto tokens = splitFlags(extra_->text());
    if (!checkExtraFlags(tokens)) return;
    // Recorded first: the settingsChanged this causes must not rewrite what the user typed.
    syncedExtraFlags_ = tokens;
    editOptions([&](nvvm::Options& o) { o.extraFlags = tokens; });
}

void OptionsPanel::selectArch(const std::optional<std::string>& arch) {
    for (int i = arch_->count() - 1; i >= 1; --i) {
        if (arch_->itemData(i, kForeignArchRole).toBool() &&
            (!arch || arch_->itemData(i).toString().toStdString() != *arch))
            arch_->removeItem(i);
    }
    if (!arch) {
        arch_->setCurrentIndex(0);
        return;
    }
    const QString a = QString::fromStdString(*arch);
    int i = arch_->findData(a);
    if (i < 0) {
        arch_->addItem(tr("%1 (not in libNVVM %2.x's list)").arg(a).arg(cudaMajor_), a);
        i = arch_->count() - 1;
        arch_->setItemData(i, true, kForeignArchRole);
    }
    arch_->setCurrentIndex(i);
}

void OptionsPanel::syncFromDocument() {
    // This panel's own edit: the controls already show it.
    if (applying_) {
        updateNotes();
        return;
    }
    QScopedValueRollback guard(syncing_, true);
    const auto& ws = document_->workspace();
    const auto& o = ws.options;
    const QSignalBlocker b1(arch_), b2(opt_), b3(ftz_), b4(precDiv_), b5(precSqrt_), b6(fma_),
        b7(debug_), b8(jumpTable_), b9(libdevice_), b10(ltoMode_), b11(extra_);

    selectArch(o.arch);
    opt_->setCurrentIndex(o.opt ? std::max(0, opt_->findData(*o.opt)) : 0);
    setTriValue(ftz_, o.ftz);
    setTriValue(precDiv_, o.precDiv);
    setTriValue(precSqrt_, o.precSqrt);
    setTriValue(fma_, o.fma);
    debug_->setChecked(o.debug);
    jumpTable_->setValue(o.jumpTableDensity.value_or(-1));
    libdevice_->setChecked(ws.libdevice);
    const auto mode = lto::modeName(ws.ltoMode);
    ltoMode_->setCurrentIndex(
        std::max(0, ltoMode_->findData(QString::fromLatin1(mode.data(), qsizetype(mode.size())))));

    // The field keeps half-typed (invalid) text across unrelated setting changes; only new
    // flags in the document (a workspace load) replace it.
    const bool external = o.extraFlags != syncedExtraFlags_;
    if (external || (!extraInvalid_ && splitFlags(extra_->text()) != o.extraFlags)) {
        extra_->setText(joinFlags(o.extraFlags));
        syncedExtraFlags_ = o.extraFlags;
        // Flags a workspace file brings are checked too, so a bad one is explained here rather
        // than only when the compile fails; they are the document's already, so nothing is
        // applied either way.
        checkExtraFlags(o.extraFlags);
    }
    updateNotes();
}

void OptionsPanel::updateNotes() {
    const auto& o = document_->workspace().options;

    const int opt = o.opt.value_or(kDefaultOpt);
    debugNote_->setVisible(o.debug && opt != 0);
    if (o.debug && opt != 0)
        debugNote_->setText(
            o.opt
                ? tr("Note: full debug info needs opt 0; with opt %1, libNVVM may keep less of it.")
                      .arg(opt)
                : tr("Note: full debug info needs opt 0; opt is unset, so libNVVM's default "
                     "(%1) applies.")
                      .arg(kDefaultOpt));

    QString archProblem;
    if (o.arch) {
        nvvm::Options candidate;
        candidate.arch = o.arch;
        if (auto st = candidate.validate(cudaMajor_); !st)
            archProblem = QString::fromStdString(st.error().message);
    }
    archNote_->setText(archProblem);
    archNote_->setVisible(!archProblem.isEmpty());
}

}  // namespace nvpg::gui
