// What tst_cli_export (the compile part, CPU only) and tst_gpu_export (the launch) share: nvpg
// export of a bundled example or a numba-cuda fixture, the exported cuda.core script run with the
// venv's cuda.core (ctest's python_packages set-up), and the exported C program built with CMake
// and the system's C compiler against the toolkit the tests use.
#pragma once

#include <QtTest>

#include <cstdlib>
#include <fstream>

#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/support/Text.h"

namespace nvpg::test::exporting {

namespace fs = std::filesystem;

struct Run {
    int exitCode = -1;
    QByteArray out, err;
};

// The toolkit the tests compile with (a folder with lib64/ or nvvm/lib64/): the exported code
// is built and run against the same, as CUDA_HOME.
inline QString cudaHome() {
    fs::path lib = realToolkit()->nvvmReport().path.parent_path().parent_path();  // .../lib64/..
    if (lib.filename() == "nvvm") lib = lib.parent_path();
    return QString::fromStdString(lib.string());
}

inline Run runProgram(const QString& program, const QStringList& args, const QString& workDir = {}, int ms = 300000) {
    QProcess p;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert("CUDA_HOME", cudaHome());
    if (!support::runsFromBuildTree() && !env.contains("NVPG_DATA_DIR"))
        env.insert("NVPG_DATA_DIR", QString::fromStdString((sourceDir() / "resources").string()));
    p.setProcessEnvironment(env);
    if (!workDir.isEmpty()) p.setWorkingDirectory(workDir);
    p.start(program, args);
    if (!p.waitForStarted()) return {-1, {}, ("cannot start " + program + ": " + p.errorString()).toUtf8()};
    if (!p.waitForFinished(ms)) qFatal("did not finish: %s %s", qPrintable(program), qPrintable(args.join(' ')));
    if (p.exitStatus() != QProcess::NormalExit)
        qFatal("crashed: %s %s", qPrintable(program), qPrintable(args.join(' ')));
    return {p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError()};
}

inline Run runNvpg(const QStringList& args) {
    return runProgram(QString::fromStdString(nvpgPath()), args);
}

inline fs::path venvDir() {
    return binaryDir() / "test-python-packages";
}
// NVPG_TEST_PYTHON names another Python with cuda.core (the GPU machine's own, which has no venv).
inline QString venvPython() {
    if (const char* python = std::getenv("NVPG_TEST_PYTHON"); python && *python) return QString::fromLocal8Bit(python);
    return QString::fromStdString((venvDir() / "bin/python").string());
}
// Empty when the venv with cuda.core is there; else why not.
inline std::string venvMissing() {
    if (const char* python = std::getenv("NVPG_TEST_PYTHON"); python && *python) return {};
    std::ifstream in(venvDir() / "status");
    std::string status;
    std::getline(in, status);
    if (status.rfind("ok:", 0) == 0) return {};
    return status.empty() ? "the python_packages set-up (tests/FetchPythonPackages.sh) did not run" : status;
}

// A numba-cuda fixture's modules and libNVVM options as nvpg's arguments (libdevice on: numba
// adds it to every program; -gen-lto is the LTO outputs, not an option).
inline QStringList numbaArgs(const std::string& name) {
    const auto dir = dataDir() / "numba";
    QStringList args;
    const auto meta = nlohmann::json::parse(readText(dir / (name + ".json")));
    for (const auto& m : meta["modules"]) args << QString::fromStdString((dir / m.get<std::string>()).string());
    const auto options = readText(dir / (name + ".options"));
    for (auto line : support::splitLines(options)) {
        line = support::trim(line);
        if (line.empty() || line == "-gen-lto") continue;
        args << "-" + QString::fromStdString(std::string(line));  // -opt=3 -> --opt=3
    }
    return args << "--libdevice";
}

inline std::vector<std::string> numbaNames() {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dataDir() / "numba"))
        if (e.path().extension() == ".options") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

// The inputs of every case: "example NAME" (the example's name, as nvpg takes it) and
// "numba NAME" (its modules and options).
inline std::vector<std::pair<std::string, QStringList>> cases() {
    std::vector<std::pair<std::string, QStringList>> out;
    for (const auto& name : exampleNames())
        out.emplace_back("example " + name, QStringList{QString::fromStdString(name)});
    for (const auto& name : numbaNames()) out.emplace_back("numba " + name, numbaArgs(name));
    return out;
}

inline QByteArray readAll(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read %s", qPrintable(path));
    return f.readAll();
}

// The stem the export names its files with: what `wrote DIR/STEM.py` says.
inline QString codeFile(const QString& dir, const char* ext) {
    const auto files = QDir(dir).entryList({QString("*.") + ext}, QDir::Files);
    if (files.size() != 1) qFatal("%s: expected one .%s file, found %d", qPrintable(dir), ext, int(files.size()));
    return files.front();
}

// The CMake that builds the exported C program: the build's own, else the one on PATH (a copy of
// the build taken to another machine, such as the GPU machine).
inline QString cmakeProgram() {
    if (QFileInfo(NVPG_CMAKE).isExecutable()) return NVPG_CMAKE;
    return QStandardPaths::findExecutable("cmake");
}

// Why the exported C program cannot be built against the tests' toolkit (no headers: a pip-style
// tree; no CMake), or nothing.
inline std::optional<QString> cProgramCannotBeBuilt() {
    if (cmakeProgram().isEmpty()) return QString("no cmake to build the exported C program with");
    const fs::path home = cudaHome().toStdString();
    for (const auto* header : {"nvvm.h", "cuda.h", "nvJitLink.h"})
        if (!fs::exists(home / "include" / header) && !fs::exists(home / "nvvm/include" / header))
            return QString("the toolkit %1 has no %2 to build the exported C program with").arg(cudaHome(), header);
    return std::nullopt;
}

// Builds the exported C program in DIR/build with CMake and the system's C compiler; the
// executable, or why not.
inline std::optional<QString> buildC(const QString& dir, QString* why) {
    const auto configure = runProgram(cmakeProgram(), {"-S", dir, "-B", dir + "/build", "-DCUDA_HOME=" + cudaHome(),
                                                       "-DCMAKE_C_FLAGS=-Wall -Wextra -pedantic -Werror"});
    if (configure.exitCode != 0) {
        *why = "cmake configure failed: " + QString::fromUtf8(configure.out + configure.err);
        return std::nullopt;
    }
    const auto build = runProgram(cmakeProgram(), {"--build", dir + "/build"});
    if (build.exitCode != 0) {
        *why = "cmake --build failed: " + QString::fromUtf8(build.out + build.err);
        return std::nullopt;
    }
    return dir + "/build/" + codeFile(dir, "c").chopped(2);
}

// Why the code `nvpg export --as AS` writes (cuda-core or c) cannot be run here, or nothing.
inline std::optional<QString> exportedCannotRun(const QString& as) {
    if (as == "c") return cProgramCannotBeBuilt();
    if (const auto why = venvMissing(); !why.empty()) return "cuda.core from PyPI: " + QString::fromStdString(why);
    return std::nullopt;
}

// Runs the code `nvpg export --as AS` wrote to CODE with OUT as its output folder: the script with
// the tests' Python, or the C program once built; a failed build is reported as the run's error.
inline Run runExported(const QString& as, const QString& code, const QString& out) {
    if (as != "c") return runProgram(venvPython(), {code + "/" + codeFile(code, "py"), out});
    QString why;
    const auto program = buildC(code, &why);
    if (!program) return {-1, {}, why.toUtf8()};
    return runProgram(*program, {out});
}

}  // namespace nvpg::test::exporting
