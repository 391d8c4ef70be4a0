// The .nvpg format: what is written reads back the same, every malformed input is refused with
// the file and a JSON pointer in the message, and saving never leaves a half-written file.
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "TestSupport.h"
#include "core/support/Base64.h"
#include "core/support/Files.h"
#include "core/workspace/Inputs.h"
#include "core/workspace/Workspace.h"

using namespace nvpg;

namespace {

// Bitcode as libNVVM would get it needs only the magic for the format's purposes; the rest of the
// bytes cover every value so that the base64 path sees them all.
std::string fakeBitcode() {
    std::string b = "BC\xC0\xDE";
    for (int i = 0; i < 256; ++i) b += static_cast<char>(i);
    return b;
}

void compareWorkspaces(const workspace::Workspace& a, const workspace::Workspace& b) {
    QCOMPARE(a.name, b.name);
    QCOMPARE(a.description, b.description);
    QCOMPARE(a.modules.size(), b.modules.size());
    for (size_t i = 0; i < a.modules.size(); ++i) {
        QCOMPARE(a.modules[i].name, b.modules[i].name);
        QVERIFY(a.modules[i].bytes == b.modules[i].bytes);
        QCOMPARE(a.modules[i].lazy, b.modules[i].lazy);
    }
    QVERIFY(a.options == b.options);
    QCOMPARE(a.libdevice, b.libdevice);
    QCOMPARE(a.verify, b.verify);
    QVERIFY(a.ltoMode == b.ltoMode);
    QVERIFY(a.runs == b.runs);
}

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// A valid document with `patch` applied (a JSON merge patch), so each error row states only what
// it breaks.
std::string validWith(const nlohmann::json& patch) {
    nlohmann::json doc = {
        {"format", "nvvm-playground-workspace"},
        {"version", 1},
        {"name", "w"},
        {"modules", nlohmann::json::array({{{"name", "a.ll"}, {"text", "; a\n"}}})},
    };
    doc.merge_patch(patch);
    return doc.dump();
}

}  // namespace

class TestWorkspace : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void serializedForm();
    void unsetOptionsAreNotWritten();
    void everyTableOptionRoundTripsThroughTheFile();
    void defaultsForOptionalKeys();
    void libdeviceWithoutASavedChoiceFollowsTheModules();
    void parseErrors_data();
    void parseErrors();
    void textWithBitcodeMagicIsRefused();
    void syntaxErrorGivesLineAndColumn();
    void newerVersionIsRefused();
    void notAWorkspaceFile();
    void unknownTopLevelKeysAreIgnored();
    void loadMissingFile();
    void saveIsAtomicAndReplaces();
    void saveRefusesNonUtf8Text();
    void examplesSaveBackUnchanged();
    void runsAreKeptOnePerName();
    void deeplyNestedJsonIsRefusedWithItsPlace();
    void controlCharactersInModuleNamesAreRefused_data();
    void controlCharactersInModuleNamesAreRefused();
    void manyModulesLoadInLinearTime();
    void manyVariantsLoadInLinearTime();
    void pinsAndVariantsSurviveSaveAndReopen();
    void pinsAndVariantsAreChecked_data();
    void pinsAndVariantsAreChecked();
    void aVariantOfOtherModulesIsVersion4();
    void inputsAreReadAsNvpgReadsThem();

    void base64KnownVectors_data();
    void base64KnownVectors();
    void base64AllByteValues();
    void base64EdgeLengths();
    void base64ToleratesWhitespace();
    void base64BadInput_data();
    void base64BadInput();
};

void TestWorkspace::roundTrip_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("text module") << 0;
    QTest::newRow("bitcode module") << 1;
    QTest::newRow("text and lazy bitcode") << 2;
    QTest::newRow("every option") << 3;
    QTest::newRow("options off") << 4;
    QTest::newRow("separate LTO, libdevice, runs") << 5;
    QTest::newRow("no modules, unicode text") << 6;
    QTest::newRow("verify off") << 7;
}

void TestWorkspace::roundTrip() {
    QFETCH(int, which);
    workspace::Workspace ws;
    ws.name = "saxpy";
    ws.description = "y = a*x + y, one thread per element.";
    switch (which) {
        case 0:
            ws.modules.push_back({"saxpy.ll", "; IR\ndefine void @k() {\n  ret void\n}\n", false});
            break;
        case 1:
            ws.modules.push_back({"helper.bc", fakeBitcode(), false});
            break;
        case 2:
            ws.modules.push_back({"main.ll", "; main\n\t\"quoted\" \\ back\\slash\n", false});
            ws.modules.push_back({"helper.bc", fakeBitcode(), true});
            break;
        case 3:
            ws.modules.push_back({"k.ll", "; k\n", false});
            QVERIFY(ws.options.set("arch", "compute_90").ok());
            QVERIFY(ws.options.set("opt", "0").ok());
            QVERIFY(ws.options.set("ftz", "1").ok());
            QVERIFY(ws.options.set("prec-div", "0").ok());
            QVERIFY(ws.options.set("prec-sqrt", "0").ok());
            QVERIFY(ws.options.set("fma", "0").ok());
            QVERIFY(ws.options.set("g", "on").ok());
            QVERIFY(ws.options.set("jump-table-density", "0").ok());
            ws.options.extraFlags = {"-foo", "-bar=1"};
            break;
        case 4:
            ws.modules.push_back({"k.ll", "; k\n", false});
            QVERIFY(ws.options.set("opt", "3").ok());
            QVERIFY(ws.options.set("ftz", "0").ok());
            QVERIFY(ws.options.set("prec-div", "1").ok());
            QVERIFY(ws.options.set("prec-sqrt", "1").ok());
            QVERIFY(ws.options.set("fma", "1").ok());
            QVERIFY(ws.options.set("jump-table-density", "101").ok());
            break;
        case 5:
            ws.modules.push_back({"k.ll", "; k\n", false});
            ws.libdevice = true;
            ws.ltoMode = lto::Mode::Separate;
            for (const auto* run :
                 {R"({"kernel": "saxpy", "grid": [4, 1, 1]})", R"({"kernel": "k2", "args": ["ptr:null"]})",
                  R"({"name": "slow", "kernel": "k2", "timeout": 2.5, "from": "lto", "repeat": 3})"}) {
                auto config = gpu::runConfigFromJson(nlohmann::json::parse(run), "/runs");
                QVERIFY2(config, config ? "" : config.error().message.c_str());
                ws.runs.push_back(*config);
            }
            break;
        case 7:
            ws.modules.push_back({"k.ll", "; k\n", false});
            ws.verify = false;
            break;
        case 6:
            ws.name = "naïve — ünïcødé ✓";
            ws.description = "line one\nline two\ttab \x01 control";
            break;
    }
    const std::string once = workspace::serializeWorkspace(ws);
    auto back = workspace::parseWorkspace(once, "mem.nvpg");
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    compareWorkspaces(*back, ws);
    QCOMPARE(workspace::serializeWorkspace(*back), once);
}

