// support/: atomic file writes, the text helpers messages rely on, the unified diff, the thread pool.
#include <QtTest>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "core/support/Diff.h"
#include "core/support/Files.h"
#include "core/support/Symbols.h"
#include "core/support/Text.h"
#include "core/support/ThreadPool.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

std::string numbered(int from, int to) {
    std::string s;
    for (int i = from; i <= to; ++i) s += "line" + std::to_string(i) + "\n";
    return s;
}

// What the system's `diff -u` says about the two texts, without its two header lines (they
// carry file times).
std::string systemDiff(const std::string& a, const std::string& b) {
    QTemporaryDir dir;
    const auto pa = fs::path(dir.path().toStdString()) / "a";
    const auto pb = fs::path(dir.path().toStdString()) / "b";
    std::ofstream(pa, std::ios::binary) << a;
    std::ofstream(pb, std::ios::binary) << b;
    const std::string cmd = "diff -u '" + pa.string() + "' '" + pb.string() + "'";
    std::string out;
    if (FILE* p = ::popen(cmd.c_str(), "r")) {
        char buf[4096];
        for (size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
        ::pclose(p);
    }
    for (int header = 0; header < 2 && !out.empty(); ++header) out.erase(0, out.find('\n') + 1);
    return out;
}

}  // namespace

