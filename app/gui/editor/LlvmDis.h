#pragma once

#include <optional>
#include <string>

#include <QObject>
#include <QString>
#include <QTimer>

class QProcess;

namespace nvpg::gui {

// What a run of llvm-dis-14 gave: its text, or why there is none (`missing`: no program to run).
struct Disassembly {
    bool ok = false;
    bool missing = false;
    QString text;
    QString error;
};

// One run of llvm-dis-14 over a bitcode module beside the event loop, stopped after kTimeoutMs:
// finished() says once what it gave. Deleting the run kills the program if it still runs.
class LlvmDis : public QObject {
    Q_OBJECT

public:
    static constexpr int kTimeoutMs = 10000;

    // The disassembler run: llvm-dis-14 found on PATH, unless an override is set (a program path,
    // or an empty string to behave as if none were installed). Empty when there is none.
    static QString program();
    static void setOverride(std::optional<QString> program);

    explicit LlvmDis(QObject* parent = nullptr);
    ~LlvmDis() override;

    // Runs `program` on `bytes`. A program that does not start says so through finished(), maybe
    // before this returns: connect to it first.
    void start(const QString& program, const std::string& bytes);

signals:
    void finished(const nvpg::gui::Disassembly& result);

private:
    void end(bool timedOut);

    QProcess* process_;
    QTimer limit_;
    bool ended_ = false;
};

// What a bitcode module's view shows without its disassembly: a summary read from its bitstream,
// headed by why there is no disassembly (`dis`).
QString bitcodeSummaryText(const std::string& bytes, const Disassembly& dis);

}  // namespace nvpg::gui