void TestWorkspace::serializedForm() {
    workspace::Workspace ws;
    ws.name = "saxpy";
    ws.description = "d";
    ws.modules.push_back({"saxpy.ll", "; x\n", false});
    ws.modules.push_back({"helper.bc", std::string("BC\xC0\xDE", 4), true});
    QVERIFY(ws.options.set("opt", "3").ok());
    QVERIFY(ws.options.set("ftz", "0").ok());
    ws.options.extraFlags = {"-foo"};
    ws.libdevice = true;
    const std::string expected = R"({
  "format": "nvvm-playground-workspace",
  "version": 1,
  "name": "saxpy",
  "description": "d",
  "modules": [
    {
      "name": "saxpy.ll",
      "text": "; x\n",
      "lazy": false
    },
    {
      "name": "helper.bc",
      "bitcode": "QkPA3g==",
      "lazy": true
    }
  ],
  "options": {
    "opt": 3,
    "ftz": false,
    "extra-flags": [
      "-foo"
    ]
  },
  "libdevice": true,
  "lto": {
    "mode": "program"
  },
  "runs": []
}
)";
    QCOMPARE(qs(workspace::serializeWorkspace(ws)), qs(expected));
}

// Each option of the table is a key of "options" under its name, with the JSON type its kind
// gives, and reads back as written; an output choice (gen-lto) is neither written nor read.
void TestWorkspace::everyTableOptionRoundTripsThroughTheFile() {
    for (const auto& info : nvvm::optionTable()) {
        const std::string name(info.name);
        std::vector<std::string> values;
        switch (info.kind) {
            case nvvm::OptionKind::Arch:
                values = nvvm::supportedArchs(13);
                break;
            case nvvm::OptionKind::Enum:
                for (const auto& v : info.values) values.emplace_back(v.value);
                break;
            case nvvm::OptionKind::IntRange:
                values = {std::to_string(info.min), std::to_string(info.max)};
                break;
            case nvvm::OptionKind::Bool:
                values = {"0", "1"};
                break;
            case nvvm::OptionKind::Switch:
                values = {"on"};
                break;
        }
        for (const auto& v : values) {
            const auto what = qPrintable(QString::fromStdString(name + " " + v));
            workspace::Workspace ws;
            ws.modules.push_back({"k.ll", "; k\n", false});
            QVERIFY2(ws.options.set(name, v), what);
            const auto text = workspace::serializeWorkspace(ws);
            const auto doc = nlohmann::json::parse(text);
            const auto& options = doc.at("options");
            auto back = workspace::parseWorkspace(text, "x.nvpg");
            QVERIFY2(back.ok(), what);
            if (info.outputChoice) {
                QVERIFY2(options.empty(), what);
                QVERIFY2(back->options == nvvm::Options{}, what);
                // Nor is it read: the file would otherwise choose an output for every compile.
                const auto st = workspace::parseWorkspace(validWith({{"options", {{name, true}}}}), "x.nvpg");
                QVERIFY2(!st && st.error().message.find("not stored in a workspace") != std::string::npos, what);
                continue;
            }
            QCOMPARE(options.size(), size_t(1));
            const auto& value = options.at(name);
            switch (info.kind) {
                case nvvm::OptionKind::Arch:
                    QCOMPARE(value.get<std::string>(), v);
                    break;
                case nvvm::OptionKind::Enum:
                case nvvm::OptionKind::IntRange:
                    QCOMPARE(std::to_string(value.get<int>()), v);
                    break;
                case nvvm::OptionKind::Bool:
                    QCOMPARE(value.get<bool>(), v == "1");
                    break;
                case nvvm::OptionKind::Switch:
                    QCOMPARE(value.get<bool>(), true);
                    break;
            }
            QVERIFY2(back->options == ws.options, what);
            QCOMPARE(back->options.get(name), std::optional(v));
            QCOMPARE(workspace::serializeWorkspace(*back), text);
        }
    }
}

void TestWorkspace::unsetOptionsAreNotWritten() {
    workspace::Workspace ws;
    ws.options.debug = false;
    ws.options.genLto = true;  // an output choice, never part of the document
    const auto doc = nlohmann::json::parse(workspace::serializeWorkspace(ws));
    QVERIFY(doc.at("options").is_object());
    QVERIFY(doc.at("options").empty());

    ws.options.debug = true;
    const auto withG = nlohmann::json::parse(workspace::serializeWorkspace(ws));
    QCOMPARE(withG.at("options").size(), size_t(1));
    QCOMPARE(withG.at("options").at("g").get<bool>(), true);

    auto back = workspace::parseWorkspace(workspace::serializeWorkspace(ws), "x.nvpg");
    QVERIFY(back.ok());
    QVERIFY(!back->options.genLto);
    QVERIFY(back->options.debug);
}

void TestWorkspace::defaultsForOptionalKeys() {
    auto ws = workspace::loadWorkspace(test::dataDir() / "workspace/minimal.nvpg");
    QVERIFY2(ws.ok(), ws.ok() ? "" : ws.error().message.c_str());
    QCOMPARE(ws->name, std::string());
    QCOMPARE(ws->modules.size(), size_t(1));
    QCOMPARE(ws->modules[0].lazy, false);
    QVERIFY(ws->options == nvvm::Options{});
    QCOMPARE(ws->libdevice, false);
    QCOMPARE(ws->verify, true);  // files from before the verify setting existed: on
    QVERIFY(ws->ltoMode == lto::Mode::Program);
    QVERIFY(ws->runs.empty());
    // Off is written, and read back off.
    ws->verify = false;
    const auto text = workspace::serializeWorkspace(*ws);
    QVERIFY2(text.find("\"verify\": false") != std::string::npos, text.c_str());
    auto back = workspace::parseWorkspace(text, "off.nvpg");
    QVERIFY(back.ok() && !back->verify);
}

// Modules that call libdevice (numba's quoted @"__nv_*" included) and come
// without a saved choice link it; a saved choice wins, and a module defining its own __nv_sinf
// needs none.
void TestWorkspace::libdeviceWithoutASavedChoiceFollowsTheModules() {
    const auto numba = test::numbaModules("math_kernel");
    QCOMPARE(workspace::libdeviceCallsOf(numba), (std::vector<std::string>{"__nv_sinf", "__nv_expf", "__nv_pow"}));
    QVERIFY(workspace::libdeviceCallsOf(test::numbaModules("axpy")).empty());
    const nvvm::Module own{"own.ll",
                           "define float @__nv_sinf(float %x) {\n  ret float %x\n}\n"
                           "define void @k(float %x) {\n  %r = call float @__nv_sinf(float %x)\n  ret void\n}\n",
                           false};
    QVERIFY(workspace::libdeviceCallsOf({own}).empty());
    QCOMPARE(workspace::libdeviceRuleNote({"__nv_sinf", "__nv_expf", "__nv_pow", "__nv_cosf"}),
             std::string("libdevice linked: the modules call __nv_sinf, __nv_expf, __nv_pow and 1 more"));

    const nlohmann::json modules = nlohmann::json::array({{{"name", "m.ll"}, {"text", numba.front().bytes}}});
    auto unsaid = workspace::parseWorkspace(validWith({{"modules", modules}}), "unsaid.nvpg");
    QVERIFY(unsaid.ok());
    QVERIFY(unsaid->libdevice && !unsaid->libdeviceSaved);
    auto off = workspace::parseWorkspace(validWith({{"modules", modules}, {"libdevice", false}}), "off.nvpg");
    QVERIFY(off.ok());
    QVERIFY(!off->libdevice && off->libdeviceSaved);
    QVERIFY(workspace::applyLibdeviceRule(*off).empty());
    QVERIFY(!off->libdevice);
    // What was decided is saved: the file says it from then on.
    auto back = workspace::parseWorkspace(workspace::serializeWorkspace(*unsaid), "back.nvpg");
    QVERIFY(back.ok() && back->libdevice && back->libdeviceSaved);
    // No module calls libdevice: off, and still not a saved choice.
    auto none = workspace::parseWorkspace(validWith(nlohmann::json::object()), "none.nvpg");
    QVERIFY(none.ok() && !none->libdevice && !none->libdeviceSaved);
}

