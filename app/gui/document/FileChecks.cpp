#include "gui/document/FileChecks.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include <QCoreApplication>
#include <QFile>

#include "core/gpu/ArgSpec.h"
#include "core/gpu/RunConfig.h"
#include "core/support/Files.h"

namespace nvpg::gui {

QString notRegularFile(const QString& path) {
    const auto reason = support::notRegularFileReason(QFile::encodeName(path).toStdString());
    return reason ? QString::fromStdString(*reason) : QString();
}

QString inputReplacedBy(const QString& path, const workspace::Workspace& ws, const QString& currentPath,
                        const QStringList& moduleFiles) {
    namespace fs = std::filesystem;
    const auto tr = [](const char* text) { return QCoreApplication::translate("FileChecks", text); };
    std::vector<fs::path> inputs;
    QStringList what;
    for (const auto& file : moduleFiles) {
        inputs.emplace_back(QFile::encodeName(file).toStdString());
        what << tr("the module file %1 that the workspace was made from").arg(file);
    }
    std::vector<fs::path> folders{fs::absolute(QFile::encodeName(path).toStdString()).parent_path()};
    if (!currentPath.isEmpty())
        folders.push_back(fs::absolute(QFile::encodeName(currentPath).toStdString()).parent_path());
    for (const auto& run : ws.runs)
        for (size_t k = 0; k < run.args.size(); ++k) {
            const auto& a = run.args[k];
            if (a.kind != gpu::ArgSpec::Buffer ||
                (a.init.kind != gpu::BufferInit::NpyFile && a.init.kind != gpu::BufferInit::RawFile))
                continue;
            for (const auto& folder : folders) {
                inputs.push_back(a.init.file.is_absolute() ? a.init.file : folder / a.init.file);
                what << tr("the buffer file %1 of argument %2 of the run configuration '%3'")
                            .arg(QFile::decodeName(inputs.back().c_str()))
                            .arg(k)
                            .arg(QString::fromStdString(run.name));
            }
        }
    const auto input = support::inputOverwrittenBy(QFile::encodeName(path).toStdString(), inputs);
    if (!input) return {};
    const auto at = int(std::find(inputs.begin(), inputs.end(), *input) - inputs.begin());
    return tr("%1 is %2: saving the workspace there would replace what it reads. The workspace is still open here, "
              "unsaved: save it elsewhere with Save As")
        .arg(path, what.at(at));
}

}  // namespace nvpg::gui
