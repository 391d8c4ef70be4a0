// The result cache: a hit gives what the compile gave, byte for byte, from memory and from the
// files of an earlier process; any changed input misses; a damaged file is ignored with a
// warning; writers in several processes at once leave only whole files; the size caps hold.
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <set>

#include "TestSupport.h"
#include "core/cache/Key.h"
#include "core/cache/ResultCache.h"
#include "core/engine/Compiler.h"
#include "core/inspect/LineMap.h"
#include "core/pipeline/ResultJson.h"
#include "core/pipeline/Summary.h"

using namespace nvpg;
namespace fs = std::filesystem;

namespace {

// A job with every output libNVVM and nvJitLink make here, libdevice on.
pipeline::Job sinfJob() {
    pipeline::Job job;
    job.modules = {test::irFixture("sinf.ll")};
    job.options.arch = "compute_90";
    job.libdevice = true;
    job.outputs = pipeline::kPtx | pipeline::kLtoIr | pipeline::kLtoPtx | pipeline::kCubin;
    return job;
}

// What a result holds, as the cache writes it: equal bytes, equal results (the generation and
// fromCache aside, which say which request it answers and how).
std::string bytesOf(pipeline::CompileResult r) {
    r.generation = 0;
    r.fromCache = false;
    return cache::ResultCache::encodeFile(std::string(32, '0'), r);
}

engine::Compiler inProcessCompiler(std::shared_ptr<cache::ResultCache> cache) {
    engine::Compiler c(test::realToolkit(), std::nullopt, std::vector<std::string>{});
    c.setCache(std::move(cache));
    return c;
}

std::shared_ptr<cache::ResultCache> cacheIn(const fs::path& dir, uint64_t diskBytes = cache::kDefaultCacheBytes,
                                            uint64_t memoryBytes = cache::kDefaultCacheBytes) {
    return std::make_shared<cache::ResultCache>(cache::CacheConfig{dir, memoryBytes, diskBytes});
}

std::vector<fs::path> filesUnder(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file()) out.push_back(it->path());
    std::sort(out.begin(), out.end());
    return out;
}

// A result of `size` bytes of PTX, told apart by `tag`, for tests that need no compile.
pipeline::CompileResult fakeResult(const std::string& tag, size_t size = 4096) {
    pipeline::CompileResult r;
    r.ok = true;
    r.arch = "compute_90";
    r.ptx = "// " + tag + "\n" + std::string(size, 'x');
    r.cubin = std::string(size / 2, char(0xA5)) + tag;
    r.nvvmLog = tag;
    return r;
}

bool hasWarning(const pipeline::CompileResult& r, const std::string& words) {
    for (const auto& d : r.diagnostics)
        if (d.severity == nvvm::Severity::Warning && d.message.find(words) != std::string::npos) return true;
    return false;
}

}  // namespace

class TestCache : public QObject {
    Q_OBJECT

private slots:
    void aHitIsTheCompilesResultByteForByte() {
        QTemporaryDir dir;
        auto job = sinfJob();
        auto compiler = inProcessCompiler(cacheIn(dir.path().toStdString()));
        job.generation = 1;
        auto first = compiler.run(job);
        QVERIFY2(first, first ? "" : first.error().message.c_str());
        QVERIFY(first->ok && !first->fromCache);
        QVERIFY(!first->ptx.empty() && !first->linkedPtx.empty() && !first->cubin.empty() && !first->ltoIr.empty());

        // From memory: the same outputs, answering the new request.
        job.generation = 2;
        bool heard = false;
        auto second = compiler.run(job, {}, nullptr, [&](const pipeline::CompileResult& plain) {
            heard = plain.fromCache && plain.ptx == first->ptx;
        });
        QVERIFY(second && second->fromCache);
        QVERIFY(heard);
        QCOMPARE(second->generation, uint64_t(2));
        QCOMPARE(second->ptx, first->ptx);
        QCOMPARE(second->linkedPtx, first->linkedPtx);
        QCOMPARE(second->cubin, first->cubin);
        QCOMPARE(second->ltoIr.front().bytes, first->ltoIr.front().bytes);
        QCOMPARE(second->libdeviceFunctions, first->libdeviceFunctions);
        QVERIFY(bytesOf(*second) == bytesOf(*first));
        // The PTX pane says where it came from, beside the time that compile took.
        QVERIFY(pipeline::summarizeResult(*second).ptx.header.find("(from cache)") != std::string::npos);
        QVERIFY(pipeline::summarizeResult(*first).ptx.header.find("from cache") == std::string::npos);

        // From the files, in a new cache and Compiler, as after a restart.
        auto restarted = inProcessCompiler(cacheIn(dir.path().toStdString()));
        job.generation = 3;
        auto third = restarted.run(job);
        QVERIFY(third && third->fromCache);
        QCOMPARE(third->generation, uint64_t(3));
        QCOMPARE(third->ptx, first->ptx);
        QCOMPARE(third->cubin, first->cubin);
        QCOMPARE(third->kernels.size(), first->kernels.size());
        QCOMPARE(third->kernels.front().params.size(), first->kernels.front().params.size());
        QVERIFY(bytesOf(*third) == bytesOf(*first));
    }