void TestWorkspace::parseErrors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("what");
    using nlohmann::json;
    auto row = [](const char* tag, const std::string& doc, const char* pointer, const char* what) {
        QTest::newRow(tag) << qs(doc) << QString(pointer) << QString(what);
    };
    const std::string bc64 = support::base64Encode("BC\xC0\xDE rest");

    row("root is an array", "[1, 2]", "", "not an NVVM Playground workspace file");
    row("format missing", R"({"version": 1, "modules": []})", "/format", "not an NVVM Playground workspace file");
    row("format wrong", validWith({{"format", "something-else"}}), "/format", "not an NVVM Playground workspace file");
    row("format not a string", validWith({{"format", 7}}), "/format", "got a number (7)");
    row("version missing", R"({"format": "nvvm-playground-workspace", "modules": []})", "/version", "missing");
    row("version is a string", validWith({{"version", "1"}}), "/version", "expected an integer, got a string (\"1\")");
    row("version is fractional", validWith({{"version", 1.5}}), "/version", "expected an integer");
    row("version zero", validWith({{"version", 0}}), "/version", "versions start at 1");
    row("version negative", validWith({{"version", -3}}), "/version", "versions start at 1");
    row("name not a string", validWith({{"name", 5}}), "/name", "expected a string, got a number");
    row("description not a string", validWith({{"description", json::array()}}), "/description",
        "expected a string, got an array");
    row("modules missing", R"({"format": "nvvm-playground-workspace", "version": 1})", "/modules", "missing");
    row("modules not an array", validWith({{"modules", json::object()}}), "/modules",
        "expected an array of modules, got an object");
    row("module not an object", validWith({{"modules", {"a.ll"}}}), "/modules/0", "got a string");
    row("module without name", validWith({{"modules", {{{"text", ""}}}}}), "/modules/0", "no \"name\"");
    row("module name empty", validWith({{"modules", {{{"name", ""}, {"text", ""}}}}}), "/modules/0/name", "empty");
    row("module name a number", validWith({{"modules", {{{"name", 1}, {"text", ""}}}}}), "/modules/0/name",
        "expected a string, got a number");
    row("module names repeat",
        validWith({{"modules", {{{"name", "a.ll"}, {"text", ""}}, {{"name", "a.ll"}, {"text", ""}}}}}),
        "/modules/1/name", "already used by /modules/0");
    row("module text a number",
        validWith({{"modules", {{{"name", "a.ll"}, {"text", ""}}, {{"name", "b.ll"}, {"text", 3}}}}}),
        "/modules/1/text", "expected a string, got a number");
    row("module text and bitcode", validWith({{"modules", {{{"name", "a"}, {"text", ""}, {"bitcode", bc64}}}}}),
        "/modules/0", "both \"text\" and \"bitcode\"");
    row("module neither", validWith({{"modules", {{{"name", "a"}, {"lazy", true}}}}}), "/modules/0",
        "neither \"text\" nor \"bitcode\"");
    row("bitcode is text", validWith({{"modules", {{{"name", "a"}, {"bitcode", support::base64Encode("; text\n")}}}}}),
        "/modules/0/bitcode", "not LLVM bitcode");
    row("bitcode bad base64", validWith({{"modules", {{{"name", "a"}, {"bitcode", "QkPA*g=="}}}}}),
        "/modules/0/bitcode", "'*' at offset 4");
    row("bitcode not a string", validWith({{"modules", {{{"name", "a"}, {"bitcode", {1, 2}}}}}}), "/modules/0/bitcode",
        "expected a base64 string, got an array");
    row("lazy not a boolean", validWith({{"modules", {{{"name", "a"}, {"text", ""}, {"lazy", 1}}}}}), "/modules/0/lazy",
        "expected true or false, got a number");
    row("options not an object", validWith({{"options", "-opt=3"}}), "/options", "expected an object, got a string");
    row("arch a number", validWith({{"options", {{"arch", 90}}}}), "/options/arch", "expected a string, got a number");
    row("arch empty", validWith({{"options", {{"arch", ""}}}}), "/options/arch", "empty");
    row("opt a string", validWith({{"options", {{"opt", "3"}}}}), "/options/opt", "expected an integer, got a string");
    row("opt 2", validWith({{"options", {{"opt", 2}}}}), "/options/opt", "option opt: '2' is not allowed; use 0 or 3");
    row("opt fractional", validWith({{"options", {{"opt", 3.0}}}}), "/options/opt",
        "expected an integer, got a number");
    row("ftz a number", validWith({{"options", {{"ftz", 1}}}}), "/options/ftz", "expected true or false, got a number");
    row("prec-div a string", validWith({{"options", {{"prec-div", "true"}}}}), "/options/prec-div",
        "expected true or false");
    // Written out: a merge patch would delete a key whose value is null.
    row("prec-sqrt null",
        R"({"format": "nvvm-playground-workspace", "version": 1, "modules": [],
            "options": {"prec-sqrt": null}})",
        "/options/prec-sqrt", "expected true or false, got null");
    row("fma an array", validWith({{"options", {{"fma", json::array()}}}}), "/options/fma",
        "expected true or false, got an array");
    row("g a string", validWith({{"options", {{"g", "on"}}}}), "/options/g", "expected true or false");
    row("jump-table-density too big", validWith({{"options", {{"jump-table-density", 102}}}}),
        "/options/jump-table-density", "option jump-table-density: '102' is not allowed");
    row("jump-table-density negative", validWith({{"options", {{"jump-table-density", -1}}}}),
        "/options/jump-table-density", "option jump-table-density");
    row("extra-flags a string", validWith({{"options", {{"extra-flags", "-foo"}}}}), "/options/extra-flags",
        "expected an array of strings, got a string");
    row("extra-flag a number", validWith({{"options", {{"extra-flags", {"-a", 3}}}}}), "/options/extra-flags/1",
        "expected a string, got a number");
    row("extra-flag without dash", validWith({{"options", {{"extra-flags", {"foo"}}}}}), "/options/extra-flags/0",
        "starts with '-'");
    row("extra-flag duplicating opt", validWith({{"options", {{"extra-flags", {"-opt=0"}}}}}), "/options/extra-flags/0",
        "sets the option opt, which has its own key \"opt\" in \"options\"");
    row("unknown option", validWith({{"options", {{"prec_div", true}}}}), "/options/prec_div", "unknown option");
    row("gen-lto stored", validWith({{"options", {{"gen-lto", true}}}}), "/options/gen-lto",
        "not stored in a workspace");
    row("libdevice a string", validWith({{"libdevice", "yes"}}), "/libdevice", "expected true or false, got a string");
    row("verify a string", validWith({{"verify", "yes"}}), "/verify", "expected true or false, got a string");
    row("lto not an object", validWith({{"lto", "program"}}), "/lto", "expected an object, got a string");
    row("lto mode unknown", validWith({{"lto", {{"mode", "whole"}}}}), "/lto/mode",
        "\"whole\" is not an LTO mode; use \"program\" or \"separate\"");
    row("lto mode a number", validWith({{"lto", {{"mode", 1}}}}), "/lto/mode", "expected a string, got a number");
    row("run without a kernel", validWith({{"runs", json::array({json::object({{"grid", {1}}})})}}), "/runs/0/kernel",
        "expected the kernel's name");
    // A saved run is checked with the file: a bad one never reaches the Runs panel.
    row("run with a bad grid",
        validWith({{"runs", json::array({json::object({{"kernel", "k"}, {"grid", "sixteen"}})})}}), "/runs/0/grid",
        "expected [x], [x, y] or [x, y, z]");
    row("runs not an array", validWith({{"runs", json::object({{"a", 1}})}}), "/runs",
        "expected an array, got an object");
}

