// The templates of exported code (resources/export/*.in), each on its own: filled with sample
// values that hold no marks, under every combination of its sections that a writer can set, the C program compiles
// (cc -fsyntax-only against the toolkit's headers) and the Python script byte-compiles
// (python3 -m py_compile). The samples name every place of each template, so that a place added
// without one fails here. The writers' fills, through exporting::generate over the bundled
// examples in every mode, match their templates: a place they never fill, or a value for one the
// template lacks, throws.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

#include "TestSupport.h"
#include "core/export/Export.h"
#include "core/export/Template.h"

using namespace nvpg;
using namespace nvpg::exporting;
namespace fs = std::filesystem;

namespace {

struct Sample {
    std::map<std::string, std::string> values;
    std::vector<std::string> sections;
};

// One sample per template: a value for each place, and the template's sections.
const std::map<std::string, Sample>& samples() {
    static const std::map<std::string, Sample> s = {
        {"program.c.in",
         {{{"head", " * sample (nvpg export --as c)\n"},
           {"about", " * What it does.\n"},
           {"stem", "sample"},
           {"exit_status", " * Exit status: 0 done.\n"},
           {"modules", "    {\"a.ll\", \"modules/a.ll\", 0},\n    {\"b.bc\", \"modules/b.bc\", 1},\n"},
           {"use_libdevice", "1"},
           {"verify", "1"},
           {"options", "    \"-arch=compute_90\",\n    \"-opt=3\",\n"},
           {"lto_options", "    \"-arch=compute_90\",\n    \"-gen-lto\",\n"},
           {"link_options", "    \"-arch=sm_90\",\n    \"-lto\",\n"},
           {"ptx_link_options", "    \"-arch=sm_90\",\n    \"-lto\",\n    \"-ptx\",\n"},
           {"ltoir_files", "    \"sample.a.ltoir\",\n    \"sample.b.ltoir\",\n"},
           {"ptx_file", "\"sample.ptx\""},
           {"ltoir_file", "\"sample.ltoir\""},
           {"linked_ptx_file", "\"sample.lto.ptx\""},
           {"cubin_file", "\"sample.cubin\""},
           {"kernel_name", "\"k\""},
           {"scalar_args", "static const uint32_t arg0 = 0x1000u; /* i32 i32:4096 */\n"},
           {"num_params", "3"},
           {"num_buffers", "2"},
           {"pass_args",
            "    params[0] = (void *)&arg0;\n"
            "    params[1] = &device_ptr[0]; /* null */\n"
            "    { /* argument 2: buf:f32:4:iota */\n"
            "        size_t size = 0;\n"
            "        host[1] = read_npy(\"inputs/arg2.npy\", 16u, &size);\n"
            "        CHECK_CU(cu.MemAlloc(&device_ptr[1], size));\n"
            "        CHECK_CU(cu.MemcpyHtoD(device_ptr[1], host[1], size));\n"
            "        params[2] = &device_ptr[1];\n"
            "    }\n"},
           {"grid", "1, 1, 1"},
           {"block", "4, 1, 1"},
           {"shared_bytes", "0"},
           {"read_back",
            "    CHECK_CU(cu.MemcpyDtoH(host[1], device_ptr[1], 16u));\n"
            "    write_file(\"outputs/arg2.npy\", \"\\223NUMPY\", 6u, host[1], 16u);\n"
            "    CHECK_CU(cu.MemFree(device_ptr[1]));\n"
            "    free(host[1]);\n"},
           {"launch_image", "ptx"}},
          {"lto", "lto_program", "lto_separate", "run"}}},
        {"CMakeLists.txt.in", {{{"name", "# Name: sample\n"}, {"stem", "sample"}}, {"lto"}}},
        {"script.py.in",
         {{{"head", "# sample (nvpg export --as cuda-core)\n"},
           {"about", "# What it does.\n"},
           {"how_to_run", "#   pip install cuda-core\n#   python3 sample.py [OUTPUT_FOLDER]\n"},
           {"exit_status", "# Exit status: 0 done.\n"},
           {"not_carried", "# Not carried:\n#   - verify off\n"},
           {"modules", "    (\"a.ll\", \"modules/a.ll\", False),\n    (\"b.bc\", \"modules/b.bc\", True),\n"},
           {"ltoir_files", "    \"sample.a.ltoir\",\n    \"sample.b.ltoir\",\n"},
           {"program_options", "        arch=\"compute_90\",\n        ftz=True,\n"},
           {"ptx_file", "\"sample.ptx\""},
           {"ltoir_file", "\"sample.ltoir\""},
           {"link_options", "        arch=\"sm_90\",\n        link_time_optimization=True,\n"},
           {"linked_ptx_file", "\"sample.lto.ptx\""},
           {"cubin_file", "\"sample.cubin\""},
           {"kernel", "\"k\""},
           {"grid", "(1, 1, 1)"},
           {"block", "(4, 1, 1)"},
           {"shared_bytes", "0"},
           {"args",
            "    np.int32(4096),  # i32:4096\n    None,  # ptr:null\n    \"inputs/arg2.npy\",  # buf:f32:4:iota\n"}},
          {"not_carried", "run", "lazy", "lto", "lto_program", "lto_separate", "libdevice", "run_from_lto"}}},
    };
    return s;
}

// Every combination of `sections` on and off that a writer can set: LTO in one mode or none,
// and a run from LTO only with a run and LTO.
std::vector<std::map<std::string, bool>> combinations(const std::vector<std::string>& sections) {
    std::vector<std::map<std::string, bool>> all;
    for (size_t bits = 0; bits < (size_t(1) << sections.size()); ++bits) {
        std::map<std::string, bool> one;
        for (size_t i = 0; i < sections.size(); ++i) one[sections[i]] = bits & (size_t(1) << i);
        const auto on = [&](const char* name) { return one.contains(name) && one.at(name); };
        const bool modes = one.contains("lto_program");
        if (modes &&
            (on("lto") != (on("lto_program") || on("lto_separate")) || (on("lto_program") && on("lto_separate"))))
            continue;
        if (on("run_from_lto") && !(on("run") && on("lto"))) continue;
        all.push_back(one);
    }
    return all;
}

// The template filled under each combination, as files in `dir` named NAME.N.EXT.
std::vector<std::string> filledFiles(const std::string& name, const QTemporaryDir& dir, const std::string& ext) {
    const auto& sample = samples().at(name);
    std::vector<std::string> files;
    for (const auto& sections : combinations(sample.sections)) {
        auto filled = fillTemplate(builtInTemplate(name), {sample.values, sections});
        if (!filled) qFatal("%s: %s", name.c_str(), filled.error().message.c_str());
        const auto path = fs::path(dir.path().toStdString()) / (name + "." + std::to_string(files.size()) + ext);
        std::ofstream(path, std::ios::binary) << *filled;
        files.push_back(path.string());
    }
    return files;
}

struct Ran {
    int exitCode = -1;
    QString output;
};
Ran runTool(const QString& program, const QStringList& args) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForFinished(120000)) return {-1, "did not finish: " + program};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAll())};
}