    void diagnosticsAndLineMapsAreCachedToo() {
        QTemporaryDir dir;
        pipeline::Job broken;
        broken.modules = {test::irFixture("broken.ll")};
        broken.options.arch = "compute_90";
        auto first = inProcessCompiler(cacheIn(dir.path().toStdString())).run(broken);
        QVERIFY(first && !first->ok && first->hasErrors());
        auto again = inProcessCompiler(cacheIn(dir.path().toStdString())).run(broken);
        QVERIFY(again && again->fromCache && !again->ok);
        QCOMPARE(again->diagnostics.size(), first->diagnostics.size());
        QCOMPARE(again->diagnostics.front().message, first->diagnostics.front().message);
        QCOMPARE(again->diagnostics.front().line, first->diagnostics.front().line);
        QVERIFY(bytesOf(*again) == bytesOf(*first));

        auto mapped = sinfJob();
        mapped.lineMap = true;
        auto withMap = inProcessCompiler(cacheIn(dir.path().toStdString())).run(mapped);
        QVERIFY(withMap && withMap->lineMap);
        auto mapAgain = inProcessCompiler(cacheIn(dir.path().toStdString())).run(mapped);
        QVERIFY(mapAgain && mapAgain->fromCache && mapAgain->lineMap);
        QCOMPARE(inspect::toJson(*mapAgain->lineMap).dump(), inspect::toJson(*withMap->lineMap).dump());
    }

    void everyInputIsInTheKey() {
        const auto job = sinfJob();
        cache::Environment env;
        env.files = {{"libNVVM", "/cuda/lib64/libnvvm.so.4", 1000, 42}, {"nvpg", "/usr/bin/nvpg", 10, 7}};
        const auto base = cache::keyOf(job, env);
        QCOMPARE(base.size(), size_t(32));
        QCOMPARE(cache::keyOf(job, env), base);

        auto other = job;
        other.generation = 99;
        QCOMPARE(cache::keyOf(other, env), base);  // which request it was does not matter

        std::vector<std::pair<const char*, std::function<void(pipeline::Job&, cache::Environment&)>>> changes = {
            {"a module byte", [](auto& j, auto&) { j.modules[0].bytes.back() ^= 1; }},
            {"a module name", [](auto& j, auto&) { j.modules[0].name = "other.ll"; }},
            {"lazy", [](auto& j, auto&) { j.modules[0].lazy = true; }},
            {"module order",
             [](auto& j, auto&) {
                 j.modules.push_back(test::irFixture("callee.ll"));
                 std::swap(j.modules[0], j.modules[1]);
             }},
            {"opt", [](auto& j, auto&) { j.options.opt = 0; }},
            {"ftz", [](auto& j, auto&) { j.options.ftz = true; }},
            {"arch", [](auto& j, auto&) { j.options.arch = "compute_100"; }},
            {"-g", [](auto& j, auto&) { j.options.debug = true; }},
            {"an extra flag", [](auto& j, auto&) { j.options.extraFlags.push_back("-foo"); }},
            {"libdevice", [](auto& j, auto&) { j.libdevice = false; }},
            {"verify", [](auto& j, auto&) { j.verify = false; }},
            {"verify only", [](auto& j, auto&) { j.verifyOnly = true; }},
            {"LTO mode", [](auto& j, auto&) { j.ltoMode = lto::Mode::Separate; }},
            {"outputs", [](auto& j, auto&) { j.outputs = pipeline::kPtx; }},
            {"line map", [](auto& j, auto&) { j.lineMap = true; }},
            {"arch from GPU", [](auto& j, auto&) { j.archFromGpu = false; }},
            {"a library's size", [](auto&, auto& e) { e.files[0].size += 1; }},
            {"a library's time", [](auto&, auto& e) { e.files[0].mtimeNs += 1; }},
            {"a library's path", [](auto&, auto& e) { e.files[0].path = "/other/libnvvm.so.4"; }},
            {"nvpg rebuilt", [](auto&, auto& e) { e.files[1].mtimeNs += 1; }},
            {"the GPU", [](auto&, auto& e) { e.gpu = "NVRM version: 580\n[0000:01:00.0]\nModel: H200"; }},
        };
        std::set<std::string> keys{base};
        for (const auto& [what, change] : changes) {
            auto j = job;
            auto e = env;
            change(j, e);
            const auto key = cache::keyOf(j, e);
            QVERIFY2(keys.insert(key).second, what);
        }
    }