void TestWorkspace::examplesSaveBackUnchanged() {
    // The runs are read into typed configurations and written from them: the files people have
    // keep their bytes.
    int checked = 0;
    for (const auto& e : std::filesystem::directory_iterator(test::examplesDir())) {
        if (e.path().extension() != ".nvpg") continue;
        const std::string bytes = test::readText(e.path());
        auto ws = workspace::parseWorkspace(bytes, e.path().string());
        QVERIFY2(ws, ws ? "" : ws.error().message.c_str());
        QCOMPARE(workspace::serializeWorkspace(*ws), bytes);
        ++checked;
    }
    QVERIFY(checked >= 5);
    auto saxpy = workspace::loadWorkspace(test::examplesDir() / "saxpy.nvpg");
    QVERIFY(saxpy);
    QCOMPARE(saxpy->runs.size(), size_t(1));
    QCOMPARE(saxpy->runs[0].name, std::string("saxpy 4096"));
    QCOMPARE(saxpy->runs[0].grid, (gpu::Dim3{16, 1, 1}));
    QCOMPARE(saxpy->runs[0].args.size(), size_t(4));
    QCOMPARE(saxpy->runs[0].timeoutSeconds, 10.0);
}

void TestWorkspace::runsAreKeptOnePerName() {
    std::vector<gpu::RunConfig> runs;
    gpu::RunConfig a;
    a.name = "a";
    a.kernel = "k";
    QCOMPARE(workspace::putRun(runs, a), size_t(0));
    gpu::RunConfig unnamed;
    unnamed.kernel = "k";
    QCOMPARE(workspace::putRun(runs, unnamed), size_t(1));
    a.repeat = 7;
    QCOMPARE(workspace::putRun(runs, a), size_t(0));
    QCOMPARE(runs.size(), size_t(2));
    QCOMPARE(runs[0].repeat, 7);
    QCOMPARE(workspace::runLabel(runs, 0), std::string("a"));
    QCOMPARE(workspace::runLabel(runs, 1), std::string("#1"));
}

void TestWorkspace::parseErrors() {
    QFETCH(QString, json);
    QFETCH(QString, pointer);
    QFETCH(QString, what);
    auto r = workspace::parseWorkspace(json.toStdString(), "examples/x.nvpg");
    QVERIFY(!r.ok());
    QVERIFY(r.error().kind == support::ErrorKind::Input);
    const QString message = qs(r.error().message);
    const QString head = pointer.isEmpty() ? "examples/x.nvpg: " : "examples/x.nvpg: " + pointer + ": ";
    QVERIFY2(message.startsWith(head), qPrintable(message));
    QVERIFY2(message.contains(what), qPrintable(message));
}

void TestWorkspace::textWithBitcodeMagicIsRefused() {
    // Both magics hold bytes that are not UTF-8, so the JSON reader already refuses them, with
    // the place; the reader's own magic check is there should that ever change.
    for (const std::string& magic : {std::string("BC\xC0\xDE", 4), std::string("\xDE\xC0\x17\x0B", 4)}) {
        const std::string doc = R"({"format": "nvvm-playground-workspace", "version": 1,
"modules": [{"name": "a", "text": ")" +
                                magic + R"(rest"}]})";
        auto r = workspace::parseWorkspace(doc, "m.nvpg");
        QVERIFY(!r.ok());
        const QString m = qs(r.error().message);
        QVERIFY2(m.startsWith("m.nvpg: line 2, column 3"), qPrintable(m));
        QVERIFY2(m.contains("UTF-8"), qPrintable(m));
        QVERIFY2(m.contains("\\xC0"), qPrintable(m));  // the bad byte, spelled out
    }
}

void TestWorkspace::syntaxErrorGivesLineAndColumn() {
    auto r = workspace::loadWorkspace(test::dataDir() / "workspace/syntax-error.nvpg");
    QVERIFY(!r.ok());
    const QString m = qs(r.error().message);
    QVERIFY2(m.contains("syntax-error.nvpg: line 5, column 26: "), qPrintable(m));
    QVERIFY2(m.contains("not valid JSON"), qPrintable(m));
    QVERIFY2(!m.contains("json.exception"), qPrintable(m));

    // First line, and the end of the input (nlohmann then points one past the last byte).
    auto first = workspace::parseWorkspace("{,", "a.nvpg");
    QVERIFY(!first.ok());
    QVERIFY2(qs(first.error().message).startsWith("a.nvpg: line 1, column 2: "), first.error().message.c_str());
    auto truncated = workspace::parseWorkspace("{\n  \"format\": \"nvvm", "b.nvpg");
    QVERIFY(!truncated.ok());
    QVERIFY2(qs(truncated.error().message).startsWith("b.nvpg: line 2, column "), truncated.error().message.c_str());
    auto empty = workspace::parseWorkspace("", "c.nvpg");
    QVERIFY(!empty.ok());
    QVERIFY2(qs(empty.error().message).startsWith("c.nvpg: line 1, column 1: "), empty.error().message.c_str());

    // A long bad token (a .ll opened as a workspace, a module pasted whole): the message quotes a
    // short piece of one line, not the file.
    const std::string longToken = "{\"name\": \"" + std::string(5000, 'A') + "\n" + std::string(5000, 'B') + "}";
    auto longBad = workspace::parseWorkspace(longToken, "d.nvpg");
    QVERIFY(!longBad.ok());
    const auto& lm = longBad.error().message;
    const auto quoted = lm.find("last read: '"), cut = lm.find("...'");
    QVERIFY2(quoted != std::string::npos && cut != std::string::npos && cut - quoted - 12 <= 60, lm.c_str());
    QVERIFY2(lm.find("(5009 characters)") != std::string::npos, lm.c_str());
    QVERIFY2(lm.find('\n') == std::string::npos, lm.c_str());
    QVERIFY2(lm.find("AAAA") != std::string::npos, lm.c_str());
}