QStringList toQt(const std::vector<std::string>& v) {
    QStringList l;
    for (const auto& s : v) l << QString::fromStdString(s);
    return l;
}

}  // namespace

class TestTemplates : public QObject {
    Q_OBJECT

private slots:
    void theTemplatesAreBuiltIn() {
        std::set<std::string> names;
        for (const auto& n : builtInTemplateNames()) names.insert(n);
        QCOMPARE(names, (std::set<std::string>{"CMakeLists.txt.in", "program.c.in", "script.py.in"}));
        for (const auto& n : names) {
            const auto onDisk = test::readText(test::sourceDir() / "resources/export" / n);
            QCOMPARE(std::string(builtInTemplate(n)), onDisk);
        }
    }

    // The samples name exactly the places and sections each template has.
    void everyPlaceHasASample() {
        for (const auto& name : builtInTemplateNames()) {
            const auto marks = templateMarks(builtInTemplate(name));
            QVERIFY2(marks, marks ? "" : qPrintable(QString::fromStdString(name + ": " + marks.error().message)));
            const auto& sample = samples().at(name);
            std::set<std::string> places;
            for (const auto& [place, value] : sample.values) places.insert(place);
            QVERIFY2(marks->places == places, name.c_str());
            QVERIFY2(marks->sections == std::set<std::string>(sample.sections.begin(), sample.sections.end()),
                     name.c_str());
        }
    }

    void theCProgramCompilesInEveryCombination() {
        QTemporaryDir dir;
        const auto files = filledFiles("program.c.in", dir, ".c");
        QStringList args{"-fsyntax-only", "-std=c11", "-I" NVPG_CUDA_INCLUDE};
        if (!QString(NVPG_NVVM_INCLUDE).isEmpty()) args << "-I" NVPG_NVVM_INCLUDE;
        const auto r = runTool("cc", args + toQt(files));
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    }