    void aToolkitFileTouchedMisses() {
        QTemporaryDir dir;
        const auto lib = fs::path(dir.path().toStdString()) / "libnvvm.so.4";
        QVERIFY(support::writeFileAtomic(lib, "old"));
        const auto before = cache::stampOf("libNVVM", lib);
        QCOMPARE(before.size, uint64_t(3));
        fs::last_write_time(lib, fs::last_write_time(lib) + std::chrono::seconds(5));
        const auto after = cache::stampOf("libNVVM", lib);
        QVERIFY(after.mtimeNs != before.mtimeNs);
        const auto job = sinfJob();
        QVERIFY(cache::keyOf(job, cache::Environment{{before}, ""}) !=
                cache::keyOf(job, cache::Environment{{after}, ""}));

        // The real toolkit's files are all in the key, and the GPU only when it picks the arch.
        auto env = cache::environmentOf(job, *test::realToolkit());
        std::set<std::string> roles;
        for (const auto& f : env.files) roles.insert(f.role);
        for (const char* role : {"libNVVM", "libdevice", "nvJitLink", "nvpg"}) QVERIFY2(roles.count(role), role);
        for (const auto& f : env.files)
            if (f.role == "libNVVM") QVERIFY(f.size > 0 && f.mtimeNs != 0);
        QVERIFY(env.gpu.empty());  // the job names its arch
    }

    void aDamagedFileIsIgnoredWithAWarning_data() {
        QTest::addColumn<QString>("damage");
        for (const char* d : {"truncated", "header byte", "payload byte", "garbage", "empty", "directory", "other key"})
            QTest::newRow(d) << QString(d);
    }
    void aDamagedFileIsIgnoredWithAWarning() {
        QFETCH(QString, damage);
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const auto job = sinfJob();
        auto first = inProcessCompiler(cacheIn(root)).run(job);
        QVERIFY(first && first->ok);
        const auto key = cache::keyOf(job, *test::realToolkit());
        const auto file = cacheIn(root)->fileFor(key);
        QVERIFY(fs::is_regular_file(file));
        auto bytes = test::readText(file);
        if (damage == "truncated")
            bytes.resize(bytes.size() / 2);
        else if (damage == "header byte")
            bytes[10] ^= 0x40;
        else if (damage == "payload byte")
            bytes[bytes.size() - 100] ^= 0x01;
        else if (damage == "garbage")
            bytes = std::string(5000, '\x7f');
        else if (damage == "empty")
            bytes.clear();
        else if (damage == "other key")
            bytes.replace(16, 32, std::string(32, 'a'));  // whole, but another key's
        if (damage == "directory") {
            fs::remove(file);
            fs::create_directories(file / "inside");
        } else {
            QVERIFY(support::writeFileAtomic(file, bytes));
        }

        auto again = inProcessCompiler(cacheIn(root)).run(job);
        QVERIFY2(again, again ? "" : again.error().message.c_str());
        QVERIFY(!again->fromCache);
        QCOMPARE(again->ptx, first->ptx);  // compiled, right
        QVERIFY(again->ok);
        QVERIFY(hasWarning(*again, "was damaged"));
        QVERIFY(hasWarning(*again, file.string()));
        // The damaged file was replaced by a whole one, which the next process reads.
        QVERIFY(fs::is_regular_file(file));
        auto third = inProcessCompiler(cacheIn(root)).run(job);
        QVERIFY(third && third->fromCache && !hasWarning(*third, "damaged"));
        QCOMPARE(third->ptx, first->ptx);
    }