void TestWorkspace::newerVersionIsRefused() {
    auto r = workspace::loadWorkspace(test::dataDir() / "workspace/future-version.nvpg");
    QVERIFY(!r.ok());
    const QString m = qs(r.error().message);
    QVERIFY2(m.endsWith("future-version.nvpg: /version: written by a newer NVVM Playground (format "
                        "version 5); this one reads up to version 4 — update NVVM Playground"),
             qPrintable(m));

    auto huge = workspace::parseWorkspace(validWith({{"version", 18446744073709551615ull}}), "h");
    QVERIFY(!huge.ok());
    QVERIFY2(qs(huge.error().message).contains("format version 18446744073709551615"), huge.error().message.c_str());
}

void TestWorkspace::notAWorkspaceFile() {
    auto r = workspace::loadWorkspace(test::dataDir() / "workspace/not-a-workspace.json");
    QVERIFY(!r.ok());
    QVERIFY2(qs(r.error().message)
                 .contains("not-a-workspace.json: /format: missing; this is not an "
                           "NVVM Playground workspace file"),
             r.error().message.c_str());
}

void TestWorkspace::unknownTopLevelKeysAreIgnored() {
    auto r = workspace::loadWorkspace(test::dataDir() / "workspace/unknown-keys.nvpg");
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QCOMPARE(r->name, std::string("from a later release"));
    QVERIFY(r->ltoMode == lto::Mode::Separate);
    QVERIFY(r->modules.empty());
}

void TestWorkspace::loadMissingFile() {
    auto r = workspace::loadWorkspace(test::dataDir() / "workspace/no-such-file.nvpg");
    QVERIFY(!r.ok());
    QVERIFY(qs(r.error().message).contains("no-such-file.nvpg"));
}

void TestWorkspace::saveIsAtomicAndReplaces() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path path = std::filesystem::path(dir.path().toStdString()) / "w.nvpg";
    auto listing = [&] {
        QStringList names;
        for (const auto& e : std::filesystem::directory_iterator(path.parent_path()))
            names << qs(e.path().filename().string());
        return names;
    };

    workspace::Workspace ws;
    ws.name = "first";
    ws.modules.push_back({"k.ll", "; k\n", false});
    QVERIFY(workspace::saveWorkspace(ws, path).ok());
    QCOMPARE(listing(), QStringList{"w.nvpg"});
    QCOMPARE(test::readText(path), workspace::serializeWorkspace(ws));

    ws.name = "second";
    ws.modules.push_back({"h.bc", fakeBitcode(), true});
    QVERIFY(workspace::saveWorkspace(ws, path).ok());
    QCOMPARE(listing(), QStringList{"w.nvpg"});
    QCOMPARE(test::readText(path), workspace::serializeWorkspace(ws));
    auto back = workspace::loadWorkspace(path);
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message.c_str());
    compareWorkspaces(*back, ws);

    // A directory that does not exist: an error naming the file, and nothing created.
    auto bad = workspace::saveWorkspace(ws, path.parent_path() / "missing" / "w.nvpg");
    QVERIFY(!bad.ok());
    QVERIFY(qs(bad.error().message).contains("w.nvpg"));
    QCOMPARE(listing(), QStringList{"w.nvpg"});
}

void TestWorkspace::saveRefusesNonUtf8Text() {
    QTemporaryDir dir;
    const std::filesystem::path path = std::filesystem::path(dir.path().toStdString()) / "w.nvpg";
    workspace::Workspace ws;
    ws.modules.push_back({"good.ll", "; ok: \u03c0 \u2713 \U0001F600\n", false});
    QVERIFY(workspace::saveWorkspace(ws, path).ok());
    const std::string before = test::readText(path);

    ws.modules.push_back({"latin1.ll", "; caf\xE9\n", false});
    auto r = workspace::saveWorkspace(ws, path);
    QVERIFY(!r.ok());
    QVERIFY2(qs(r.error().message).contains("latin1.ll"), r.error().message.c_str());
    QVERIFY2(qs(r.error().message).contains("offset 5"), r.error().message.c_str());
    QCOMPARE(test::readText(path), before);

    ws.modules.pop_back();
    ws.name = "bad \xFF name";
    auto named = workspace::saveWorkspace(ws, path);
    QVERIFY(!named.ok());
    QVERIFY2(qs(named.error().message).contains("the name has a byte that is not UTF-8 at offset 4"),
             named.error().message.c_str());
    QCOMPARE(test::readText(path), before);
}

// 100,000 levels inside a run configuration: reading it, copying it or dumping it recursed once
// per level and overflowed the stack (SIGSEGV, no message). The file is refused at the bracket
// that goes too deep, before anything is built.
void TestWorkspace::deeplyNestedJsonIsRefusedWithItsPlace() {
    const size_t depth = 100000;
    const std::string head = R"({"format":"nvvm-playground-workspace","version":1,"modules":[],)"
                             "\n"
                             R"("runs":[{"kernel":"k","y":)";
    const std::string doc = head + std::string(depth, '[') + std::string(depth, ']') + "}]}";
    auto r = workspace::parseWorkspace(doc, "deep.nvpg");
    QVERIFY(!r.ok());
    QVERIFY(r.error().kind == support::ErrorKind::Input);
    const QString m = qs(r.error().message);
    // Line 2: `"runs":[` opens level 2, `{` level 3, and the run's `[`s levels 4 on; the one that
    // opens level 65 is the 62nd of them.
    const size_t column = std::string(R"("runs":[{"kernel":"k","y":)").size() + 62;
    QVERIFY2(m.startsWith(qs(fmt::format("deep.nvpg: line 2, column {}: ", column))), qPrintable(m));
    QVERIFY2(m.contains("nested deeper than 64 levels"), qPrintable(m));

    // Brackets inside strings are text, and 64 levels are still read.
    std::string ok = R"({"format":"nvvm-playground-workspace","version":1,"modules":[],"name":")" +
                     std::string(1000, '[') + R"(\"[","x":)";
    ok += std::string(63, '[') + std::string(63, ']') + "}";
    auto fine = workspace::parseWorkspace(ok, "ok.nvpg");
    QVERIFY2(fine.ok(), fine.ok() ? "" : fine.error().message.c_str());
    QCOMPARE(fine->name.size(), size_t(1002));
}

void TestWorkspace::controlCharactersInModuleNamesAreRefused_data() {
    QTest::addColumn<QString>("name");   // as JSON writes it
    QTest::addColumn<QString>("shown");  // as the message shows it
    QTest::newRow("terminal title and clear") << R"(k\u001b]0;pwned\u0007\u001b[2J.ll)"
                                              << R"(k\x1b]0;pwned\x07\x1b[2J.ll)";
    QTest::newRow("newline forging an error line") << R"(k.ll\nerror: all is well)"
                                                   << R"(k.ll\nerror: all is well)";
    QTest::newRow("NUL cutting the name") << R"(k.ll\u0000.txt)"
                                          << R"(k.ll\x00.txt)";
    QTest::newRow("DEL") << R"(k\u007f.ll)"
                         << R"(k\x7f.ll)";
    QTest::newRow("C1 next line") << R"(k\u0085.ll)"
                                  << R"(k\u0085.ll)";
    QTest::newRow("C1 CSI") << R"(k\u009b2J.ll)"
                            << R"(k\u009b2J.ll)";
}

