// support/Files: an input is read whole or refused with the reason; an output replaces the old
// file keeping what the user set on it (mode, hard links, symbolic links).
#include <QtTest>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "TestSupport.h"
#include "core/gpu/ArgSpec.h"
#include "core/gpu/Npy.h"
#include "core/support/Files.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

// Runs `fn` in a forked child whose address space may grow by `headroom` bytes at most and
// which is stopped after 20 s, so that a read that does not stop, or takes the memory it
// finds, costs this machine nothing. Returns what `fn` returned, or how the child ended.
std::string inChild(size_t headroom, const std::function<std::string()>& fn) {
    int fds[2];
    if (::pipe(fds) != 0) qFatal("pipe: %s", std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0) qFatal("fork: %s", std::strerror(errno));
    if (pid == 0) {
        ::close(fds[0]);
        long pages = 0;
        if (std::ifstream statm("/proc/self/statm"); !(statm >> pages)) ::_exit(120);
        const rlim_t limit = rlim_t(pages) * rlim_t(::sysconf(_SC_PAGESIZE)) + headroom;
        const rlimit rl{limit, limit};
        if (!NVPG_ASAN && ::setrlimit(RLIMIT_AS, &rl) != 0) ::_exit(121);
        ::alarm(20);
        std::string out;
        try {
            out = fn();
        } catch (const std::exception& e) {
            out = std::string("exception: ") + e.what();
        }
        for (size_t at = 0; at < out.size();) {
            const ssize_t n = ::write(fds[1], out.data() + at, out.size() - at);
            if (n <= 0) break;
            at += size_t(n);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string got;
    char buf[4096];
    for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, size_t(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) return "child ended by signal " + std::to_string(WTERMSIG(status));
    if (WEXITSTATUS(status) != 0) return "child exited " + std::to_string(WEXITSTATUS(status));
    return got;
}

// What a read gives, as one line: "ok N" (N bytes) or "error: MESSAGE".
std::string readOutcome(const fs::path& p) {
    const auto r = support::readFile(p);
    return r ? "ok " + std::to_string(r->size()) : "error: " + r.error().message;
}

// A file of `size` bytes that takes no disk: a hole.
fs::path sparseFile(const fs::path& p, uint64_t size) {
    std::ofstream(p, std::ios::binary).put('\0');
    fs::resize_file(p, size);
    return p;
}

mode_t modeOf(const fs::path& p) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) return 0;
    return st.st_mode & 07777;
}

std::string contents(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

constexpr size_t kMiB = size_t(1) << 20;

}  // namespace

