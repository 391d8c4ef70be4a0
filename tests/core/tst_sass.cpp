// SASS through the real nvdisasm (the toolkit's, or the pip wheel's that ctest's nvdisasm_wheel
// set-up installs): the same instructions with and without -lineinfo, -g marks that name real IR
// lines, per-function counts, the SASS map, and the pipeline's plain SASS output. Every test here
// needs nvdisasm, so that without it (no network for the wheel) ctest lists the suite as skipped.
#include <QtTest>

#include <optional>

#include <algorithm>
#include <set>

#include "TestSupport.h"
#include "core/inspect/Sass.h"
#include "core/inspect/SassView.h"
#include "core/nvvm/Program.h"
#include "core/pipeline/Pipeline.h"
#include "core/ptx/Ptxas.h"
#include "core/support/Files.h"
#include "core/support/Process.h"
#include "core/support/Text.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

constexpr const char* kFixture = "saxpy-lineinfo.ll";

std::string compilePtx(const nvvm::Module& module, bool lineInfo) {
    auto program = nvvm::Program::create(test::realToolkit()->nvvm());
    if (!program) qFatal("%s", program.error().message.c_str());
    if (!(*program)->addModule(module)) qFatal("cannot add %s", module.name.c_str());
    nvvm::Options options;
    options.arch = "compute_90";
    if (lineInfo) options.extraFlags = {"-generate-line-info"};
    auto out = (*program)->compile(options);
    if (!out.ok) qFatal("%s", out.log.c_str());
    return out.result;
}

std::string cubinOf(const std::string& ptx, bool lineInfo) {
    const auto* ptxas = test::realToolkit()->ptxas();
    if (!ptxas) qFatal("no ptxas: %s", test::realToolkit()->ptxasReport().problem.c_str());
    auto a = ptx::assembleWholeProgram(*ptxas, ptx, "sm_90",
                                       lineInfo ? std::vector<std::string>{"-lineinfo"} : std::vector<std::string>{});
    if (!a.ok) qFatal("%s", a.error.c_str());
    return a.cubin;
}

// The fixture's plain SASS (its PTX without -generate-line-info, ptxas without -lineinfo,
// nvdisasm -c) and its line-annotated twin's (all three with line info, nvdisasm -c -g).
struct Listings {
    std::string plain, twin;
};
// Made once per run: the four tests that read them need the same ones.
const Listings& fixtureListings(const fs::path& nvdisasm, const nvvm::Module& module) {
    static const Listings made = [&] {
        auto plain = inspect::disassemble(nvdisasm, cubinOf(compilePtx(module, false), false), inspect::Listing::Plain);
        auto twin = inspect::disassemble(nvdisasm, cubinOf(compilePtx(module, true), true), inspect::Listing::LineInfo);
        if (!plain.ok) qFatal("%s", plain.error.c_str());
        if (!twin.ok) qFatal("%s", twin.error.c_str());
        return Listings{plain.text, twin.text};
    }();
    return made;
}

// The fixture's lines that hold an instruction (each carries its own line as !dbg); with
// `defines`, its define lines too, which are its DISubprograms' lines (a function's prologue).
std::vector<int> instructionLines(const std::string& text, bool defines = false) {
    std::vector<int> lines;
    int n = 0;
    for (auto line : support::splitLines(text)) {
        ++n;
        if ((support::startsWith(line, "  ") && line.find(", !dbg !") != std::string_view::npos) ||
            (defines && support::startsWith(line, "define ")))
            lines.push_back(n);
    }
    return lines;
}

}  // namespace