void TestWorkspace::controlCharactersInModuleNamesAreRefused() {
    QFETCH(QString, name);
    QFETCH(QString, shown);
    const std::string doc = R"({"format":"nvvm-playground-workspace","version":1,"modules":[)"
                            R"({"name":"a.ll","text":"; a\n"},{"name":")" +
                            name.toStdString() + R"(","text":"; b\n"}]})";
    auto r = workspace::parseWorkspace(doc, "w.nvpg");
    QVERIFY2(!r.ok(), "a module name with a control character was accepted");
    const QString m = qs(r.error().message);
    QVERIFY2(m.startsWith("w.nvpg: /modules/1/name: "), qPrintable(m));
    QVERIFY2(m.contains(shown), qPrintable(m));
    QVERIFY2(m.contains("control character"), qPrintable(m));
    for (QChar c : m) QVERIFY2(c.unicode() >= 0x20 && !(c.unicode() >= 0x7f && c.unicode() <= 0x9f), qPrintable(m));

    // Other Unicode is a name like any other.
    auto fine = workspace::parseWorkspace(validWith({{"modules", {{{"name", "ядро ✓.ll"}, {"text", "; a\n"}}}}}), "u");
    QVERIFY2(fine.ok(), fine.ok() ? "" : fine.error().message.c_str());
}

// 100,000 modules took 222 s to load (each name was compared with every earlier one). Loading
// is to grow with the number of modules, not its square: 8 times the modules may take at most
// 30 times as long (a square takes 64 times; caches and malloc make a linear load take ~12).
void TestWorkspace::manyModulesLoadInLinearTime() {
    auto documentOf = [](size_t n) {
        nlohmann::json modules = nlohmann::json::array();
        for (size_t i = 0; i < n; ++i)
            modules.push_back({{"name", fmt::format("dir{}/module{}.ll", i % 7, i)}, {"text", "; m\n"}});
        return nlohmann::json{{"format", "nvvm-playground-workspace"}, {"version", 1}, {"modules", modules}}.dump();
    };
    // The best of a few rounds, so that a busy machine does not make the small load look slow.
    auto secondsToLoad = [](const std::string& doc, size_t n, int rounds) {
        double best = 1e9;
        for (int round = 0; round < rounds; ++round) {
            const auto start = std::chrono::steady_clock::now();
            auto r = workspace::parseWorkspace(doc, "many.nvpg");
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            if (!r.ok()) qFatal("%s", r.error().message.c_str());
            if (r->modules.size() != n) qFatal("read %zu modules of %zu", r->modules.size(), n);
            best = std::min(best, took.count());
        }
        return best;
    };
    const double small = secondsToLoad(documentOf(5000), 5000, 3);
    const double large = secondsToLoad(documentOf(40000), 40000, 2);
    qInfo("5,000 modules: %.4f s; 40,000 modules: %.4f s (%.1fx)", small, large, large / small);
    QVERIFY2(large < 30 * std::max(small, 1e-3),
             qPrintable(QString("40,000 modules took %1x as long as 5,000").arg(large / small)));
}

void TestWorkspace::base64KnownVectors_data() {
    QTest::addColumn<QByteArray>("plain");
    QTest::addColumn<QByteArray>("encoded");
    // RFC 4648 section 10.
    QTest::newRow("empty") << QByteArray("") << QByteArray("");
    QTest::newRow("f") << QByteArray("f") << QByteArray("Zg==");
    QTest::newRow("fo") << QByteArray("fo") << QByteArray("Zm8=");
    QTest::newRow("foo") << QByteArray("foo") << QByteArray("Zm9v");
    QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==");
    QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=");
    QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy");
    QTest::newRow("+ and /") << QByteArray("\xfb\xff\xbf", 3) << QByteArray("+/+/");
}

void TestWorkspace::base64KnownVectors() {
    QFETCH(QByteArray, plain);
    QFETCH(QByteArray, encoded);
    const std::string p(plain.constData(), plain.size());
    QCOMPARE(QByteArray::fromStdString(support::base64Encode(p)), encoded);
    auto d = support::base64Decode(encoded.toStdString());
    QVERIFY(d.ok());
    QVERIFY(*d == p);
}

void TestWorkspace::base64AllByteValues() {
    std::string all;
    for (int i = 0; i < 256; ++i) all += static_cast<char>(i);
    for (int rot = 0; rot < 3; ++rot) {  // each byte in each position of a 3-byte group
        const std::string s = all.substr(rot) + all.substr(0, rot);
        const auto enc = support::base64Encode(s);
        QCOMPARE(QByteArray::fromStdString(enc), QByteArray(s.data(), int(s.size())).toBase64());
        auto dec = support::base64Decode(enc);
        QVERIFY(dec.ok());
        QVERIFY(*dec == s);
    }
}

void TestWorkspace::base64EdgeLengths() {
    for (size_t n : {0, 1, 2, 3, 4, 5, 6, 7, 62, 63, 64, 65, 1023, 1024, 1025}) {
        std::string s;
        for (size_t i = 0; i < n; ++i) s += static_cast<char>((i * 131 + 7) & 0xff);
        const auto enc = support::base64Encode(s);
        QCOMPARE(enc.size(), (n + 2) / 3 * 4);
        QCOMPARE(QByteArray::fromStdString(enc), QByteArray(s.data(), int(s.size())).toBase64());
        auto dec = support::base64Decode(enc);
        QVERIFY2(dec.ok(), dec.ok() ? "" : dec.error().message.c_str());
        QVERIFY(*dec == s);
    }
}

void TestWorkspace::base64ToleratesWhitespace() {
    auto d = support::base64Decode(" Zm9v\nYmFy\r\n\tZm8=\n ");
    QVERIFY2(d.ok(), d.ok() ? "" : d.error().message.c_str());
    QCOMPARE(*d, std::string("foobarfo"));
    auto padded = support::base64Decode("Zg=\n=");
    QVERIFY(padded.ok());
    QCOMPARE(*padded, std::string("f"));
}

void TestWorkspace::base64BadInput_data() {
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QString>("what");
    QTest::newRow("bad character") << QByteArray("Zm9v*mFy") << "'*' at offset 4";
    QTest::newRow("url-safe alphabet") << QByteArray("Zm9v-_Fy") << "'-' at offset 4";
    QTest::newRow("control byte") << QByteArray("Zm\x01v") << "byte 0x01 at offset 2";
    QTest::newRow("non-ASCII byte") << QByteArray("Zm9v\xc3\xa9") << "byte 0xc3 at offset 4";
    QTest::newRow("offset counts whitespace") << QByteArray("Zm9v\n  !") << "'!' at offset 7";
    QTest::newRow("data after padding") << QByteArray("Zg==Zg==") << "'Z' at offset 4";
    QTest::newRow("padding too early") << QByteArray("Z===") << "'=' at offset 1";
    QTest::newRow("padding first") << QByteArray("====") << "'=' at offset 0";
    QTest::newRow("too much padding") << QByteArray("Zm8==") << "too much '=' padding at offset 4";
    QTest::newRow("short padding") << QByteArray("Zg=") << "padding at offset 2";
    QTest::newRow("missing padding") << QByteArray("Zm9vYg") << "without its '=' padding";
    QTest::newRow("lone last character") << QByteArray("Zm9vY") << "single character";
}

void TestWorkspace::base64BadInput() {
    QFETCH(QByteArray, input);
    QFETCH(QString, what);
    auto r = support::base64Decode(std::string(input.constData(), input.size()));
    QVERIFY(!r.ok());
    const QString m = qs(r.error().message);
    QVERIFY2(m.startsWith("invalid base64: "), qPrintable(m));
    QVERIFY2(m.contains(what), qPrintable(m));
}