class TestSupport : public QObject {
    Q_OBJECT

private slots:
    void atomicWriteReplacesTheFileAndLeavesNoTemporary() {
        QTemporaryDir dir;
        const fs::path p = fs::path(dir.path().toStdString()) / "out.txt";
        std::ofstream(p) << "old";
        QVERIFY(support::writeFileAtomic(p, "new contents"));
        QCOMPARE(*support::readFile(p), std::string("new contents"));
        int files = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator(p.parent_path())) ++files;
        QCOMPARE(files, 1);
    }

    void atomicWriteFollowsASymlink() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        std::ofstream(d / "real.ptx") << "old";
        fs::create_symlink(d / "real.ptx", d / "link.ptx");
        QVERIFY(support::writeFileAtomic(d / "link.ptx", "new"));
        QVERIFY(fs::is_symlink(d / "link.ptx"));  // still a link
        QCOMPARE(*support::readFile(d / "real.ptx"), std::string("new"));
    }

    void writingToDevNullKeepsTheDevice() {
        QVERIFY(support::writeFileAtomic("/dev/null", "discarded"));
        QVERIFY(fs::is_character_file("/dev/null"));
    }

    void writeErrorNamesTheFile() {
        const auto st = support::writeFileAtomic("/nonexistent-dir/x.ptx", "x");
        QVERIFY(!st);
        QVERIFY(st.error().message.find("/nonexistent-dir/x.ptx") != std::string::npos);
    }

    void readErrorNamesTheFile() {
        const auto r = support::readFile("/nonexistent-dir/x.ll");
        QVERIFY(!r);
        QVERIFY(r.error().message.find("/nonexistent-dir/x.ll") != std::string::npos);
    }

    void textHelpers() {
        QCOMPARE(support::joinOr({"a", "b", "c"}), std::string("a, b or c"));
        QCOMPARE(support::joinOr({"a"}), std::string("a"));
        QCOMPARE(int(support::splitLines("a\r\nb\n\nc\n").size()), 4);
        long long n = 0;
        QVERIFY(support::parseInt("-12", n) && n == -12);
        QVERIFY(!support::parseInt("12x", n));
        QCOMPARE(support::trim("  x \n"), std::string_view("x"));
    }

    // Line N of a text as an editor shows it, which the line map's numbers count by: a final
    // newline starts no extra line, an empty text has none, a lone newline one empty line.
    // What a fix's text edit and the PTX readers keep: every line with its own end, CRLF too,
    // and a last line without one; together they are the text byte for byte.
    void linesWithBreaksKeepTheTextExactly() {
        using Lines = std::vector<std::string_view>;
        QCOMPARE(support::linesWithBreaks("a\r\nb\n\nc"), (Lines{"a\r\n", "b\n", "\n", "c"}));
        QCOMPARE(support::linesWithBreaks(""), Lines{});
        std::string back;
        for (auto l : support::linesWithBreaks("x\ny\r\n")) back += l;
        QCOMPARE(back, std::string("x\ny\r\n"));
    }

    void splitLinesNumbersLinesAsAnEditorDoes() {
        using Lines = std::vector<std::string_view>;
        QCOMPARE(support::splitLines("a\nb"), (Lines{"a", "b"}));
        QCOMPARE(support::splitLines("a\nb\n"), (Lines{"a", "b"}));
        QCOMPARE(support::splitLines(""), Lines{});
        QCOMPARE(support::splitLines("\n"), (Lines{""}));
        QCOMPARE(support::splitLines("a\r\n\nb"), (Lines{"a", "", "b"}));
    }

    // The one escaping of names for terminals, and the check behind refusing them.
    void printableEscapesWhatDrivesATerminal() {
        QCOMPARE(support::printable("k\x1b]0;t\a\x1b[2J.ll"), std::string(R"(k\x1b]0;t\x07\x1b[2J.ll)"));
        QCOMPARE(support::printable("a\nb\tc\rd"), std::string(R"(a\nb\tc\rd)"));
        QCOMPARE(support::printable("a\nb\tc\rd", true), std::string("a\nb\tc\\rd"));
        QCOMPARE(support::printable(std::string("x\0y", 3)), std::string(R"(x\x00y)"));
        QCOMPARE(support::printable("\x7f \xc2\x85 \xc2\x9b \xe2\x80\xae"),
                 std::string(R"(\x7f \u0085 \u009b \u202e)"));
        QCOMPARE(support::printable("\xff\xc3"), std::string(R"(\xff\xc3)"));  // not UTF-8
        QCOMPARE(support::printable("ядро ✓ \\ \"q\""), std::string("ядро ✓ \\ \"q\""));
        QCOMPARE(support::firstControlCharacter("ok ✓.ll"), std::optional<size_t>());
        QCOMPARE(support::firstControlCharacter("ab\xc2\x85"), std::optional<size_t>(2));
        QCOMPARE(support::firstControlCharacter("\xff\x1b"), std::optional<size_t>(1));
        QCOMPARE(support::firstNonUtf8("ok\xed\xa0\x80"), std::optional<size_t>(2));  // a surrogate
    }

    void unifiedDiffMatchesDiffU_data() {
        QTest::addColumn<QByteArray>("before");
        QTest::addColumn<QByteArray>("after");
        const std::string base = numbered(1, 20);
        auto row = [](const char* name, const std::string& a, const std::string& b) {
            QTest::newRow(name) << QByteArray::fromStdString(a) << QByteArray::fromStdString(b);
        };
        row("identical", base, base);
        row("insert in the middle", base, numbered(1, 10) + "new\n" + numbered(11, 20));
        row("delete in the middle", base, numbered(1, 9) + numbered(11, 20));
        row("change at the start", base, "first\n" + numbered(2, 20));
        row("change at the end", base, numbered(1, 19) + "last\n");
        row("insert at the start", base, "zero\n" + base);
        row("append", base, base + "line21\n");
        row("two changes in one hunk", base, numbered(1, 4) + "x\n" + numbered(6, 10) + "y\n" + numbered(12, 20));
        row("two hunks", base, numbered(1, 2) + "x\n" + numbered(4, 16) + "y\n" + numbered(18, 20));
        row("a change of several lines", base, numbered(1, 7) + "p\nq\nr\n" + numbered(12, 20));
        row("from empty", "", "a\nb\n");
        row("to empty", "a\nb\n", "");
        row("one line changed", "a\n", "b\n");
        row("no newline at the end, after", base, base.substr(0, base.size() - 1));
        row("no newline at the end, before", base.substr(0, base.size() - 1), base);
        row("no newline at the end of either", "a\nb", "a\nc");
    }

    void unifiedDiffMatchesDiffU() {
        QFETCH(QByteArray, before);
        QFETCH(QByteArray, after);
        const auto d = support::unifiedDiff(before.toStdString(), after.toStdString(), "a", "b");
        const std::string expected = systemDiff(before.toStdString(), after.toStdString());
        if (expected.empty()) {
            QCOMPARE(d.text, std::string());
            QCOMPARE(d.hunks, 0);
            return;
        }
        QVERIFY2(support::startsWith(d.text, "--- a\n+++ b\n"), d.text.c_str());
        QCOMPARE(d.text.substr(d.text.find("\n@@") + 1), expected);
    }

    void unifiedDiffNumbersItsHunks() {
        std::string a = numbered(1, 20), b = a;
        b.replace(b.find("line5\n"), 6, "");
        b += "line21\n";
        const auto d = support::unifiedDiff(a, b, "a", "b");
        QCOMPARE(d.added, 1);
        QCOMPARE(d.removed, 1);
        QCOMPARE(d.hunks, 2);
        QVERIFY2(support::startsWith(d.text, "--- a\n+++ b\n"), d.text.c_str());
        QVERIFY2(d.text.find("@@ -2,7 +2,6 @@\n line2\n line3\n line4\n-line5\n line6\n") != std::string::npos,
                 d.text.c_str());
        QVERIFY2(d.text.find("@@ -18,3 +17,4 @@\n line18\n line19\n line20\n+line21\n") != std::string::npos,
                 d.text.c_str());
        QVERIFY(support::unifiedDiff(a, a, "a", "b").text.empty());
    }

    void numbaKernelNamesAreDemangledWithoutAbiTags() {
        // A kernel name exactly as numba-cuda 0.30 writes it (tests/data/numba/math_kernel.ll).
        const std::string numba =
            "_ZN8__main__11math_kernelB2v2B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVh"
            "oqlspQGNFHSgJ5BnXagIAE5ArrayIfLi1E1C7mutable7alignedE5ArrayIfLi1E1C7mutable7alignedE";
        QCOMPARE(nvpg::support::readableName(numba),
                 std::string("__main__::math_kernel(Array<float, 1, C, mutable, aligned>, "
                             "Array<float, 1, C, mutable, aligned>)"));
        QVERIFY(nvpg::support::demangle(numba)->find("[abi:v2]") != std::string::npos);
        // The toggle: the symbol as the PTX has it.
        QCOMPARE(nvpg::support::readableName(numba, true), numba);
        // C names and text that is not a mangled name are shown as they are.
        QCOMPARE(nvpg::support::readableName("saxpy"), std::string("saxpy"));
        QCOMPARE(nvpg::support::readableName("_Z"), std::string("_Z"));
        QCOMPARE(nvpg::support::readableName("_Zgarbage!"), std::string("_Zgarbage!"));
        QVERIFY(!nvpg::support::demangle("__nv_sinf"));
        // A function ptxas keeps local to the kernel, as nvdisasm names it in numba's SASS.
        QCOMPARE(nvpg::support::readableName("$" + numba + "$__internal_accurate_pow"),
                 "__internal_accurate_pow (in " + nvpg::support::readableName(numba) + ")");
        QCOMPARE(nvpg::support::readableName("$x$"), std::string("$x$"));
    }

    void longNamesAreElidedInTheMiddle() {
        using nvpg::support::elideMiddle;
        QCOMPARE(elideMiddle("saxpy", 10), std::string("saxpy"));
        QCOMPARE(elideMiddle("abcdefghij", 10), std::string("abcdefghij"));
        const auto cut = elideMiddle("__main__::math_kernel(Array<float>, Array<float>)", 20);
        QCOMPARE(nvpg::support::displayWidth(cut), size_t(20));
        QVERIFY(cut.starts_with("__main__::"));
        QVERIFY(cut.ends_with("<float>)"));
        QVERIFY(cut.find("\u2026") != std::string::npos);
        // UTF-8 characters are never cut in half.
        const auto arrows = elideMiddle("\u2192\u2192\u2192\u2192\u2192\u2192", 4);
        QCOMPARE(arrows, std::string("\u2192\u2192\u2026\u2192"));
        QVERIFY(!nvpg::support::firstNonUtf8(arrows));
    }

    // The one rule that shortens names for both front ends: the function's name stays whole and
    // its parameters give way; in columns for nvpg, in any measure (a font's pixels) for the app.
    void namesAreCutInTheirParameters() {
        using nvpg::support::elideName;
        // numba's stencil_2d (tests/data/numba/stencil_2d.ll), as people read it.
        const std::string name = nvpg::support::readableName(
            "_ZN8__main__10stencil_2dB2v8B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVhoql"
            "spQGNFHSgJ5BnXagIAE5ArrayIfLi2E1C7mutable7alignedE5ArrayIfLi2E1C7mutable7alignedE");
        QCOMPARE(name, std::string("__main__::stencil_2d(Array<float, 2, C, mutable, aligned>, "
                                   "Array<float, 2, C, mutable, aligned>)"));
        QCOMPARE(elideName(name, 200), name);
        const auto cut = elideName(name, 40);
        QCOMPARE(support::displayWidth(cut), size_t(40));
        QVERIFY2(cut.starts_with("__main__::stencil_2d(Array<") && cut.ends_with("aligned>)"), cut.c_str());
        QVERIFY(cut.find("\u2026") != std::string::npos);
        // What follows the parameters stays too.
        const auto local = elideName("__internal_accurate_pow (in " + name + ")", 50);
        QVERIFY2(local.starts_with("__internal_accurate_pow (") && local.ends_with("aligned>))"), local.c_str());
        QCOMPARE(support::displayWidth(local), size_t(50));
        // No room for the parameters: the whole name is cut in the middle.
        const auto narrow = elideName(name, 16);
        QCOMPARE(narrow, nvpg::support::elideMiddle(name, 16));
        // A symbol (no parentheses): in the middle.
        QCOMPARE(elideName(std::string(60, 'x'), 10), std::string(5, 'x') + "\u2026" + std::string(4, 'x'));
        // Any measure: here 2 units a character, so half the characters fit.
        const auto twice = [](std::string_view s) { return 2.0 * double(support::displayWidth(s)); };
        const auto measured = elideName(name, 80.0, twice);
        QCOMPARE(measured, cut);
        QCOMPARE(nvpg::support::elideMiddle("abcdefghij", 8.0, twice), std::string("ab\u2026j"));
        QCOMPARE(nvpg::support::elideMiddle("abcdefghij", 1.0, twice), std::string("\u2026"));
    }

    // Tables (nvpg compare, occupancy, run) name kernels readably and cut, unless asked otherwise.
    void tablesNameKernelsReadablyAndCut() {
        const std::string numba =
            "_ZN8__main__11math_kernelB2v2B92cw51cXTLSUwv1sDUaKthqaNgoKmjgOR3W3CwAkMXLaJtQYkOIgxJU0gCqOkEJoHkbttqdVh"
            "oqlspQGNFHSgJ5BnXagIAE5ArrayIfLi1E1C7mutable7alignedE5ArrayIfLi1E1C7mutable7alignedE";
        const auto cut = nvpg::support::tableName(numba);
        QCOMPARE(support::displayWidth(cut), nvpg::support::kTableNameColumns);
        QVERIFY2(cut.starts_with("__main__::math_kernel(") && cut.ends_with(">)"), cut.c_str());
        QCOMPARE(nvpg::support::tableName(numba, {false, true}), nvpg::support::readableName(numba));
        QCOMPARE(nvpg::support::tableName(numba, {true, true}), numba);
        QCOMPARE(support::displayWidth(nvpg::support::tableName(numba, {true, false})),
                 nvpg::support::kTableNameColumns);
        QCOMPARE(nvpg::support::tableName("saxpy"), std::string("saxpy"));
    }

    // PTX names a kernel's parameters after its symbol: "…_param_0" where the symbol is mangled.
    void aMangledSymbolInATextReadsAsAnEllipsis() {
        const std::string numba = "_ZN8__main__4axpyB2v1E5ArrayIfLi1E1C7mutable7alignedE";
        QVERIFY(nvpg::support::demangle(numba));
        QCOMPARE(nvpg::support::elideSymbolIn("ld.param.u64 \t%rd1, [" + numba + "_param_0];", numba),
                 std::string("ld.param.u64 \t%rd1, [\u2026_param_0];"));
        QCOMPARE(nvpg::support::elideSymbolIn(numba + " " + numba, numba), std::string("\u2026 \u2026"));
        QCOMPARE(nvpg::support::elideSymbolIn("ld.param.u64 %rd1, [saxpy_param_0];", "saxpy"),
                 std::string("ld.param.u64 %rd1, [saxpy_param_0];"));
    }

    void countsSayTheirWord() {
        QCOMPARE(support::plural(1, "line differs", "lines differ"), std::string("1 line differs"));
        QCOMPARE(support::plural(0, "hunk", "hunks"), std::string("0 hunks"));
        QCOMPARE(support::plural(23, "hunk", "hunks"), std::string("23 hunks"));
    }

    void bytesAreWrittenInIecUnits() {
        QCOMPARE(support::formatBytes(0), std::string("0 B"));
        QCOMPARE(support::formatBytes(1023), std::string("1023 B"));
        QCOMPARE(support::formatBytes(1024), std::string("1 KiB"));
        QCOMPARE(support::formatBytes(19968), std::string("19.5 KiB"));
        QCOMPARE(support::formatBytes(1536 * 1024), std::string("1.5 MiB"));
        // Rounding picks the unit: never "1024 KiB".
        QCOMPARE(support::formatBytes(1024 * 1024 - 1), std::string("1 MiB"));
        QCOMPARE(support::formatBytes(uint64_t(3) << 30), std::string("3 GiB"));
    }

    void countsAreGroupedInThousands() {
        QCOMPARE(support::formatCount(0), std::string("0"));
        QCOMPARE(support::formatCount(999), std::string("999"));
        QCOMPARE(support::formatCount(1000), std::string("1,000"));
        QCOMPARE(support::formatCount(65536), std::string("65,536"));
        QCOMPARE(support::formatCount(123456), std::string("123,456"));
        QCOMPARE(support::formatCount(1234567), std::string("1,234,567"));
        QCOMPARE(support::formatCount(UINT64_MAX), std::string("18,446,744,073,709,551,615"));
    }
    // Every task given to the pool runs, on threads that are not the caller's; the pool's end
    // waits for those still running.
    void threadPoolRunsEveryTask() {
        std::atomic<int> ran{0}, elsewhere{0};
        const auto caller = std::this_thread::get_id();
        {
            support::ThreadPool pool;
            for (int i = 0; i < 50; ++i)
                QVERIFY(pool.run([&] {
                    std::this_thread::sleep_for(std::chrono::milliseconds(2));
                    if (std::this_thread::get_id() != caller) ++elsewhere;
                    ++ran;
                }));
        }
        QCOMPARE(ran.load(), 50);
        QCOMPARE(elsewhere.load(), 50);
    }

    // What a task returns, or throws, comes back through its future.
    void threadPoolResultsComeBack() {
        support::ThreadPool pool;
        std::vector<std::future<int>> squares;
        for (int i = 0; i < 20; ++i) squares.push_back(pool.submit([i] { return i * i; }));
        for (int i = 0; i < 20; ++i) QCOMPARE(squares[size_t(i)].get(), i * i);
        auto failing = pool.submit([]() -> int { throw std::runtime_error("no"); });
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, failing.get());
    }

    // An idle thread takes the next task: tasks one after the other need one thread.
    void threadPoolReusesIdleThreads() {
        support::ThreadPool pool;
        for (int i = 0; i < 20; ++i) {
            pool.submit([] {}).get();
            // The worker is idle again only after its future is ready: give it the moment.
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        QVERIFY2(pool.threads() < 10, qPrintable(QString::number(pool.threads())));
    }

    // The pool's destruction waits for a running task and joins its threads.
    void threadPoolDestructionJoins() {
        std::atomic<bool> finished{false};
        std::weak_ptr<int> alive;
        {
            support::ThreadPool pool;
            auto token = std::make_shared<int>(0);
            alive = token;
            QVERIFY(pool.run([&finished, token] {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                finished = true;
            }));
        }
        QVERIFY(finished.load());
        QVERIFY(alive.expired());  // the task, and what it held, are gone with the thread
    }

    // A function beside the caller: join waits for it and throws again what it threw.
    void besideJoinsAndRethrows() {
        support::ThreadPool pool;
        int value = 0;
        support::Beside ok([&] { value = 7; }, pool);
        ok.join();
        QCOMPARE(value, 7);
        support::Beside failing([] { throw std::runtime_error("beside"); }, pool);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, failing.join());
    }
};

QTEST_APPLESS_MAIN(TestSupport)
#include "tst_support.moc"