class TestSass : public QObject {
    Q_OBJECT

private slots:
    void nvdisasmIsFoundAndReported() {
        NEED_NVDISASM(nvdisasm);
        const auto& report = test::realToolkit()->nvdisasmReport();
        QVERIFY(report.found);
        QCOMPARE(report.path, nvdisasm);
        QVERIFY(fs::exists(nvdisasm));
        QVERIFY2(support::startsWith(report.via, "via ") || report.via == "beside libNVVM", report.via.c_str());
        QVERIFY2(!report.version.empty() && std::isdigit(static_cast<unsigned char>(report.version[0])),
                 report.version.c_str());  // "13.2.51"
        bool listed = false;
        for (const auto& r : test::realToolkit()->reports()) listed = listed || (r.name == "nvdisasm" && r.found);
        QVERIFY(listed);
    }

    void lineInfoKeepsTheSameInstructions() {
        NEED_NVDISASM(nvdisasm);
        const auto module = test::irFixture(kFixture);
        const auto& [plainText, twinText] = fixtureListings(nvdisasm, module);
        QVERIFY(plainText.find("//## File") == std::string::npos);
        QVERIFY(twinText.find("//## File \"saxpy-lineinfo.ll\", line ") != std::string::npos);
        const auto plain = inspect::readSass(plainText);
        const auto twin = inspect::readSass(twinText);
        QVERIFY(plain.instructions.size() >= 10);
        QCOMPARE(twin.instructions.size(), plain.instructions.size());
        for (size_t i = 0; i < plain.instructions.size(); ++i) {
            QCOMPARE(QString::fromStdString(twin.instructions[i].code),
                     QString::fromStdString(plain.instructions[i].code));
            QCOMPARE(twin.instructions[i].function, plain.instructions[i].function);
            QVERIFY(plain.instructions[i].file.empty());
        }
        // The marks name real lines of the fixture: lines that hold an instruction, or a define's.
        const auto lines = instructionLines(module.bytes, /*defines=*/true);
        const auto instructions = instructionLines(module.bytes);
        std::set<int> marked;
        for (const auto& in : twin.instructions) {
            if (in.file.empty()) continue;
            QCOMPARE(in.file, std::string(kFixture));
            QVERIFY2(std::count(lines.begin(), lines.end(), in.sourceLine) == 1,
                     qPrintable(QString("line %1 holds no instruction").arg(in.sourceLine)));
            if (std::count(instructions.begin(), instructions.end(), in.sourceLine)) marked.insert(in.sourceLine);
        }
        QVERIFY2(marked.size() >= 4, qPrintable(QString("%1 instruction lines marked").arg(marked.size())));
        // The code without address or ';': "IMAD.WIDE R2, R0, R5, c[0x0][0x210]".
        for (const auto& in : plain.instructions) {
            QVERIFY(!in.code.empty());
            QVERIFY2(in.code.find("/*") == std::string::npos && in.code.back() != ';', in.code.c_str());
        }
    }

    void functionsAreCountedWithoutPadding() {
        NEED_NVDISASM(nvdisasm);
        const auto& [plainText, twinText] = fixtureListings(nvdisasm, test::irFixture(kFixture));
        const auto listing = inspect::readSass(plainText);
        QCOMPARE(listing.functions.size(), size_t(2));  // the kernel, and the noinline device function
        const auto entry =
            std::find_if(listing.functions.begin(), listing.functions.end(), [](const auto& f) { return f.isEntry; });
        QVERIFY(entry != listing.functions.end());
        QCOMPARE(entry->name, std::string("saxpy"));
        const auto& helper = listing.functions[entry == listing.functions.begin() ? 1 : 0];
        QVERIFY(!helper.isEntry);
        QVERIFY2(helper.name.find("axpy") != std::string::npos, helper.name.c_str());
        int counted = 0, padding = 0;
        for (const auto& f : listing.functions) {
            QVERIFY2(f.instructions > 0, f.name.c_str());
            counted += f.instructions;
        }
        for (const auto& in : listing.instructions) padding += in.code == "NOP" ? 1 : 0;
        // The section's closing NOPs (and its branch to itself) are listed but not counted.
        QVERIFY(padding > 0);
        QVERIFY(counted <= int(listing.instructions.size()) - padding);
        QVERIFY(counted >= int(listing.instructions.size()) - padding - 1);
        bool exits = false;
        for (const auto& in : listing.instructions) exits = exits || (in.function == "saxpy" && in.code == "EXIT");
        QVERIFY(exits);
    }