// Variants load in linear time: comparing each variant's name with every earlier one's takes
// 47.9 s for 80,000 of them; pins are read by the same code. Measured against the same number of modules,
// whose load is linear (manyModulesLoadInLinearTime): a load of the same size and shape, so a
// busy machine slows both alike. 40,000 variants take about as long as 40,000 modules; when
// each name was compared with every earlier one, hundreds of times as long.
void TestWorkspace::manyVariantsLoadInLinearTime() {
    constexpr size_t n = 40000;
    nlohmann::json variants = nlohmann::json::array(), modules = nlohmann::json::array();
    for (size_t i = 0; i < n; ++i) {
        variants.push_back({{"name", fmt::format("variant {}", i)}, {"options", {{"opt", 0}}}});
        modules.push_back({{"name", fmt::format("module{}.ll", i)}, {"text", "; m\n"}});
    }
    const auto withVariants = nlohmann::json{
        {"format", "nvvm-playground-workspace"},
        {"version", 2},
        {"modules", nlohmann::json::array()},
        {"variants", variants}}.dump();
    const auto withModules =
        nlohmann::json{{"format", "nvvm-playground-workspace"}, {"version", 1}, {"modules", modules}}.dump();
    // The best of a few rounds of each, taken in turns.
    double variantSeconds = 1e9, moduleSeconds = 1e9;
    for (int round = 0; round < 3; ++round) {
        for (const bool ofVariants : {true, false}) {
            const auto start = std::chrono::steady_clock::now();
            auto r = workspace::parseWorkspace(ofVariants ? withVariants : withModules, "many.nvpg");
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            if (!r.ok()) qFatal("%s", r.error().message.c_str());
            if ((ofVariants ? r->variants.size() : r->modules.size()) != n) qFatal("not all %zu read", n);
            (ofVariants ? variantSeconds : moduleSeconds) =
                std::min(ofVariants ? variantSeconds : moduleSeconds, took.count());
        }
    }
    qInfo("40,000 variants: %.4f s; 40,000 modules: %.4f s (%.1fx)", variantSeconds, moduleSeconds,
          variantSeconds / moduleSeconds);
    QVERIFY2(
        variantSeconds < 10 * std::max(moduleSeconds, 1e-3),
        qPrintable(QString("40,000 variants took %1x as long as 40,000 modules").arg(variantSeconds / moduleSeconds)));
    // Two of one name are still refused, naming the first.
    const auto twice = workspace::parseWorkspace(
        R"({"format": "nvvm-playground-workspace", "version": 2, "modules": [], "variants": [{"name": "a"}, {"name": "b"}, {"name": "a"}]})",
        "twice.nvpg");
    QVERIFY(!twice.ok());
    QVERIFY2(twice.error().message.find("/variants/2/name") != std::string::npos &&
                 twice.error().message.find("already the name of /variants/0") != std::string::npos,
             twice.error().message.c_str());
}

// Pins (a result kept to compare with) and variants (another option set, maybe another toolkit)
// are saved with the workspace and come back as they were; a file with them is format version 2,
// one without them stays version 1, so that older builds still open it.
void TestWorkspace::pinsAndVariantsSurviveSaveAndReopen() {
    workspace::Workspace ws;
    ws.modules = {{"k.ll", "define void @k() {\n  ret void\n}\n", false}};
    QCOMPARE(nlohmann::json::parse(workspace::serializeWorkspace(ws))["version"].get<int>(), 1);
    workspace::Pin pin;
    pin.name = "before ftz";
    pin.pinned = "2026-12-02T18:40:12";
    pin.modules = {{"k.ll", "define void @k() {\n  ret void\n}\n; the pinned text\n", false},
                   {"b.bc", std::string("BC\xC0\xDE\x01\x02", 6), true}};
    pin.options.arch = "compute_90";
    pin.options.ftz = false;
    pin.libdevice = true;
    pin.toolkit = "/opt/site-packages/nvidia";
    pin.toolkitRelease = "12.9.86";
    pin.result = {{"ok", true}, {"arch", "compute_90"}, {"kernels", nlohmann::json::array()}};
    pin.outputs = {{"ptx", ".version 9.0\n"}, {"sass", "\tMOV R1, c[0x0][0x28] ;\n"}};
    ws.pins.push_back(pin);
    workspace::Variant v;
    v.name = "CUDA 12.9, ftz";
    v.options.ftz = true;
    v.options.arch = "compute_75";
    v.toolkit = "/opt/site-packages/nvidia";
    v.toolkitRelease = "12.9.86";
    ws.variants.push_back(v);
    workspace::Variant plain;
    plain.name = "opt 0";
    plain.options.opt = 0;
    ws.variants.push_back(plain);

    QTemporaryDir dir;
    const auto path = std::filesystem::path(dir.path().toStdString()) / "w.nvpg";
    QVERIFY(workspace::saveWorkspace(ws, path));
    QCOMPARE(nlohmann::json::parse(test::readText(path))["version"].get<int>(), 2);
    auto back = workspace::loadWorkspace(path);
    QVERIFY2(back, back ? "" : back.error().message.c_str());
    QCOMPARE(back->pins.size(), size_t(1));
    const auto& p = back->pins[0];
    QCOMPARE(p.name, pin.name);
    QCOMPARE(p.pinned, pin.pinned);
    QCOMPARE(p.modules.size(), size_t(2));
    QCOMPARE(p.modules[0].bytes, pin.modules[0].bytes);
    QCOMPARE(p.modules[1].bytes, pin.modules[1].bytes);
    QVERIFY(p.modules[1].lazy);
    QVERIFY(p.options == pin.options);
    QVERIFY(p.libdevice);
    QCOMPARE(p.toolkit, pin.toolkit);
    QCOMPARE(p.toolkitRelease, pin.toolkitRelease);
    QCOMPARE(p.result, pin.result);
    QVERIFY(p.outputs == pin.outputs);
    QCOMPARE(back->variants.size(), size_t(2));
    QCOMPARE(back->variants[0].name, v.name);
    QVERIFY(back->variants[0].options == v.options);
    QCOMPARE(back->variants[0].toolkit, v.toolkit);
    QCOMPARE(back->variants[0].toolkitRelease, v.toolkitRelease);
    QVERIFY(back->variants[1].toolkit.empty());
    QCOMPARE(*back->variants[1].options.opt, 0);
    // And it saves back the same.
    QCOMPARE(workspace::serializeWorkspace(*back), workspace::serializeWorkspace(ws));
}

