#pragma once

#include <Qsci/qsciabstractapis.h>
#include <QString>
#include <QStringList>

class QsciLexer;

namespace nvpg::gui {

// What the IR editors offer while typing: LLVM instructions, types and keywords; the common
// NVVM intrinsics (from the NVVM IR specification) and LLVM intrinsics with their signatures;
// and every public libdevice function (core's table) with its signature as the call tip shown
// when '(' is typed after its name.
//
// The tables are built once per process and shared; each lexer gets a light QsciAbstractAPIs
// over them. QsciAPIs is not used: it prepares its entries on a worker thread per instance, and
// destroying an editor while that thread runs (a busy machine, an editor closed right after
// opening) ends in QThread's "destroyed while still running" abort.
class Completions : public QsciAbstractAPIs {
    Q_OBJECT

public:
    // Becomes `lexer`'s APIs (the lexer owns it).
    explicit Completions(QsciLexer* lexer);
    static Completions* install(QsciLexer* lexer) { return new Completions(lexer); }

    // Every entry in QsciAPIs form: a plain word, or `name(params) -> result`.
    static const QStringList& entries();
    // The names that can follow '@': intrinsics and libdevice functions, sorted.
    static const QStringList& globalNames();
    // The call tip for one name ("__nv_powf(float a, float b) -> float"), empty if none.
    static QString callTip(const QString& name);

    // Names starting with the last word of `context`.
    void updateAutoCompletionList(const QStringList& context, QStringList& list) override;
    // The signature of the function named by the last complete word of `context`.
    QStringList callTips(const QStringList& context, int commas, QsciScintilla::CallTipsStyle style,
                         QList<int>& shifts) override;
};

}  // namespace nvpg::gui