    void mapSassGivesEachInstructionItsIrLine() {
        NEED_NVDISASM(nvdisasm);
        const auto module = test::irFixture(kFixture);
        const auto& [plainText, twinText] = fixtureListings(nvdisasm, module);
        const std::vector<inspect::MappedModule> modules = {{kFixture, "", instructionLines(module.bytes)}};
        const auto map = inspect::mapSass(plainText, twinText, modules);
        qInfo("%zu SASS instructions; %zu IR lines mapped", inspect::readSass(plainText).instructions.size(),
              map.lines.size());
        QVERIFY2(map.available(), map.unavailable.c_str());
        QCOMPARE(map.origin.size(), support::splitLines(plainText).size());
        const auto plain = inspect::readSass(plainText);
        const auto twin = inspect::readSass(twinText);
        int mapped = 0;
        for (size_t i = 0; i < plain.instructions.size(); ++i) {
            const auto origin = map.originOf(plain.instructions[i].line);
            if (twin.instructions[i].file.empty()) {
                QCOMPARE(origin.module, -1);
                continue;
            }
            QCOMPARE(origin.module, 0);
            QCOMPARE(origin.line, twin.instructions[i].sourceLine);
            ++mapped;
        }
        QVERIFY(mapped >= 4);
        QVERIFY(!map.lines.empty());
        for (const auto& l : map.lines) {
            QCOMPARE(l.module, std::string(kFixture));
            QVERIFY(!l.ranges.empty());
            for (const auto& r : l.ranges) {
                // Each range is of instruction lines of the plain listing that came from that line.
                QVERIFY(r.first >= 1 && r.first <= r.last && r.last <= int(map.origin.size()));
                QCOMPARE(map.originOf(r.first).line, l.line);
            }
        }
        // A line with no instructions in the listing (a directive) maps to nothing.
        QCOMPARE(map.originOf(1).module, -1);
    }