void TestWorkspace::pinsAndVariantsAreChecked_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("pointer");
    QTest::addColumn<QString>("what");
    const QString head = R"({"format": "nvvm-playground-workspace", "version": 2, "modules": [], )";
    QTest::newRow("pins not a list") << head + R"("pins": {}})"
                                     << "/pins"
                                     << "expected an array";
    QTest::newRow("pin without a name") << head + R"("pins": [{"modules": [], "result": {}}]})"
                                        << "/pins/0/name"
                                        << "give it a name";
    QTest::newRow("pin without its result") << head + R"("pins": [{"name": "a", "modules": []}]})"
                                            << "/pins/0/result"
                                            << "keeps the result";
    QTest::newRow("pin with a bad option")
        << head + R"("pins": [{"name": "a", "modules": [], "options": {"ftz": 2}, "result": {}}]})"
        << "/pins/0/options/ftz"
        << "true or false";
    QTest::newRow("two variants of one name") << head + R"("variants": [{"name": "v"}, {"name": "v"}]})"
                                              << "/variants/1/name"
                                              << "already the name of /variants/0";
    QTest::newRow("variant toolkit not an object") << head + R"("variants": [{"name": "v", "toolkit": "/x"}]})"
                                                   << "/variants/0/toolkit"
                                                   << "\"path\"";
    QTest::newRow("variant with a bad opt") << head + R"("variants": [{"name": "v", "options": {"opt": 2}}]})"
                                            << "/variants/0/options/opt"
                                            << "0 or 3";
    QTest::newRow("variant modules not a list") << head + R"("variants": [{"name": "v", "modules": {}}]})"
                                                << "/variants/0/modules"
                                                << "expected an array";
    QTest::newRow("variant module without text")
        << head + R"("variants": [{"name": "v", "modules": [{"name": "k.ll"}]}]})"
        << "/variants/0/modules/0"
        << "neither \"text\" nor \"bitcode\"";
}

void TestWorkspace::pinsAndVariantsAreChecked() {
    QFETCH(QString, json);
    QFETCH(QString, pointer);
    QFETCH(QString, what);
    auto r = workspace::parseWorkspace(json.toStdString(), "p.nvpg");
    QVERIFY(!r.ok());
    const QString m = qs(r.error().message);
    QVERIFY2(m.startsWith("p.nvpg: " + pointer + ": "), qPrintable(m));
    QVERIFY2(m.contains(what), qPrintable(m));
}

// A variant of other modules (another version of the program's, read from files) keeps them in
// the file, which is then format version 4: a build that reads only version 3 would compile the
// workspace's modules for it, or drop them on its next save.
void TestWorkspace::aVariantOfOtherModulesIsVersion4() {
    workspace::Workspace ws;
    ws.modules = {{"k.ll", "define void @k() {\n  ret void\n}\n", false}};
    workspace::Variant v;
    v.name = "v2";
    v.options.opt = 0;
    v.modules = {{"k2.ll", "define void @k() {\n  ret void\n}\n; version 2\n", false},
                 {"b.bc", std::string("BC\xC0\xDE\x01\x02", 6), false}};
    ws.variants.push_back(v);
    const auto text = workspace::serializeWorkspace(ws);
    QCOMPARE(nlohmann::json::parse(text)["version"].get<int>(), 4);
    auto back = workspace::parseWorkspace(text, "v.nvpg");
    QVERIFY2(back, back ? "" : back.error().message.c_str());
    QCOMPARE(back->variants.size(), size_t(1));
    const auto& m = back->variants[0].modules;
    QCOMPARE(m.size(), size_t(2));
    QCOMPARE(m[0].name, std::string("k2.ll"));
    QCOMPARE(m[0].bytes, v.modules[0].bytes);
    QCOMPARE(m[1].bytes, v.modules[1].bytes);
    QCOMPARE(workspace::serializeWorkspace(*back), text);
    // Without other modules a variant is version 2 as before, and has no "modules" key.
    ws.variants[0].modules.clear();
    const auto plain = nlohmann::json::parse(workspace::serializeWorkspace(ws));
    QCOMPARE(plain["version"].get<int>(), 2);
    QVERIFY(!plain["variants"][0].contains("modules"));
    // A module of a variant is held to UTF-8 on save, as the workspace's are.
    ws.variants[0].modules = {{"bad.ll", "; \xff\n", false}};
    auto bytes = workspace::workspaceFileBytes(ws, "w.nvpg");
    QVERIFY(!bytes);
    QVERIFY2(bytes.error().message.find("module bad.ll of variant v2") != std::string::npos,
             bytes.error().message.c_str());
}

// nvpg's inputs and the app's "other modules" are read by one function: a workspace alone, or
// .ll/.bc modules named as given or by their file name; what is refused says which file and why.
void TestWorkspace::inputsAreReadAsNvpgReadsThem() {
    QTemporaryDir dir;
    const auto at = [&](const char* name) { return (std::filesystem::path(dir.path().toStdString()) / name).string(); };
    const std::string text = "define void @k() {\n  ret void\n}\n";
    QVERIFY(support::writeFileAtomic(at("a.ll"), text));
    QVERIFY(std::filesystem::create_directory(at("v2")));
    QVERIFY(support::writeFileAtomic(at("v2/a.ll"), text + "; v2\n"));
    QVERIFY(support::writeFileAtomic(at("fake.bc"), text));
    QVERIFY(support::writeFileAtomic(at("notes.txt"), "x"));

    auto given = workspace::readInputs({at("a.ll")});
    QVERIFY2(given, given ? "" : given.error().message.c_str());
    QCOMPARE(given->modules.size(), size_t(1));
    QCOMPARE(given->modules[0].name, at("a.ll"));
    QCOMPARE(given->modules[0].bytes, text);
    QVERIFY(!given->workspace);
    auto named = workspace::readInputs({at("v2/a.ll")}, workspace::ModuleNaming::FileName);
    QVERIFY(named);
    QCOMPARE(named->modules[0].name, std::string("a.ll"));
    QCOMPARE(named->names, std::vector<std::string>{"a.ll"});

    // Two files of one name are two modules of one name only when named by file name.
    auto twice = workspace::readInputs({at("a.ll"), at("v2/a.ll")}, workspace::ModuleNaming::FileName);
    QVERIFY(!twice);
    QVERIFY2(twice.error().message.find("also named a.ll") != std::string::npos, twice.error().message.c_str());
    QVERIFY(workspace::readInputs({at("a.ll"), at("v2/a.ll")}));

    auto fake = workspace::readInputs({at("fake.bc")});
    QVERIFY(!fake);
    QVERIFY2(fake.error().message.find("fake.bc: named .bc but does not start with bitcode magic") != std::string::npos,
             fake.error().message.c_str());
    auto other = workspace::readInputs({at("notes.txt")});
    QVERIFY(!other);
    QVERIFY2(other.error().message.find("expected a .ll (text) or .bc (bitcode) module") != std::string::npos,
             other.error().message.c_str());
    auto missing = workspace::readInputs({at("gone.ll")});
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.find("gone.ll") != std::string::npos, missing.error().message.c_str());

    workspace::Workspace ws;
    ws.modules = {{"k.ll", text, false}, {"m.ll", text, false}};
    ws.options.opt = 0;
    QVERIFY(workspace::saveWorkspace(ws, at("w.nvpg")));
    auto fromWs = workspace::readInputs({at("w.nvpg")});
    QVERIFY(fromWs && fromWs->workspace);
    QCOMPARE(fromWs->names, (std::vector<std::string>{"k.ll", "m.ll"}));
    QCOMPARE(*fromWs->workspace->options.opt, 0);
    auto mixed = workspace::readInputs({at("w.nvpg"), at("a.ll")});
    QVERIFY(!mixed);
    QVERIFY2(mixed.error().message.find("a workspace is used alone") != std::string::npos,
             mixed.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