class TestFiles : public QObject {
    Q_OBJECT

private slots:
    // /dev/zero never ends and a FIFO blocks until a writer comes: neither is read.
    void readRefusesWhatIsNotARegularFile() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        const auto fifo = d / "pipe.ll";
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        fs::create_symlink("/dev/zero", d / "zero.ll");
        const struct {
            fs::path path;
            std::string says;
        } cases[] = {
            {"/dev/zero", "/dev/zero is a character device, not a regular file"},
            {d / "zero.ll", (d / "zero.ll").string() + " is a character device, not a regular file"},
            {fifo, fifo.string() + " is a FIFO (named pipe), not a regular file"},
            {d, "it is a directory"},
        };
        for (const auto& c : cases) {
            const auto got = inChild(256 * kMiB, [&] { return readOutcome(c.path); });
            QVERIFY2(got.starts_with("error: ") && got.find(c.says) != std::string::npos,
                     qPrintable(QString::fromStdString(c.path.string() + ": " + got.substr(0, 300))));
        }
    }

    // The size is checked before anything is allocated: a module of more than the cap is refused
    // at once, naming the file, its size and the limit (the file is a hole: it costs nothing).
    void readRefusesAFileOverItsLimit() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        const auto big = sparseFile(d / "big.ll", (uint64_t(3) << 30) + 1);
        const auto got = inChild(256 * kMiB, [&] { return readOutcome(big); });
        QVERIFY2(got.starts_with("error: "), got.substr(0, 300).c_str());
        QVERIFY2(got.find(big.string()) != std::string::npos, got.c_str());
        QVERIFY2(got.find(" is 3 GiB (3221225473 bytes), more than the 1 GiB (1073741824 bytes) an NVVM IR module "
                          "may be") != std::string::npos,
                 got.c_str());
        // Each kind of input has its cap; a caller may give its own.
        QVERIFY(support::kBufferFileLimit.bytes > support::kModuleFileLimit.bytes);
        std::ofstream(d / "ten.bin") << "0123456789";
        QCOMPARE(readOutcome(d / "ten.bin"), std::string("ok 10"));
        const auto r = support::readFile(d / "ten.bin", {9, "a test input"});
        QVERIFY(!r);
        QCOMPARE(r.error().message, (d / "ten.bin").string() +
                                        " is 10 B (10 bytes), more than the 9 B (9 bytes) a "
                                        "test input may be");
        QVERIFY(support::readFile(d / "ten.bin", {10, "a test input"}));
    }

    // Short of memory, a read fails saying so; it never hands back the part it managed.
    void readFailsWholeWhenMemoryIsShort() {
        if (NVPG_ASAN) QSKIP("AddressSanitizer cannot run under a lowered RLIMIT_AS");
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        const auto big = sparseFile(d / "big.bin", 512 * kMiB);
        const auto got = inChild(128 * kMiB, [&] { return readOutcome(big); });
        QVERIFY2(got == "error: not enough memory to read " + big.string() + " (536870912 bytes)",
                 got.substr(0, 300).c_str());
        // Under the same limit, a file that fits is read as before.
        std::ofstream(d / "small.ll") << "small";
        QCOMPARE(inChild(128 * kMiB, [&] { return readOutcome(d / "small.ll"); }), std::string("ok 5"));
    }

    // A valid .npy too big for the memory left is not called truncated: the read failed, not the file.
    void aBigNpyShortOfMemoryIsNotCalledTruncated() {
        if (NVPG_ASAN) QSKIP("AddressSanitizer cannot run under a lowered RLIMIT_AS");
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        gpu::NpyArray a;
        a.type = gpu::ElemType::F32;
        a.shape = {128 * kMiB};  // 512 MiB of data
        a.data = std::string(4, '\0');
        auto header = gpu::writeNpy(a);
        header.resize(header.size() - 4);
        {
            std::ofstream out(d / "x.npy", std::ios::binary);
            out << header;
        }
        fs::resize_file(d / "x.npy", header.size() + 512 * kMiB);
        const auto got = inChild(128 * kMiB, [&] {
            auto arg = gpu::parseArgSpec("buf:@x.npy");
            if (!arg) return "error: " + arg.error().message;
            auto r = gpu::loadBuffer(*arg, d);
            return r ? "ok " + std::to_string(r->size()) : "error: " + r.error().message;
        });
        QVERIFY2(got.starts_with("error: not enough memory to read " + (d / "x.npy").string()), got.c_str());
        QVERIFY2(got.find("truncated") == std::string::npos, got.c_str());
    }

    // A workspace's `buf:f32:@/dev/zero` is refused like any input that never ends.
    void aBufferFromADeviceIsRefused() {
        const auto got = inChild(256 * kMiB, [] {
            auto arg = gpu::parseArgSpec("buf:f32:@/dev/zero");
            if (!arg) return "error: " + arg.error().message;
            auto r = gpu::loadBuffer(*arg, "/");
            return r ? "ok " + std::to_string(r->size()) : "error: " + r.error().message;
        });
        QVERIFY2(got.find("/dev/zero is a character device, not a regular file") != std::string::npos,
                 got.substr(0, 300).c_str());
    }

    void writeKeepsTheModeOfTheFileItReplaces() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        for (const mode_t mode : {mode_t(0600), mode_t(0640), mode_t(0755)}) {
            const auto p = d / ("out" + std::to_string(mode) + ".ptx");
            std::ofstream(p) << "old";
            QCOMPARE(::chmod(p.c_str(), mode), 0);
            QVERIFY(support::writeFileAtomic(p, "new"));
            QCOMPARE(contents(p), std::string("new"));
            QCOMPARE(modeOf(p), mode);
        }
    }

    // Compile outputs skip the flush to the disk (durable off) but are still replaced whole: the
    // new bytes, the old mode, no temporary file left beside them.
    void aWriteThatIsNotDurableStillReplacesTheFileWhole() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        const auto p = d / "out.ptx";
        std::ofstream(p) << "old contents, longer than the new";
        QCOMPARE(::chmod(p.c_str(), 0640), 0);
        support::WriteOptions options;
        options.durable = false;
        QVERIFY(support::writeFileAtomic(p, "new", options));
        QCOMPARE(contents(p), std::string("new"));
        QCOMPARE(modeOf(p), mode_t(0640));
        int files = 0;
        for (const auto& e : fs::directory_iterator(d)) files += e.is_regular_file() ? 1 : 0;
        QCOMPARE(files, 1);
    }

    // A read-only file is not replaced behind the user's back; the message says how to ask.
    void writeRefusesAReadOnlyFile() {
        QTemporaryDir dir;
        const fs::path p = fs::path(dir.path().toStdString()) / "keep.ptx";
        std::ofstream(p) << "old";
        QCOMPARE(::chmod(p.c_str(), 0444), 0);
        const auto st = support::writeFileAtomic(p, "new");
        QVERIFY(!st);
        QVERIFY2(st.error().message.find(p.string() + " is read-only") != std::string::npos,
                 st.error().message.c_str());
        QCOMPARE(contents(p), std::string("old"));
        QCOMPARE(modeOf(p), mode_t(0444));
        // Asked for, it is replaced, and stays read-only; the message says how to ask.
        const auto hinted = support::writeFileAtomic(p, "new", {false, "give --force"});
        QVERIFY(!hinted && hinted.error().message.ends_with("make it writable, or give --force"));
        QVERIFY(support::writeFileAtomic(p, "new", {true, {}}));
        QCOMPARE(contents(p), std::string("new"));
        QCOMPARE(modeOf(p), mode_t(0444));
    }

    // One file by identity, whatever the spelling: the check that keeps -o off an input.
    void sameFileComparesIdentityNotNames() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        std::ofstream(d / "k.ll") << "x";
        std::ofstream(d / "other.ll") << "x";
        fs::create_symlink("k.ll", d / "link.ll");
        fs::create_hard_link(d / "k.ll", d / "hard.ll");
        QVERIFY(support::sameFile(d / "k.ll", d / "k.ll"));
        QVERIFY(support::sameFile(d / "k.ll", d / "link.ll"));
        QVERIFY(support::sameFile(d / "k.ll", d / "hard.ll"));
        QVERIFY(support::sameFile(d / "k.ll", d / "." / ".." / d.filename() / "k.ll"));
        QVERIFY(!support::sameFile(d / "k.ll", d / "other.ll"));
        QVERIFY(!support::sameFile(d / "missing.ll", d / "missing.ll"));
    }

    // The writers' one check: a file that is an input by any name, or an input inside a folder
    // being written, is named; a new file beside the inputs is not.
    void inputOverwrittenByNamesTheInput() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        fs::create_directories(d / "ws" / "inputs");
        std::ofstream(d / "ws" / "w.nvpg") << "{}";
        std::ofstream(d / "ws" / "inputs" / "a.npy") << "x";
        fs::create_directories(d / "out" / "modules");
        fs::create_symlink(d / "ws" / "w.nvpg", d / "out" / "modules" / "saxpy.ll");
        fs::create_hard_link(d / "ws" / "w.nvpg", d / "out" / "hard.py");
        fs::create_symlink(d / "ws", d / "wslink");
        const std::vector<fs::path> inputs{d / "ws" / "w.nvpg", d / "ws" / "inputs" / "a.npy"};
        using support::inputOverwrittenBy;
        QCOMPARE(inputOverwrittenBy(d / "out" / "modules" / "saxpy.ll", inputs), std::optional(inputs[0]));
        QCOMPARE(inputOverwrittenBy(d / "out" / "hard.py", inputs), std::optional(inputs[0]));
        QCOMPARE(inputOverwrittenBy(d / "out" / ".." / "ws" / "inputs" / "a.npy", inputs), std::optional(inputs[1]));
        QCOMPARE(inputOverwrittenBy(d / "out" / "new.ptx", inputs), std::nullopt);
        // Folders: an input inside (through a link to its folder too), not one beside it.
        QCOMPARE(inputOverwrittenBy(d / "wslink" / "inputs", inputs, true), std::optional(inputs[1]));
        QCOMPARE(inputOverwrittenBy(d / "ws/", inputs, true), std::optional(inputs[0]));
        QCOMPARE(inputOverwrittenBy(d / "out", {inputs[1]}, true), std::nullopt);
        QCOMPARE(inputOverwrittenBy(d / "w", inputs, true), std::nullopt);  // "w" is no prefix of "ws"
        QCOMPARE(inputOverwrittenBy(d / "missing", {d / "missing"}), std::nullopt);
    }

    // A file with several names keeps them all: each name sees the new contents.
    void writeKeepsHardLinks() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        std::ofstream(d / "a.ptx") << "old contents, longer than the new";
        fs::create_hard_link(d / "a.ptx", d / "b.ptx");
        QVERIFY(support::writeFileAtomic(d / "a.ptx", "new"));
        QCOMPARE(contents(d / "a.ptx"), std::string("new"));
        QCOMPARE(contents(d / "b.ptx"), std::string("new"));
        QCOMPARE(int(fs::hard_link_count(d / "a.ptx")), 2);
        int files = 0;
        for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++files;
        QCOMPARE(files, 2);  // no temporary left behind
    }

    // A link whose target does not exist yet: the target is created, the link stays a link.
    void writeThroughADanglingSymlinkCreatesItsTarget() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        fs::create_directory(d / "real");
        fs::create_symlink("real/out.ptx", d / "link.ptx");   // relative to the link's folder
        fs::create_symlink(d / "link.ptx", d / "link2.ptx");  // and a link to that link
        QVERIFY(support::writeFileAtomic(d / "link2.ptx", "new"));
        QVERIFY(fs::is_symlink(d / "link.ptx"));
        QVERIFY(fs::is_symlink(d / "link2.ptx"));
        QCOMPARE(contents(d / "real/out.ptx"), std::string("new"));
        QVERIFY(!fs::exists(d / "out.ptx"));
    }

    void writeThroughASymlinkKeepsTheTargetsMode() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        std::ofstream(d / "real.ptx") << "old";
        QCOMPARE(::chmod((d / "real.ptx").c_str(), 0600), 0);
        fs::create_symlink("real.ptx", d / "link.ptx");
        QVERIFY(support::writeFileAtomic(d / "link.ptx", "new"));
        QVERIFY(fs::is_symlink(d / "link.ptx"));
        QCOMPARE(contents(d / "real.ptx"), std::string("new"));
        QCOMPARE(modeOf(d / "real.ptx"), mode_t(0600));
    }
};

QTEST_APPLESS_MAIN(TestFiles)
#include "tst_files.moc"
