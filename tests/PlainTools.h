// ptxas and nvJitLink called as a person would call them, with no nvpg code in between: what
// tests check nvpg's figures and linked output against.
#pragma once

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <filesystem>
#include <string>
#include <vector>

#include "TestSupport.h"
#include "core/toolkit/NvJitLinkApi.h"

namespace nvpg::test {

// The toolkit's ptxas: bin/ptxas of the toolkit the real libNVVM comes from (lib/ or lib64/
// or nvvm/lib64/ under it). A missing ptxas fails the test that needs it.
inline QString ptxasOfToolkit() {
    auto dir = realToolkit()->nvvmReport().path.parent_path();
    for (int up = 0; up < 3; ++up, dir = dir.parent_path()) {
        const auto found =
            QStandardPaths::findExecutable(QStringLiteral("ptxas"), {QString::fromStdString((dir / "bin").string())});
        if (!found.isEmpty()) return found;
    }
    qFatal("no bin/ptxas beside %s", realToolkit()->nvvmReport().path.c_str());
    return {};
}

// What `ptxas -arch=ARCH -v FILE` says of one entry: whole-program, as the driver loads PTX.
struct PlainPtxasFigures {
    int registers = -1;
    int stackFrame = -1;
    int spillStores = -1;
    int spillLoads = -1;
    QString log;
};

inline PlainPtxasFigures plainPtxas(const QString& ptxFile, const QString& arch, const QString& entry) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(ptxasOfToolkit(), {"-arch=" + arch, "-v", ptxFile, "-o", "/dev/null"});
    if (!p.waitForFinished(60000)) qFatal("ptxas did not finish");
    PlainPtxasFigures f;
    f.log = QString::fromUtf8(p.readAll());
    const auto at = f.log.indexOf("Function properties for " + entry + "\n");
    if (at < 0) return f;
    const auto block = f.log.mid(at);
    if (const auto m =
            QRegularExpression(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)")
                .match(block);
        m.hasMatch()) {
        f.stackFrame = m.captured(1).toInt();
        f.spillStores = m.captured(2).toInt();
        f.spillLoads = m.captured(3).toInt();
    }
    if (const auto m = QRegularExpression(R"(Used (\d+) registers)").match(block); m.hasMatch())
        f.registers = m.captured(1).toInt();
    return f;
}

// One nvJitLink link with `options` as given: the linked PTX (with -ptx) or cubin; "ERROR: ..."
// when a step fails.
inline std::string plainLink(const toolkit::NvJitLinkApi& api, const std::vector<std::string>& options,
                             const std::string& input, nvJitLinkInputType type) {
    std::vector<const char*> argv;
    bool ptx = false;
    for (const auto& o : options) {
        argv.push_back(o.c_str());
        ptx = ptx || o == "-ptx";
    }
    nvJitLinkHandle h = nullptr;
    if (api.create(&h, uint32_t(argv.size()), argv.data()) != NVJITLINK_SUCCESS) return "ERROR: create";
    std::string out;
    size_t size = 0;
    if (api.addData(h, type, input.data(), input.size(), "program") != NVJITLINK_SUCCESS)
        out = "ERROR: add";
    else if (api.complete(h) != NVJITLINK_SUCCESS)
        out = "ERROR: complete";
    else if (ptx && api.getLinkedPtxSize(h, &size) == NVJITLINK_SUCCESS) {
        out.resize(size);
        api.getLinkedPtx(h, out.data());
        while (!out.empty() && out.back() == '\0') out.pop_back();
    } else if (!ptx && api.getLinkedCubinSize(h, &size) == NVJITLINK_SUCCESS) {
        out.resize(size);
        api.getLinkedCubin(h, out.data());
    }
    api.destroy(&h);
    return out;
}

}  // namespace nvpg::test