    void concurrentWritersLeaveOnlyWholeFiles() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        constexpr int kWriters = 6, kRounds = 15;
        // Small enough that the writers evict each other's files while they write.
        const uint64_t cap =
            12 * cache::ResultCache::encodeFile(std::string(32, '0'), fakeResult("w0k0", 64 << 10)).size();
        auto keyFor = [](const std::string& tag) {
            pipeline::Job j;
            j.modules = {{tag, tag, false}};
            return cache::keyOf(j, cache::Environment{});
        };
        std::vector<pid_t> children;
        for (int w = 0; w < kWriters; ++w) {
            const pid_t pid = ::fork();
            QVERIFY(pid >= 0);
            if (pid == 0) {
                cache::ResultCache c(cache::CacheConfig{root, 0, cap});
                for (int round = 0; round < kRounds; ++round) {
                    c.store(keyFor("shared"), fakeResult("shared", 256 << 10));
                    const auto tag = "w" + std::to_string(w) + "k" + std::to_string(round);
                    c.store(keyFor(tag), fakeResult(tag, 64 << 10));
                    c.find(keyFor("shared"));
                }
                ::_exit(0);
            }
            children.push_back(pid);
        }
        for (const pid_t pid : children) {
            int status = 0;
            QCOMPARE(::waitpid(pid, &status, 0), pid);
            QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
        // Every file left is whole and holds its own key's result; no temporary file is left.
        std::map<std::string, std::string> expected;
        expected[keyFor("shared")] = "shared";
        for (int w = 0; w < kWriters; ++w)
            for (int round = 0; round < kRounds; ++round) {
                const auto tag = "w" + std::to_string(w) + "k" + std::to_string(round);
                expected[keyFor(tag)] = tag;
            }
        const auto files = filesUnder(root);
        QVERIFY(!files.empty());
        uint64_t total = 0;
        for (const auto& f : files) {
            QVERIFY2(!f.filename().string().starts_with("."), f.c_str());
            const auto key = f.stem().string();
            QVERIFY2(expected.count(key), f.c_str());
            cache::ResultCache reader(cache::CacheConfig{root, 0, cap});
            const auto found = reader.find(key);
            QVERIFY2(found.warning.empty(), found.warning.c_str());
            QVERIFY2(found.result, f.c_str());
            const auto& tag = expected[key];
            QVERIFY(bytesOf(*found.result) == bytesOf(fakeResult(tag, tag == "shared" ? 256 << 10 : 64 << 10)));
            total += fs::file_size(f);
        }
        QVERIFY(total <= cap);
    }

