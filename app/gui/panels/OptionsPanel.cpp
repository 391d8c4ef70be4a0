#include "gui/panels/OptionsPanel.h"

#include <algorithm>

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QRegularExpression>
#include <QScopedValueRollback>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>

#include "core/inspect/Docs.h"
#include "core/lto/Mode.h"
#include "core/nvvm/Options.h"
#include "gui/common/Text.h"
#include "gui/document/WorkspaceDocument.h"
#include "gui/editor/HoverDocs.h"

namespace nvpg::gui {

namespace {

// Marks an arch item that is not in libNVVM's list but came from the document, so the combo
// can show what a loaded workspace asks for instead of silently showing something else.
constexpr int kForeignArchRole = Qt::UserRole + 1;

const QColor kErrorColor(0xc6, 0x28, 0x28);

// How long typing in the extra-flags field pauses before its flags are checked and applied:
// every option edit compiles at once, and "-ftz=1" on its way passes "-ftz", which libNVVM
// refuses. Longer than the gap between two keys of someone typing, short enough to feel prompt.
constexpr int kTypingPauseMs = 600;

// The docs entry of an option or an arch (resources/docs/options.json, arch.json), as the hover
// docs show it: the same text as `nvpg explain`; empty when it has none.
QString docsHtml(std::string_view word) {
    const auto found = inspect::Docs::builtIn().explain(word, inspect::DocContext::Options);
    return found.empty() ? QString() : HoverDocs::html({found.front()});
}

// The option's help and flag, then its docs entry: what it does to the PTX, its values, its
// default and the effect of flipping it.
QString tooltipFor(const nvvm::OptionInfo& o) {
    const QString head = QStringLiteral("%1\nlibNVVM flag: %2 (%3)")
                             .arg(qstr(o.help), qstr(o.flag), QString::fromStdString(nvvm::allowedValues(o)));
    const QString docs = docsHtml(o.name);
    if (docs.isEmpty()) return head;
    return QStringLiteral("<p style=\"white-space: pre-wrap;\">%1</p><hr/>%2").arg(head.toHtmlEscaped(), docs);
}

// libNVVM's opt level when none is chosen: what the debug note compares against.
int defaultOpt() {
    return qstr(nvvm::findOption("opt")->libnvvmDefault).toInt();
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

// A value the control offers (from the table, so set() takes it), or unset for its "default".
void setOrClear(nvvm::Options& o, std::string_view name, const std::optional<QString>& value) {
    if (!value) {
        o.clear(name);
        return;
    }
    [[maybe_unused]] const auto st = o.set(name, value->toStdString());
    Q_ASSERT(st.ok());
}

// The entry that leaves an option unset (no flag passed, libNVVM's default applies): a combo
// marks it with no data.
int unsetIndex(const QComboBox* c) {
    for (int i = 0; i < c->count(); ++i)
        if (!c->itemData(i).isValid()) return i;
    return 0;
}

// A number field whose value equal to libNVVM's default is that default (the option unset, shown
// "101 (default)"), so that no value is offered twice; a default outside the range is one below
// it, shown as the special text.
class OptionSpinBox : public QSpinBox {
public:
    OptionSpinBox(const nvvm::OptionInfo& info, QWidget* parent) : QSpinBox(parent) {
        bool ok = false;
        const int d = qstr(info.libnvvmDefault).toInt(&ok);
        if (ok && d >= info.min && d <= info.max) {
            unset_ = d;
            setRange(info.min, info.max);
        } else {
            unset_ = info.min - 1;
            setRange(unset_, info.max);
            setSpecialValueText(OptionsPanel::tr("default (%1)").arg(qstr(info.libnvvmDefault)));
        }
        setValue(unset_);
    }
    int unsetValue() const { return unset_; }

protected:
    QString textFromValue(int value) const override {
        return value == unset_ && specialValueText().isEmpty()
                   ? OptionsPanel::tr("%1 (default)").arg(QSpinBox::textFromValue(value))
                   : QSpinBox::textFromValue(value);
    }
    int valueFromText(const QString& text) const override {
        return QSpinBox::valueFromText(QString(text).remove(OptionsPanel::tr(" (default)")));
    }
    QValidator::State validate(QString& text, int& pos) const override {
        QString bare = QString(text).remove(OptionsPanel::tr(" (default)"));
        return QSpinBox::validate(bare, pos);
    }

private:
    int unset_ = 0;
};

QColor mix(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
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

OptionsPanel::OptionsPanel(WorkspaceDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
    auto* form = new QFormLayout(this);
    // The dock is narrow and sits in a scroll area: let fields shrink and wrap rather than
    // widen the dock to the longest item text.
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);

    auto shrinkable = [](QComboBox* c) {
        c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        c->setMinimumContentsLength(10);
    };

    archNote_ = makeNote(this, "archNote", true);
    debugNote_ = makeNote(this, "debugNote", false);
    for (const auto& info : nvvm::optionTable()) {
        if (info.outputChoice) continue;  // gen-lto: the wanted outputs choose it
        QWidget* control = makeControl(info);
        options_.emplace_back(&info, control);
        if (info.kind == nvvm::OptionKind::Arch || info.kind == nvvm::OptionKind::Enum)
            shrinkable(static_cast<QComboBox*>(control));
        // Beside each control, "Show effect": this compile against the option flipped.
        auto* row = new QWidget(this);
        row->setObjectName(QStringLiteral("row-") + qstr(info.name));
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        h->setSpacing(2);
        h->addWidget(control, 1);
        auto* effect = new QToolButton(row);
        effect->setObjectName(QStringLiteral("effect-") + qstr(info.name));
        effect->setText(QStringLiteral("Δ"));
        effect->setAutoRaise(true);
        if (info.kind == nvvm::OptionKind::Arch) {
            // Filled with the archs by setArchs: the arch is chosen, not flipped.
            effect->setMenu(new QMenu(effect));
            effect->setPopupMode(QToolButton::InstantPopup);
            effect->setToolTip(
                tr("Show effect: this compile beside the same modules for another arch (choose it), "
                   "with the diff and what that arch adds."));
        } else {
            effect->setToolTip(tr("Show effect: this compile beside the same modules with %1 flipped, with the diff "
                                  "and what the option changes.")
                                   .arg(qstr(info.name)));
            connect(effect, &QToolButton::clicked, this,
                    [this, name = qstr(info.name)] { emit effectRequested(name, {}); });
        }
        h->addWidget(effect);
        effectButtons_.emplace_back(std::string(info.name), effect);
        // A check box says what it is itself; other controls get the label beside them.
        form->addRow(info.kind == nvvm::OptionKind::Switch ? QString() : qstr(info.label), row);
        // The label's mnemonic and click go to the control, not to the row around it.
        if (auto* label = qobject_cast<QLabel*>(form->labelForField(row))) label->setBuddy(control);
        // The notes sit under the control they are about.
        if (info.kind == nvvm::OptionKind::Arch) form->addRow(QString(), archNote_);
        if (info.name == "g") form->addRow(QString(), debugNote_);
    }

    libdevice_ = new QCheckBox(tr("link libdevice (lazily)"), this);
    libdevice_->setObjectName(QStringLiteral("libdevice"));
    libdevice_->setToolTip(
        tr("Adds libdevice (nvvm/libdevice/libdevice.10.bc) with nvvmLazyAddModuleToProgram: only "
           "the functions the modules call are linked, once per program."));
    form->addRow(QString(), libdevice_);

    verify_ = new QCheckBox(tr("verify before compiling"), this);
    verify_->setObjectName(QStringLiteral("verify"));
    verify_->setToolTip(
        tr("Runs libNVVM's verifier (nvvmVerifyProgram) before each compile, as cuda.core does: IR it "
           "refuses is not compiled. Uncheck to see what libNVVM makes of such IR anyway."));
    form->addRow(QString(), verify_);

    ltoMode_ = new QComboBox(this);
    ltoMode_->setObjectName(QStringLiteral("ltoMode"));
    ltoMode_->addItem(tr("program (recompile the PTX's Program with -gen-lto)"), QStringLiteral("program"));
    ltoMode_->addItem(tr("separate (one Program per module)"), QStringLiteral("separate"));
    // The dock is narrow: the items' full text stays reachable when the combo cuts it.
    for (int i = 0; i < ltoMode_->count(); ++i) ltoMode_->setItemData(i, ltoMode_->itemText(i), Qt::ToolTipRole);
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
    connect(libdevice_, &QCheckBox::toggled, this, [this](bool on) {
        if (syncing_) return;
        QScopedValueRollback guard(applying_, true);
        document_->setLibdevice(on);
    });
    connect(verify_, &QCheckBox::toggled, this, [this](bool on) {
        if (syncing_) return;
        QScopedValueRollback guard(applying_, true);
        document_->setVerify(on);
    });
    connect(ltoMode_, &QComboBox::currentIndexChanged, this, [this] {
        if (syncing_) return;
        const auto mode = lto::parseMode(ltoMode_->currentData().toString().toStdString());
        QScopedValueRollback guard(applying_, true);
        document_->setLtoMode(mode.value_or(lto::Mode::Program));
    });
    // Typed text waits for a pause (or Enter, or leaving the field); text set by a program is
    // whole, and applies at once.
    extraPause_ = new QTimer(this);
    extraPause_->setSingleShot(true);
    extraPause_->setInterval(kTypingPauseMs);
    connect(extraPause_, &QTimer::timeout, this, &OptionsPanel::onExtraFlagsEdited);
    connect(extra_, &QLineEdit::textChanged, this, [this] {
        if (syncing_) return;
        if (extra_->isModified())
            extraPause_->start();
        else
            onExtraFlagsEdited();
    });
    connect(extra_, &QLineEdit::editingFinished, this, [this] {
        if (extraPause_->isActive()) onExtraFlagsEdited();
    });
    connect(document_, &WorkspaceDocument::settingsChanged, this, &OptionsPanel::syncFromDocument);

    syncFromDocument();
}

QWidget* OptionsPanel::makeControl(const nvvm::OptionInfo& info) {
    const QString defaultText = tr("default (%1)").arg(qstr(info.libnvvmDefault));
    const std::string_view name = info.name;
    QWidget* control = nullptr;
    switch (info.kind) {
        case nvvm::OptionKind::Arch:
            // Filled by setArchs; its edits are connected there with the arch list's own rules.
            control = arch_ = new QComboBox(this);
            break;
        case nvvm::OptionKind::Enum:
        case nvvm::OptionKind::Bool: {
            auto* c = new QComboBox(this);
            // One entry per value: libNVVM's default is the entry of its value, which leaves the
            // option unset (no flag passed; the same PTX as passing it). A default that is none
            // of the values gets an entry of its own.
            struct Entry {
                QString value, text, meaning;
            };
            std::vector<Entry> entries;
            if (info.kind == nvvm::OptionKind::Bool) {
                entries = {{QStringLiteral("0"), tr("off"), QString()}, {QStringLiteral("1"), tr("on"), QString()}};
            } else {
                for (const auto& v : info.values) entries.push_back({qstr(v.value), qstr(v.value), qstr(v.meaning)});
            }
            const QString libnvvmDefault = qstr(info.libnvvmDefault);
            const bool defaultListed =
                std::any_of(entries.begin(), entries.end(), [&](const Entry& e) { return e.value == libnvvmDefault; });
            if (!defaultListed) c->addItem(defaultText, QVariant());
            for (const auto& e : entries) {
                const bool isDefault = e.value == libnvvmDefault;
                QStringList notes;
                if (info.kind == nvvm::OptionKind::Bool) notes << e.value;
                if (!e.meaning.isEmpty()) notes << e.meaning;
                if (isDefault) notes << tr("default");
                c->addItem(notes.isEmpty() ? e.text : tr("%1 (%2)").arg(e.text, notes.join(QStringLiteral(", "))),
                           isDefault ? QVariant() : QVariant(e.value.toInt()));
            }
            connect(c, &QComboBox::currentIndexChanged, this, [this, c, name] {
                if (syncing_) return;
                const QVariant v = c->currentData();
                editOptions([&](nvvm::Options& o) {
                    setOrClear(o, name, v.isValid() ? std::optional(v.toString()) : std::nullopt);
                });
            });
            control = c;
            break;
        }
        case nvvm::OptionKind::Switch: {
            auto* c = new QCheckBox(qstr(info.label), this);
            connect(c, &QCheckBox::toggled, this, [this, name](bool on) {
                if (syncing_) return;
                editOptions([&](nvvm::Options& o) {
                    setOrClear(o, name, on ? std::optional(QStringLiteral("on")) : std::nullopt);
                });
            });
            control = c;
            break;
        }
        case nvvm::OptionKind::IntRange: {
            auto* spin = new OptionSpinBox(info, this);
            // The default's value stands for "unset", so that libNVVM's own default applies and
            // no flag is passed.
            const int unset = spin->unsetValue();
            connect(spin, &QSpinBox::valueChanged, this, [this, name, unset](int v) {
                if (syncing_) return;
                editOptions([&](nvvm::Options& o) {
                    setOrClear(o, name, v == unset ? std::nullopt : std::optional(QString::number(v)));
                });
            });
            control = spin;
            break;
        }
    }
    control->setObjectName(qstr(name));
    control->setToolTip(tooltipFor(info));
    return control;
}

void OptionsPanel::showOption(const nvvm::OptionInfo& info, QWidget* control, const nvvm::Options& o) {
    const auto value = o.get(info.name);
    switch (info.kind) {
        case nvvm::OptionKind::Arch:
            selectArch(value);
            break;
        case nvvm::OptionKind::Enum:
        case nvvm::OptionKind::Bool: {
            auto* c = static_cast<QComboBox*>(control);
            // A value equal to libNVVM's default (a workspace may set it) is the default's entry.
            const int i = value ? c->findData(QString::fromStdString(*value).toInt()) : -1;
            c->setCurrentIndex(i >= 0 ? i : unsetIndex(c));
            break;
        }
        case nvvm::OptionKind::Switch:
            static_cast<QCheckBox*>(control)->setChecked(value.has_value());
            break;
        case nvvm::OptionKind::IntRange: {
            auto* spin = static_cast<OptionSpinBox*>(control);
            spin->setValue(value ? QString::fromStdString(*value).toInt() : spin->unsetValue());
            break;
        }
    }
}

QWidget* OptionsPanel::optionControl(std::string_view name) const {
    for (const auto& [info, control] : options_)
        if (info->name == name) return control;
    return nullptr;
}

void OptionsPanel::setArchs(const std::vector<std::string>& archs, int cudaMajor, const QString& defaultLabel) {
    cudaMajor_ = cudaMajor;
    defaultArchLabel_ = defaultLabel.isEmpty() ? tr("default") : defaultLabel;
    {
        QScopedValueRollback guard(syncing_, true);
        QSignalBlocker block(arch_);
        arch_->clear();
        arch_->addItem(defaultArchLabel_, QVariant());
        arch_->setItemData(0, defaultArchLabel_, Qt::ToolTipRole);
        for (const auto& a : archs) {
            arch_->addItem(QString::fromStdString(a), QString::fromStdString(a));
            // Each arch's entry on the list's hover, as the combo's own tooltip has the chosen one's.
            if (const QString docs = docsHtml(a); !docs.isEmpty())
                arch_->setItemData(arch_->count() - 1, docs, Qt::ToolTipRole);
        }
        selectArch(document_->workspace().options.arch);
    }
    if (auto* effect = effectButton("arch"); effect && effect->menu()) {
        effect->menu()->clear();
        for (const auto& a : archs)
            effect->menu()->addAction(QString::fromStdString(a), this,
                                      [this, a = QString::fromStdString(a)] { emit effectRequested("arch", a); });
    }
    updateNotes();
}

QToolButton* OptionsPanel::effectButton(std::string_view name) const {
    for (const auto& [n, b] : effectButtons_)
        if (n == name) return b;
    return nullptr;
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
    // Checked alone, so that the message is about these flags and not about another field; an
    // option that has a control here is set there.
    const auto status = candidate.checkExtraFlags([](const nvvm::OptionInfo& info) {
        return (info.kind == nvvm::OptionKind::Switch ? tr("its own check box above, \"%1\"")
                                                      : tr("its own field above, \"%1\""))
            .arg(qstr(info.label))
            .toStdString();
    });
    extraInvalid_ = !status.ok();
    extraError_->setText(extraInvalid_ ? QString::fromStdString(status.error().message) : QString());
    extraError_->setVisible(extraInvalid_);
    QPalette p = extraPalette_;
    if (extraInvalid_) p.setColor(QPalette::Base, mix(extraPalette_.color(QPalette::Base), kErrorColor, 0.2));
    extra_->setPalette(p);
    extra_->setProperty("invalid", extraInvalid_);
    return !extraInvalid_;
}

void OptionsPanel::onExtraFlagsEdited() {
    extraPause_->stop();
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
        updateArchTooltip();
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
    updateArchTooltip();
}

void OptionsPanel::updateArchTooltip() {
    // The option's entry, under the chosen arch's own entry when one is chosen and has one.
    const nvvm::OptionInfo* info = nvvm::findOption("arch");
    QString tip = tooltipFor(*info);
    const QVariant chosen = arch_->currentData();
    if (chosen.isValid())
        if (const QString docs = docsHtml(chosen.toString().toStdString()); !docs.isEmpty())
            tip = docs + QStringLiteral("<hr/>") + tip;
    arch_->setToolTip(tip);
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
    std::vector<QSignalBlocker> blockers;
    blockers.reserve(options_.size() + 4);
    for (const auto& [info, control] : options_) blockers.emplace_back(control);
    for (QObject* c : std::initializer_list<QObject*>{libdevice_, verify_, ltoMode_, extra_}) blockers.emplace_back(c);

    for (const auto& [info, control] : options_) showOption(*info, control, o);
    libdevice_->setChecked(ws.libdevice);
    verify_->setChecked(ws.verify);
    const auto mode = lto::modeName(ws.ltoMode);
    ltoMode_->setCurrentIndex(
        std::max(0, ltoMode_->findData(QString::fromLatin1(mode.data(), qsizetype(mode.size())))));

    // The field keeps half-typed (invalid) text across unrelated setting changes; only new
    // flags in the document (a workspace load) replace it.
    const bool external = o.extraFlags != syncedExtraFlags_;
    if (external || (!extraInvalid_ && !extraPause_->isActive() && splitFlags(extra_->text()) != o.extraFlags)) {
        extraPause_->stop();  // what was being typed is replaced
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

    const int opt = o.opt.value_or(defaultOpt());
    debugNote_->setVisible(o.debug && opt != 0);
    if (o.debug && opt != 0)
        debugNote_->setText(
            o.opt ? tr("Note: full debug info needs opt 0; with opt %1, libNVVM may keep less of it.").arg(opt)
                  : tr("Note: full debug info needs opt 0; opt is unset, so libNVVM's default "
                       "(%1) applies.")
                        .arg(defaultOpt()));

    QString archProblem;
    if (o.arch) {
        nvvm::Options candidate;
        candidate.arch = o.arch;
        if (auto st = candidate.validate(cudaMajor_); !st) archProblem = QString::fromStdString(st.error().message);
    }
    archNote_->setText(archProblem);
    archNote_->setVisible(!archProblem.isEmpty());
}

}  // namespace nvpg::gui
