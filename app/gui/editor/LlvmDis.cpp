#include "gui/editor/LlvmDis.h"

#include <utility>
#include <vector>

#include <QProcess>
#include <QStandardPaths>

#include "gui/common/Text.h"
#include "gui/editor/BitcodeSummary.h"

namespace nvpg::gui {

namespace {

std::optional<QString>& disassemblerOverride() {
    static std::optional<QString> program;
    return program;
}

// What an llvm-dis-14 run that has ended gave.
Disassembly disassemblyOf(QProcess& p, bool timedOut) {
    if (timedOut) return {false, false, {}, QStringLiteral("llvm-dis-14 took longer than 10 s")};
    if (p.error() == QProcess::FailedToStart)
        return {false, true, {}, QStringLiteral("%1 did not start: %2").arg(p.program(), p.errorString())};
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        QString err = QString::fromUtf8(p.readAllStandardError()).trimmed();
        err = err.section(QLatin1Char('\n'), 0, 0);
        if (err.isEmpty()) err = QStringLiteral("exit status %1").arg(p.exitCode());
        return {false, false, {}, QStringLiteral("llvm-dis-14 could not read it: %1").arg(err)};
    }
    return {true, false, QString::fromUtf8(p.readAllStandardOutput()), {}};
}

// Names as comment lines of at most ~100 columns: "; defines (3): @a @b @c".
void appendNames(QString& out, const QString& title, const std::vector<std::string>& names, const QString& sigil) {
    if (names.empty()) return;
    QString line = QStringLiteral("; %1 (%2):").arg(title).arg(names.size());
    for (const std::string& n : names) {
        const QString item = sigil + qstr(n);
        if (line.size() + 1 + item.size() > 100 && !line.endsWith(QLatin1Char(':'))) {
            out += line + QLatin1Char('\n');
            line = QStringLiteral(";  ");
        }
        line += QLatin1Char(' ') + item;
    }
    out += line + QLatin1Char('\n');
}

}  // namespace

QString LlvmDis::program() {
    const std::optional<QString>& forced = disassemblerOverride();
    return forced ? *forced : QStandardPaths::findExecutable(QStringLiteral("llvm-dis-14"));
}

void LlvmDis::setOverride(std::optional<QString> program) {
    disassemblerOverride() = std::move(program);
}

LlvmDis::LlvmDis(QObject* parent) : QObject(parent), process_(new QProcess(this)) {
    limit_.setSingleShot(true);
    connect(&limit_, &QTimer::timeout, this, [this] { end(true); });
    connect(process_, &QProcess::finished, this, [this] { end(false); });
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) end(false);
    });
}

LlvmDis::~LlvmDis() {
    // Deleted here rather than as a child in ~QObject: deleting it waits for the program it kills,
    // and it says it finished to this object, half destroyed by then.
    process_->disconnect(this);
    delete process_;
}

void LlvmDis::start(const QString& program, const std::string& bytes) {
    limit_.start(kTimeoutMs);
    process_->start(program, {QStringLiteral("-"), QStringLiteral("-o"), QStringLiteral("-")});
    process_->write(bytes.data(), static_cast<qint64>(bytes.size()));
    process_->closeWriteChannel();
}

void LlvmDis::end(bool timedOut) {
    if (std::exchange(ended_, true)) return;
    limit_.stop();
    emit finished(disassemblyOf(*process_, timedOut));
}

QString bitcodeSummaryText(const std::string& bytes, const Disassembly& dis) {
    const BitcodeSummary s = summarizeBitcode(bytes);
    QString out = QStringLiteral("; bitcode module (%1 bytes), read-only; %2, so this is a summary\n")
                      .arg(bytes.size())
                      .arg(dis.error);
    out += QStringLiteral("; producer: %1\n").arg(s.producer.empty() ? QStringLiteral("unknown") : qstr(s.producer));
    if (!s.triple.empty()) out += QStringLiteral("; target triple: %1\n").arg(qstr(s.triple));
    if (!s.sourceFileName.empty()) out += QStringLiteral("; source file: %1\n").arg(qstr(s.sourceFileName));
    appendNames(out, QStringLiteral("defines"), s.definedFunctions, QStringLiteral("@"));
    appendNames(out, QStringLiteral("declares"), s.declaredFunctions, QStringLiteral("@"));
    appendNames(out, QStringLiteral("globals"), s.globals, QStringLiteral("@"));
    appendNames(out, QStringLiteral("names seen in its string table (a guess)"), s.guessedNames, QString());
    if (dis.missing) out += QStringLiteral(";\n; install llvm-14 to see the disassembly\n");
    return out;
}

}  // namespace nvpg::gui