    void thePythonScriptByteCompilesInEveryCombination() {
        QTemporaryDir dir;
        const auto files = filledFiles("script.py.in", dir, ".py");
        QCOMPARE(files.size(), size_t(64));
        const auto r = runTool("python3", QStringList{"-m", "py_compile"} + toQt(files));
        QVERIFY2(r.exitCode == 0, qPrintable(r.output));
    }

    void theCMakeListsFillsInEveryCombination() {
        QTemporaryDir dir;
        const auto files = filledFiles("CMakeLists.txt.in", dir, ".txt");
        QCOMPARE(files.size(), size_t(2));
        QVERIFY(test::readText(files[1]).find("find_library(NVJITLINK_LIBRARY") != std::string::npos);
        QVERIFY(test::readText(files[0]).find("NVJITLINK") == std::string::npos);
    }

    // What a fill must match: every place of a kept line filled, no value or section the
    // template lacks, every section set, one-line values on one line, blocks of whole lines.
    void aFillThatDoesNotMatchIsRefused() {
        const std::string t = "a @x@ b\n@if s@\n@block@\n@else s@\nc @y@\n@end s@\n";
        const auto fill = [&](TemplateFill f) { return fillTemplate(t, f); };
        auto ok = fill({{{"x", "1"}, {"block", "B\n"}, {"y", "2"}}, {{"s", true}}});
        QVERIFY(ok);
        QCOMPARE(*ok, std::string("a 1 b\nB\n"));
        ok = fill({{{"x", "1"}, {"y", "2"}}, {{"s", false}}});  // @block@ is in a dropped line
        QVERIFY(ok);
        QCOMPARE(*ok, std::string("a 1 b\nc 2\n"));
        QVERIFY(!fill({{{"x", "1"}}, {{"s", false}}}));                           // @y@ unfilled
        QVERIFY(!fill({{{"x", "1"}, {"y", "2"}, {"z", "3"}}, {{"s", false}}}));   // no @z@
        QVERIFY(!fill({{{"x", "1"}, {"y", "2"}}, {}}));                           // s not set
        QVERIFY(!fill({{{"x", "1"}, {"y", "2"}}, {{"s", false}, {"t", true}}}));  // no section t
        QVERIFY(!fill({{{"x", "1\n"}, {"y", "2"}}, {{"s", false}}}));             // a line break
        QVERIFY(!fill({{{"x", "1"}, {"block", "B"}}, {{"s", true}}}));            // no line break
        // Values are data: a mark in one is written as it is.
        ok = fill({{{"x", "@y@ @@"}, {"y", "2"}}, {{"s", false}}});
        QVERIFY(ok);
        QCOMPARE(*ok, std::string("a @y@ @@ b\nc 2\n"));
        QCOMPARE(*fillTemplate("@@x @@\n", {}), std::string("@x @\n"));
        for (const char* bad : {"a @ b\n", "@if s@\n", "@end s@\n", "@if s@\n@end t@\n",
                                "@if s@\n@else s@\n@else s@\n@end s@\n", "a @B@\n"})
            QVERIFY2(!templateMarks(bad), bad);
    }

    // The writers' fills against the templates: exporting::generate over every bundled example
    // as both targets, without LTO and in both LTO modes, without a run and with each of the
    // example's runs, verified and not. Between them they turn every section on and off.
    void theWritersFillEveryTemplateThatTheyUse() {
        size_t generated = 0;
        for (const auto& name : test::exampleNames()) {
            const auto ws = test::loadExample(name);
            std::vector<std::optional<gpu::RunConfig>> runs{std::nullopt};
            for (const auto& r : ws.runs) runs.push_back(r);
            for (const auto target : {Target::CudaCore, Target::C})
                for (const int lto : {0, 1, 2})
                    for (const auto& run : runs)
                        for (const bool verify : {true, false}) {
                            Input in;
                            in.name = ws.name;
                            in.description = ws.description;
                            in.modules = ws.modules;
                            in.options = ws.options;
                            if (!in.options.arch) in.options.arch = "compute_90";
                            in.libdevice = ws.libdevice;
                            in.verify = verify;
                            in.lto = lto > 0 || (run && run->fromLto);
                            in.ltoMode = lto == 2 ? lto::Mode::Separate : lto::Mode::Program;
                            in.run = run;
                            in.baseDir = test::examplesDir();
                            try {
                                const auto out = generate(target, in);
                                QVERIFY2(out, out ? "" : out.error().message.c_str());
                                ++generated;
                            } catch (const std::logic_error& e) {
                                QFAIL(qPrintable(QString::fromStdString(name + ": " + e.what())));
                            }
                        }
        }
        QVERIFY(generated > 0);
    }
};

QTEST_GUILESS_MAIN(TestTemplates)
#include "tst_templates.moc"