    void mapSassIsUnavailableWhenTheStreamsDiffer() {
        NEED_NVDISASM(nvdisasm);
        const auto module = test::irFixture(kFixture);
        const auto& [plainText, twinText] = fixtureListings(nvdisasm, module);
        const std::vector<inspect::MappedModule> modules = {{kFixture, "", instructionLines(module.bytes)}};
        // Other code: the saxpy example's listing (no device function) as the "twin".
        const nvvm::Module example{"saxpy.ll", test::readText(test::examplesDir() / "src/saxpy/saxpy.ll"), false};
        auto other =
            inspect::disassemble(nvdisasm, cubinOf(compilePtx(example, false), false), inspect::Listing::Plain);
        QVERIFY2(other.ok, other.error.c_str());
        const auto differ = inspect::mapSass(plainText, other.text, modules);
        QVERIFY(!differ.available());
        QVERIFY2(differ.unavailable.find("first difference at instruction") != std::string::npos,
                 differ.unavailable.c_str());
        QVERIFY(differ.origin.empty() && differ.lines.empty());
        // The same instructions but one fewer at the end.
        auto lines = support::splitLines(twinText);
        std::string cut;
        bool dropped = false;
        for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
            if (!dropped && support::trim(*it).rfind("/*", 0) == 0) {
                dropped = true;
                continue;
            }
            cut = std::string(*it) + "\n" + cut;
        }
        const auto shorter = inspect::mapSass(plainText, cut, modules);
        QVERIFY(!shorter.available());
        QVERIFY2(shorter.unavailable.find(" instructions vs ") != std::string::npos, shorter.unavailable.c_str());
    }

    // The SASS pane's compact view of a real listing: every instruction row shows its instruction
    // from the first column, its offset beside it (the margin), and the view's lines lead back to
    // the listing's; nvdisasm's indentation and encodings are gone, labels and directives stay.
    void compactViewShowsEachInstructionFromTheFirstColumn() {
        NEED_NVDISASM(nvdisasm);
        const auto& [plainText, twinText] = fixtureListings(nvdisasm, test::irFixture(kFixture));
        const auto listing = inspect::readSass(plainText);
        const auto listingLines = support::splitLines(plainText);
        const auto view = inspect::compactSass(plainText);
        const auto shown = support::splitLines(view.text);
        QCOMPARE(shown.size(), view.listingLines.size());
        QCOMPARE(view.offsets.size(), view.listingLines.size());
        QCOMPARE(view.shownOf.size(), listingLines.size());
        for (const auto& in : listing.instructions) {
            const int at = view.shownLine(in.line);
            QVERIFY2(at >= 1, qPrintable(QString("listing line %1 is not shown").arg(in.line)));
            const std::string_view text = shown[size_t(at - 1)];
            QCOMPARE(view.listingLines[size_t(at - 1)], in.line);
            // "@P0 EXIT ;", "IMAD.WIDE R2, R0, R5, c[0x0][0x210] ;": the code with its ';', nothing before.
            QCOMPARE(std::string(support::trim(text.substr(0, text.size() - 1))), in.code);
            QVERIFY2(text.back() == ';' && !std::isspace(static_cast<unsigned char>(text[0])),
                     std::string(text).c_str());
            // The offset is the listing's "/*0070*/".
            const auto raw = support::trim(listingLines[size_t(in.line - 1)]);
            QCOMPARE("/*" + view.offsets[size_t(at - 1)] + "*/", std::string(raw.substr(0, raw.find("*/") + 2)));
        }
        // Only instruction rows have an offset, and every shown line starts where a reader looks.
        size_t withOffset = 0;
        for (size_t i = 0; i < shown.size(); ++i) {
            withOffset += view.offsets[i].empty() ? 0 : 1;
            QVERIFY2(shown[i].empty() || !std::isspace(static_cast<unsigned char>(shown[i][0])),
                     std::string(shown[i]).c_str());
        }
        QCOMPARE(withOffset, listing.instructions.size());
        QVERIFY(view.text.find(".text.saxpy:") != std::string::npos);  // the kernel's label
        QVERIFY(view.text.find("\n.type saxpy,@function\n") != std::string::npos);
        QVERIFY(shown.size() < listingLines.size());  // the listing's runs of blank lines are one
    }

    // nvdisasm -hex writes each instruction's encoding beside it and its second word on a line
    // of its own: the compact view shows neither, and the same instructions.
    void compactViewLeavesEncodingsAndControlCodesOut() {
        NEED_NVDISASM(nvdisasm);
        const auto cubin = cubinOf(compilePtx(test::irFixture(kFixture), false), false);
        QTemporaryDir dir;
        const auto path = fs::path(dir.path().toStdString()) / "p.cubin";
        QVERIFY(support::writeFileAtomic(path, cubin));
        const auto hex = support::runProcess({nvdisasm.string(), "-c", "-hex", path.string()}, size_t(64) << 20);
        QCOMPARE(hex.status, 0);
        QVERIFY(hex.output.find("/* 0x") != std::string::npos);
        const auto plain = inspect::disassemble(nvdisasm, cubin, inspect::Listing::Plain);
        QVERIFY(plain.ok);
        const auto hexView = inspect::compactSass(hex.output);
        QCOMPARE(QString::fromStdString(hexView.text), QString::fromStdString(inspect::compactSass(plain.text).text));
        QVERIFY(hexView.text.find("/* 0x") == std::string::npos);
        // An encoding's second line is shown with its instruction: it leads to the row above.
        const auto lines = support::splitLines(hex.output);
        for (size_t i = 1; i < lines.size(); ++i)
            if (inspect::splitSassRow(lines[i]).kind == inspect::SassRow::Kind::Detail &&
                inspect::splitSassRow(lines[i - 1]).kind == inspect::SassRow::Kind::Instruction)
                QCOMPARE(hexView.shownLine(int(i) + 1), hexView.shownLine(int(i)));
        // Control codes among the operands are details, not the instruction.
        const auto row = inspect::splitSassRow(
            "        /*0040*/   @!P0 LDG.E R5, desc[UR4][R8.64] &wr=0x2 ?trans1 ;  /* 0x0000000408057981 */");
        QCOMPARE(row.kind, inspect::SassRow::Kind::Instruction);
        QCOMPARE(row.offset, std::string("0040"));
        QCOMPARE(row.instruction, std::string("@!P0 LDG.E R5, desc[UR4][R8.64] ;"));
        QCOMPARE(row.details, std::string("&wr=0x2 ?trans1 /* 0x0000000408057981 */"));
    }

    // A line map selection lands on the same instruction in the view as in the listing.
    void mapThroughTheViewMarksTheSameInstructions() {
        NEED_NVDISASM(nvdisasm);
        const auto module = test::irFixture(kFixture);
        const auto& [plainText, twinText] = fixtureListings(nvdisasm, module);
        const std::vector<inspect::MappedModule> modules = {{kFixture, "", instructionLines(module.bytes)}};
        const auto map = inspect::mapSass(plainText, twinText, modules);
        QVERIFY2(map.available(), map.unavailable.c_str());
        const auto view = inspect::compactSass(plainText);
        const auto shownMap = inspect::mapThroughView(map, view, modules);
        QVERIFY(shownMap.available());
        QCOMPARE(shownMap.origin.size(), view.listingLines.size());
        const auto listing = support::splitLines(plainText);
        const auto shown = support::splitLines(view.text);
        QCOMPARE(shownMap.lines.size(), map.lines.size());
        int compared = 0;
        for (const auto& l : map.lines) {
            std::vector<std::string> inListing, inView;
            for (const auto& r : l.ranges)
                for (int line = r.first; line <= r.last; ++line)
                    inListing.push_back(inspect::splitSassRow(listing[size_t(line - 1)]).instruction);
            for (const auto& r : shownMap.rangesOf(kFixture, l.line))
                for (int line = r.first; line <= r.last; ++line) inView.push_back(std::string(shown[size_t(line - 1)]));
            QCOMPARE(inView, inListing);
            compared += int(inView.size());
        }
        QVERIFY(compared >= 4);
        // Not available stays not available, with its reason.
        inspect::OutputMap none;
        none.unavailable = "differs";
        QCOMPARE(inspect::mapThroughView(none, view, modules).unavailable, std::string("differs"));
    }

    void disassembleSaysWhatFailedAndLeavesNothingBehind() {
        NEED_NVDISASM(nvdisasm);
        QTemporaryDir tmp;
        const auto saved = qgetenv("TMPDIR");
        qputenv("TMPDIR", tmp.path().toUtf8());
        auto bad = inspect::disassemble(nvdisasm, "not a cubin", inspect::Listing::Plain);
        auto good = inspect::disassemble(nvdisasm, cubinOf(compilePtx(test::irFixture(kFixture), true), true),
                                         inspect::Listing::LineInfo);
        if (saved.isNull())
            qunsetenv("TMPDIR");
        else
            qputenv("TMPDIR", saved);
        QVERIFY(!bad.ok);
        QCOMPARE(bad.command, std::string("nvdisasm -c"));
        QVERIFY2(bad.error.find("nvdisasm -c failed") != std::string::npos, bad.error.c_str());
        QVERIFY(good.ok);
        QCOMPARE(good.command, std::string("nvdisasm -c -g"));
        QVERIFY(good.seconds > 0);
        QVERIFY(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
    }

    void pipelineSassIsOfTheCubinTheJobEndsWith() {
        NEED_NVDISASM(nvdisasm);
        (void)nvdisasm;
        pipeline::Pipeline p(test::realToolkit());
        pipeline::Job job;
        job.modules = {{"saxpy.ll", test::readText(test::examplesDir() / "src/saxpy/saxpy.ll"), false}};
        job.options.arch = "compute_90";
        // Without LTO: ptxas' whole-program cubin of the PTX, assembled once for figures and SASS.
        job.outputs = pipeline::kPtx | pipeline::kFigures | pipeline::kSass;
        // The plain result is heard before nvdisasm runs (half a second, mostly its start-up):
        // the PTX waits for no SASS.
        std::optional<pipeline::CompileResult> plain;
        bool disassembledBeforePlain = false;
        auto r = p.run(
            job,
            [&](const pipeline::StageEvent& e) {
                if (e.id == pipeline::StageId::Disassemble && !plain) disassembledBeforePlain = true;
            },
            [&](const pipeline::CompileResult& heard) { plain = heard; });
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(plain && !disassembledBeforePlain);
        QVERIFY(plain->sassPending && plain->sass.empty() && plain->sassUnavailable.empty());
        QCOMPARE(plain->ptx, r->ptx);
        QVERIFY(!r->sassPending);
        QVERIFY2(r->sassUnavailable.empty(), r->sassUnavailable.c_str());
        QVERIFY(r->sass.find(".text.saxpy") != std::string::npos);
        QCOMPARE(
            QString::fromStdString(r->sassSource),
            QString("nvdisasm -c of the PTX's whole-program cubin (ptxas -arch=sm_90 -v, as the driver loads PTX)"));
        QCOMPARE(r->sassFunctions.size(), size_t(1));
        QCOMPARE(r->sassFunctions[0].name, std::string("saxpy"));
        QVERIFY(r->sassFunctions[0].isEntry);
        QCOMPARE(r->sassFunctions[0].instructions, [&] {
            int n = 0;
            for (const auto& f : inspect::readSass(r->sass).functions) n += f.instructions;
            return n;
        }());
        QVERIFY(r->sassFunctions[0].instructions > 5);
        int assembled = 0;
        for (const auto& s : r->stages) assembled += s.id == pipeline::StageId::AssembleCubin ? 1 : 0;
        QCOMPARE(assembled, 1);
        QVERIFY(r->findStage(pipeline::StageId::Disassemble));
        QVERIFY(!r->ptxFigures.functions.empty());  // the figures still come from that assembly

        // SASS alone: the PTX is compiled and assembled for it, and nothing else is made.
        job.outputs = pipeline::kSass;
        auto alone = p.run(job);
        QVERIFY(alone && alone->sassUnavailable.empty());
        QCOMPARE(alone->sass, r->sass);
        QVERIFY(alone->ptxFigures.source.empty());

        // With LTO: the LTO link's cubin, linked for the SASS though the cubin was not asked for.
        job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kSass;
        auto lto = p.run(job);
        QVERIFY2(lto, lto ? "" : lto.error().message.c_str());
        QVERIFY2(lto->sassUnavailable.empty(), lto->sassUnavailable.c_str());
        QVERIFY2(
            support::startsWith(lto->sassSource, "nvdisasm -c of the LTO-linked cubin (nvJitLink -arch=sm_90 -lto"),
            lto->sassSource.c_str());
        QVERIFY(lto->findStage(pipeline::StageId::LinkLtoCubin));
        QVERIFY(lto->cubin.empty());
        QVERIFY(lto->sass.find(".text.saxpy") != std::string::npos);
        QCOMPARE(lto->sassFunctions.size(), size_t(1));
        QVERIFY(lto->sassFunctions[0].isEntry);

        // Without kSass nothing is disassembled.
        job.outputs = pipeline::kPtx | pipeline::kFigures;
        auto none = p.run(job);
        QVERIFY(none && none->sass.empty() && none->sassUnavailable.empty());
        QVERIFY(!none->findStage(pipeline::StageId::Disassemble));
    }
};

QTEST_GUILESS_MAIN(TestSass)
#include "tst_sass.moc"