    void theDiskCapEvictsTheLeastRecentlyUsed() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        const uint64_t one = cache::ResultCache::encodeFile(std::string(32, '0'), fakeResult("a")).size();
        cache::ResultCache c(cache::CacheConfig{root, 0, one * 5 / 2});  // two files fit
        auto key = [](char c) { return std::string(32, c); };
        const auto now = fs::file_time_type::clock::now();
        c.store(key('a'), fakeResult("a"));
        fs::last_write_time(c.fileFor(key('a')), now - std::chrono::seconds(300));
        c.store(key('b'), fakeResult("b"));
        fs::last_write_time(c.fileFor(key('b')), now - std::chrono::seconds(200));
        c.store(key('c'), fakeResult("c"));  // a is the oldest
        QVERIFY(!fs::exists(c.fileFor(key('a'))));
        QVERIFY(fs::exists(c.fileFor(key('b'))) && fs::exists(c.fileFor(key('c'))));
        fs::last_write_time(c.fileFor(key('c')), now - std::chrono::seconds(100));
        QVERIFY(c.find(key('b')).result);  // a hit makes b the most recently used
        c.store(key('d'), fakeResult("d"));
        QVERIFY(!fs::exists(c.fileFor(key('c'))));
        QVERIFY(fs::exists(c.fileFor(key('b'))) && fs::exists(c.fileFor(key('d'))));
        // A result larger than the whole cap is not written at all.
        c.store(key('e'), fakeResult("e", one * 3));
        QVERIFY(!fs::exists(c.fileFor(key('e'))));
        QVERIFY(fs::exists(c.fileFor(key('b'))));
    }

    void theMemoryCapEvictsTheLeastRecentlyUsed() {
        const uint64_t one = cache::ResultCache::encodeFile(std::string(32, '0'), fakeResult("a")).size();
        cache::ResultCache c(cache::CacheConfig{{}, one * 5 / 2, 0});
        auto key = [](char c) { return std::string(32, c); };
        c.store(key('a'), fakeResult("a"));
        c.store(key('b'), fakeResult("b"));
        QVERIFY(c.find(key('a')).result);  // b is now the least recently used
        c.store(key('c'), fakeResult("c"));
        QVERIFY(c.memoryBytesUsed() <= one * 5 / 2);
        QVERIFY(!c.find(key('b')).result);
        const auto a = c.find(key('a'));
        QVERIFY(a.result && !a.fromDisk);
        QCOMPARE(a.result->nvvmLog, std::string("a"));
        QVERIFY(c.find(key('c')).result);
    }

    void anEngineThatDiedIsNotCached() {
        QTemporaryDir dir;
        const fs::path root = dir.path().toStdString();
        // An "engine" that reads the request and dies by a signal, as libNVVM crashing does. It dies
        // before it announced a stage, so the crash is put on the toolkit: an
        // error, not a result of the input; either way nothing may be kept.
        engine::Compiler crashing(test::realToolkit(), std::nullopt,
                                  {"/bin/sh", "-c", "head -c 16 >/dev/null; kill -SEGV $$"});
        crashing.setCache(cacheIn(root));
        const auto job = sinfJob();
        auto r = crashing.run(job);
        QVERIFY2(!r, "a crashed engine gave a result");
        QVERIFY2(r.error().message.find("crashed (SIGSEGV)") != std::string::npos, r.error().message.c_str());
        QVERIFY(filesUnder(root).empty());
        auto again = crashing.run(job);
        QVERIFY2(!again, "the second run was answered (from the cache?) though the engine crashed again");
        QVERIFY(filesUnder(root).empty());
    }

    void theDefaultCacheFollowsTheEnvironment() {
        QTemporaryDir dir;
        qputenv("NVPG_NO_CACHE", "1");
        QVERIFY(!cache::ResultCache::openDefault());
        qputenv("NVPG_NO_CACHE", "0");
        qputenv("NVPG_CACHE_DIR", dir.path().toUtf8());
        qputenv("NVPG_CACHE_MAX_BYTES", "12345");
        auto c = cache::ResultCache::openDefault();
        QVERIFY(c);
        QCOMPARE(c->config().dir, fs::path(dir.path().toStdString()));
        QCOMPARE(c->config().diskBytes, uint64_t(12345));
        qunsetenv("NVPG_CACHE_DIR");
        qunsetenv("NVPG_CACHE_MAX_BYTES");
        qputenv("XDG_CACHE_HOME", dir.path().toUtf8());
        c = cache::ResultCache::openDefault();
        QCOMPARE(c->config().dir, fs::path(dir.path().toStdString()) / "nvvm-playground" / "results");
        QCOMPARE(c->config().diskBytes, cache::kDefaultCacheBytes);
        qputenv("NVPG_NO_CACHE", "1");
    }
};

QTEST_GUILESS_MAIN(TestCache)
#include "tst_cache.moc"
