// support/: atomic file writes, the text helpers messages rely on.
#include <QtTest>

#include <filesystem>
#include <fstream>

#include "support/Files.h"
#include "support/Text.h"

using namespace nvpg;
namespace fs = std::filesystem;

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
};

QTEST_APPLESS_MAIN(TestSupport)
#include "tst_support.moc"
