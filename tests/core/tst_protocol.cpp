// The engine protocol: frames survive a round trip; truncated, oversized and garbage messages
// are clear errors; an engine process that dies is reported by how it died.
#include <QtTest>

#include <sys/socket.h>
#include <unistd.h>

#include "TestSupport.h"
#include "core/engine/Compiler.h"
#include "core/engine/EngineProcess.h"
#include "core/engine/Messages.h"

using namespace nvpg;
using namespace nvpg::engine;
using namespace nvpg::gpu;

namespace {

Frame sample() {
    Frame f;
    f.type = 7;
    f.header = {{"kernel", "saxpy"}, {"n", 4096}};
    f.blobs = {std::string("\0\1\2binary", 9), std::string(), std::string(100000, 'x')};
    return f;
}

void setU64(std::string& bytes, size_t at, uint64_t v) {
    for (int i = 0; i < 8; ++i) bytes[at + size_t(i)] = char((v >> (8 * i)) & 0xff);
}

std::string cli() {
    return test::nvpgPath();
}

}  // namespace

class TestProtocol : public QObject {
    Q_OBJECT

private slots:
    void roundTrip() {
        const auto f = sample();
        auto back = decodeFrame(encodeFrame(f));
        QVERIFY(back);
        QCOMPARE(back->type, f.type);
        QVERIFY(back->header == f.header);
        QCOMPARE(back->blobs, f.blobs);
    }

    void roundTripThroughASocket() {
        int sv[2];
        QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
        const auto f = sample();
        std::thread writer([&] { QVERIFY(writeFrame(sv[0], f)); });
        auto back = readFrame(sv[1], std::chrono::steady_clock::now() + std::chrono::seconds(10));
        writer.join();
        QVERIFY(back);
        QCOMPARE(back->blobs, f.blobs);
        ::close(sv[0]);
        auto eof = readFrame(sv[1], std::nullopt);
        QVERIFY(!eof);
        QVERIFY(eof.error().message.find("ended") != std::string::npos);
        ::close(sv[1]);
    }

    void diagnosticFixesSurviveTheCompileReply() {
        pipeline::CompileResult r;
        nvvm::Diagnostic d{"a.ll", 13, 0, nvvm::Severity::Error, "IR version 1.0 incompatible", "libNVVM"};
        d.fixes.push_back({"Add !nvvmir.version 2.0 to a.ll", {{"a.ll", 14, 14, "!nvvmir.version = !{!1}\n"}}});
        d.fixes.push_back(
            {"Compile for compute_100", {}, {{"arch", "compute_100"}, {"opt", ""}}, true, {{"b.ll", false}}});
        r.diagnostics = {d, {"b.ll", 2, 3, nvvm::Severity::Warning, "no fix", "nvpg"}};
        auto back = readCompileReply(*decodeFrame(encodeFrame(makeCompileReply(r))));
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(back->diagnostics.size(), size_t(2));
        QVERIFY(back->diagnostics[0].fixes == d.fixes);
        QVERIFY(back->diagnostics[1].fixes.empty());
        QVERIFY(!back->diagnostics[0].fixes[0].libdevice);
        QCOMPARE(back->diagnostics[0].message, d.message);
    }

    void badMessagesAreClearErrors_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("mentions");
        const auto good = encodeFrame(sample());
        QTest::newRow("empty") << QByteArray() << "truncated";
        QTest::newRow("short header") << QByteArray::fromStdString(good.substr(0, 10)) << "truncated";
        QTest::newRow("garbage") << QByteArray("GET / HTTP/1.1\r\nHost: x\r\n\r\n") << "bad magic";
        auto version = good;
        version[4] = 9;
        QTest::newRow("other version") << QByteArray::fromStdString(version) << "protocol version 9";
        QTest::newRow("truncated blob") << QByteArray::fromStdString(good.substr(0, good.size() - 10))
                                        << "truncated in blob 2";
        QTest::newRow("trailing bytes") << QByteArray::fromStdString(good + "xx") << "2 bytes after the end";
        auto hugeJson = good;
        setU64(hugeJson, 12, 1ull << 40);
        QTest::newRow("oversized header") << QByteArray::fromStdString(hugeJson) << "more than the";
        auto hugeBlob = good;
        const size_t jsonLen = sample().header.dump().size();
        setU64(hugeBlob, 20 + jsonLen, 1ull << 50);
        QTest::newRow("oversized blob") << QByteArray::fromStdString(hugeBlob) << "over the limit";
        auto badJson = good;
        badJson[20] = '#';
        QTest::newRow("bad json") << QByteArray::fromStdString(badJson) << "not valid JSON";
        auto manyBlobs = good;
        manyBlobs[8] = char(0xff);
        manyBlobs[9] = char(0xff);
        QTest::newRow("too many blobs") << QByteArray::fromStdString(manyBlobs) << "blobs is more than";
        // 100,000 levels in a 200 KB header: whichever side copied or dumped it overflowed its stack.
        Frame shallow;
        shallow.type = 7;
        shallow.header = nlohmann::json::array();
        auto deep = encodeFrame(shallow);
        deep.resize(deep.size() - 2);
        deep += std::string(100000, '[') + std::string(100000, ']');
        setU64(deep, 12, 200000);
        QTest::newRow("nested without end") << QByteArray::fromStdString(deep) << "nested deeper than 64 levels";
    }
    void badMessagesAreClearErrors() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, mentions);
        auto r = decodeFrame(std::string_view(bytes.constData(), size_t(bytes.size())));
        QVERIFY(!r);
        QVERIFY2(QString::fromStdString(r.error().message).contains(mentions), r.error().message.c_str());
        // The same through a pipe: an oversized length must not make the reader allocate it.
        int sv[2];
        QVERIFY(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
        ::write(sv[0], bytes.constData(), size_t(bytes.size()));
        ::close(sv[0]);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        auto viaPipe = readFrame(sv[1], deadline);
        // In a stream the extra bytes are the start of the next message, which is then bad.
        if (QByteArray(QTest::currentDataTag()) == "trailing bytes") viaPipe = readFrame(sv[1], deadline);
        ::close(sv[1]);
        QVERIFY(!viaPipe);
    }

    void runRequestsCarryWhatTheFrontEndLoaded() {
        ptx::Function k;
        k.name = "axpy";
        k.params.resize(2);
        k.params[0].name = "p0";
        k.params[0].type = ".u64";
        k.params[0].size = k.params[0].align = 8;
        k.params[0].isPointer = true;
        k.params[0].pointerSpace = ".global";
        k.params[1].name = "p1";
        k.params[1].type = ".f32";
        k.params[1].size = k.params[1].align = 4;
        RunConfig config;
        config.kernel = "axpy";
        config.grid = {4, 2, 1};
        config.args = {*parseArgSpec("buf:@x.npy"), *parseArgSpec("f32:2")};
        config.args[0].type = ElemType::F64;  // as loadBuffer set them from the file
        config.args[0].count = 3;
        const std::vector<std::string> initial = {std::string(24, '\1'), ""};
        auto back = parseRunRequest(*decodeFrame(encodeFrame(makeRunRequest(1, "PTX", false, k, config, initial))));
        QVERIFY2(back, back ? "" : back.error().message.c_str());
        QCOMPARE(back->device, 1);
        QCOMPARE(back->image, std::string("PTX"));
        QCOMPARE(back->kernel.params.size(), size_t(2));
        QCOMPARE(back->kernel.params[1].type, std::string(".f32"));
        QCOMPARE(back->kernel.params[0].pointerSpace, std::string(".global"));
        QCOMPARE(back->config.grid, (Dim3{4, 2, 1}));
        QCOMPARE(back->config.args[0].type, ElemType::F64);
        QCOMPARE(back->config.args[0].count, size_t(3));
        QCOMPARE(back->initial, initial);

        auto broken = makeRunRequest(0, "PTX", false, k, config, initial);
        broken.blobs.pop_back();
        auto bad = parseRunRequest(broken);
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.find("malformed (its buffers do not match its arguments)") != std::string::npos,
                 bad.error().message.c_str());
    }

    // The job's settings cross to the engine process; a request from before `verify` existed
    // (no such key) verifies, as the default job does.
    void compileRequestsCarryTheVerifyChoice() {
        pipeline::Job job;
        job.modules = {{"k.ll", "; k\n", false}};
        QVERIFY(parseCompileRequest(makeCompileRequest(job, std::nullopt))->job.verify);
        job.verify = false;
        job.verifyOnly = true;
        auto off = parseCompileRequest(makeCompileRequest(job, std::nullopt));
        QVERIFY(off);
        QVERIFY(!off->job.verify);
        QVERIFY(off->job.verifyOnly);
        auto old = makeCompileRequest(job, std::nullopt);
        old.header.erase("verify");
        QVERIFY(parseCompileRequest(old)->job.verify);
    }

    // The line map and the SASS cross to the front end in a late reply of their own, the map in
    // the same JSON --line-map writes; `origin` is rebuilt from the ranges, and the request
    // carries the choice.
    void lateRepliesRoundTrip() {
        pipeline::Job job;
        job.modules = {{"k.ll", "; k\n", false}};
        QVERIFY(!parseCompileRequest(makeCompileRequest(job, std::nullopt))->job.lineMap);
        job.lineMap = true;
        QVERIFY(parseCompileRequest(makeCompileRequest(job, std::nullopt))->job.lineMap);

        inspect::LineMap map;
        map.modules = {{"k.ll", {}, {8, 9, 10, 12}}, {"b.bc", "bitcode: install llvm-14", {}}};
        map.ptx.lines = {{"k.ll", 8, {{3, 3}}}, {"k.ll", 9, {{4, 6}, {9, 9}}}, {"k.ll", 10, {{7, 7}}}};
        map.ptx.optimisedAway = {{"k.ll", 12, {}}};
        map.ptx.origin = {{-1, 0}, {-1, 0}, {0, 8}, {0, 9}, {0, 9}, {0, 9}, {0, 10}, {-1, 0}, {0, 9}};
        map.ltoPtx.unavailable = "no LTO link in this job";
        map.sass.unavailable = "no SASS: nvdisasm was not found";
        map.libdevice = {{"k.ll", 9, "__nv_sinf", inspect::MappedOutput::Ptx, 4}};
        pipeline::CompileResult complete;
        complete.lineMap = std::make_shared<const inspect::LineMap>(map);
        complete.sass = "\t.text.k:\n        /*0000*/  EXIT ;\n";
        complete.sassFunctions = {{"k", 1, true}};
        complete.sassSource = "nvdisasm -c of the PTX's whole-program cubin";
        complete.stages = {{pipeline::StageId::CompilePtx, 0.01}, {pipeline::StageId::Disassemble, 0.5}};
        pipeline::CompileResult plain;
        plain.sassPending = true;
        auto read = readLateReply(*decodeFrame(encodeFrame(makeLateReply(complete, true))), true, plain);
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        QCOMPARE(plain.sass, complete.sass);
        QCOMPARE(plain.sassSource, complete.sassSource);
        QVERIFY(!plain.sassPending);
        QCOMPARE(plain.sassFunctions.size(), size_t(1));
        QCOMPARE(plain.sassFunctions[0].instructions, 1);
        QVERIFY(plain.findStage(pipeline::StageId::Disassemble));
        QVERIFY(plain.lineMap);
        const auto* back = plain.lineMap.get();
        QCOMPARE(back->modules.size(), size_t(2));
        QCOMPARE(back->modules[0].instructionLines, (std::vector<int>{8, 9, 10, 12}));
        QCOMPARE(back->modules[1].unmapped, std::string("bitcode: install llvm-14"));
        QCOMPARE(back->ptx.lines.size(), size_t(3));
        QCOMPARE(back->ptx.rangesOf("k.ll", 9), (std::vector<inspect::LineRange>{{4, 6}, {9, 9}}));
        QVERIFY(back->ptx.originOf(5) == (inspect::IrLine{0, 9}));
        QCOMPARE(back->ptx.originOf(8).module, -1);
        QCOMPARE(back->ptx.optimisedAway.size(), size_t(1));
        QCOMPARE(back->ptx.optimisedAway[0].line, 12);
        QCOMPARE(back->ltoPtx.unavailable, map.ltoPtx.unavailable);
        QCOMPARE(back->sass.unavailable, map.sass.unavailable);
        QCOMPARE(back->libdevice.size(), size_t(1));
        QCOMPARE(back->libdevice[0].function, std::string("__nv_sinf"));
        QCOMPARE(back->libdevice[0].lines, 4);
        // The file's shape, as docs/cli/compile.md documents it for scripts.
        const auto j = inspect::toJson(map);
        QCOMPARE(j["version"].get<int>(), 1);
        QVERIFY(j["outputs"]["ptx"].is_array());
        QCOMPARE(j["outputs"]["ptx"][1]["ranges"].dump(), std::string("[[4,6],[9,9]]"));
        QCOMPARE(j["outputs"]["lto-ptx"]["unavailable"].get<std::string>(), map.ltoPtx.unavailable);
        QCOMPARE(j["libdevice"][0]["output"].get<std::string>(), std::string("ptx"));

        // Without a map asked for, the late reply is the SASS alone; one that should carry a
        // map and does not is malformed.
        pipeline::CompileResult sassOnly;
        QVERIFY(readLateReply(makeLateReply(complete, false), false, sassOnly));
        QCOMPARE(sassOnly.sass, complete.sass);
        QVERIFY(!sassOnly.lineMap);
        QVERIFY(!readLateReply(makeLateReply(complete, false), true, sassOnly));
        // The engine answers late when the SASS or the map was asked for, even before it parses.
        QVERIFY(wantsLateReply(makeCompileRequest(job, std::nullopt).header));
        job.lineMap = false;
        QVERIFY(!wantsLateReply(makeCompileRequest(job, std::nullopt).header));
        job.outputs = pipeline::kPtx | pipeline::kSass;
        QVERIFY(wantsLateReply(makeCompileRequest(job, std::nullopt).header));
        QVERIFY(!wantsLateReply(nlohmann::json::array()));
    }

    // A map from another process or a person's file is checked before use: garbage is an error
    // that says what is wrong, never a crash or a huge allocation.
    void garbageLineMapsAreRefused_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("says");
        const QString ok =
            R"({"version":1,"modules":[{"name":"k.ll"}],"outputs":{"ptx":%1,"lto-ptx":{"unavailable":"x"},"sass":{"unavailable":"x"}}})";
        QTest::newRow("not an object") << "[1,2]"
                                       << "object";
        QTest::newRow("other version") << R"({"version":2})"
                                       << "version";
        QTest::newRow("no outputs") << R"({"version":1,"modules":[]})"
                                    << "outputs";
        QTest::newRow("unknown module") << ok.arg(R"([{"module":"x.ll","line":1,"ranges":[[1,2]]}])") << "x.ll";
        QTest::newRow("reversed range") << ok.arg(R"([{"module":"k.ll","line":1,"ranges":[[5,2]]}])") << "ends before";
        QTest::newRow("unsorted ranges") << ok.arg(R"([{"module":"k.ll","line":1,"ranges":[[5,6],[1,2]]}])")
                                         << "not after";
        QTest::newRow("line 0") << ok.arg(R"([{"module":"k.ll","line":0,"ranges":[[1,2]]}])") << "outside";
        QTest::newRow("huge line") << ok.arg(R"([{"module":"k.ll","line":1,"ranges":[[1,4000000000]]}])") << "outside";
        QTest::newRow("float line") << ok.arg(R"([{"module":"k.ll","line":1.5,"ranges":[[1,2]]}])") << "integer";
        QTest::newRow("two claim a line")
            << ok.arg(R"([{"module":"k.ll","line":1,"ranges":[[1,2]]},{"module":"k.ll","line":2,"ranges":[[2,3]]}])")
            << "claimed";
        QTest::newRow("entries out of order")
            << ok.arg(R"([{"module":"k.ll","line":2,"ranges":[[1,1]]},{"module":"k.ll","line":1,"ranges":[[2,2]]}])")
            << "not after";
        QTest::newRow("ranges not a list") << ok.arg(R"([{"module":"k.ll","line":1,"ranges":"1-2"}])") << "ranges";
        QTest::newRow("empty reason") << ok.arg(R"({"unavailable":""})") << "why";
        QTest::newRow("output of another type") << ok.arg("7") << "list";
    }
    void garbageLineMapsAreRefused() {
        QFETCH(QString, json);
        QFETCH(QString, says);
        const auto j = nlohmann::json::parse(json.toStdString());
        auto map = inspect::lineMapFromJson(j);
        QVERIFY(!map);
        QVERIFY2(map.error().message.find(says.toStdString()) != std::string::npos, map.error().message.c_str());
        Frame f = makeLateReply({}, false);
        f.header["line_map"] = j;
        pipeline::CompileResult into;
        auto read = readLateReply(f, true, into);
        QVERIFY(!read);
        QVERIFY2(read.error().message.find("malformed") != std::string::npos, read.error().message.c_str());
    }

    void engineAnswersWithoutAGpu() {
        if (test::realToolkit()->driver()) QSKIP("a CUDA driver is here: the GPU tests cover real runs");
        EngineProcess engine({cli(), "engine"});
        ptx::Function k;
        k.name = "saxpy";
        RunConfig config;
        config.kernel = "saxpy";
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        auto reply = engine.call(makeRunRequest(0, ".version 9.0", false, k, config, {}), deadline);
        QVERIFY2(reply, reply ? "" : reply.error().message.c_str());
        bool fatal = true;
        auto out = readRunReply(*reply, fatal);
        QVERIFY(!out);
        QVERIFY(!fatal);
        QCOMPARE(out.error().kind, support::ErrorKind::Environment);
        QVERIFY(out.error().message.find("libcuda.so.1") != std::string::npos);
        QVERIFY(engine.running());  // it stays up for the next request
        // A request it cannot read is answered too, not a crash.
        Frame junk;
        junk.type = kRunRequest;
        junk.header = {{"kernel", 5}};
        auto answer = engine.call(junk, deadline);
        QVERIFY(answer);
        QVERIFY(!readRunReply(*answer, fatal));
        QVERIFY(engine.running());
    }

    void engineDeathIsNamed() {
        // An engine killed by a signal before it answers.
        EngineProcess engine({"/bin/sh", "-c", "sleep 0.2; kill -SEGV $$"});
        auto reply = engine.call(sample(), std::chrono::steady_clock::now() + std::chrono::seconds(30));
        QVERIFY(!reply);
        QVERIFY2(reply.error().message.find("killed by SIGSEGV") != std::string::npos, reply.error().message.c_str());
        QVERIFY(!engine.running());
    }

    void engineThatHangsIsStopped() {
        EngineProcess engine({"/bin/sh", "-c", "sleep 600"});
        QElapsedTimer t;
        t.start();
        auto reply = engine.call(sample(), std::chrono::steady_clock::now() + std::chrono::seconds(1));
        QVERIFY(!reply);
        QVERIFY(reply.error().message.find("did not answer in time") != std::string::npos);
        QCOMPARE(reply.error().kind, support::ErrorKind::Timeout);
        QCOMPARE(engine.lastFailure(), EngineProcess::Failure::Timeout);
        QVERIFY(t.elapsed() < 10000);
        QVERIFY(!engine.running());
    }

    void aCancelledCallStopsTheEngineAtOnce() {
        // Another thread cancels while the call waits on an engine that would take minutes.
        EngineProcess engine({"/bin/sh", "-c", "sleep 600"});
        CallCancel cancel;
        QElapsedTimer t;
        t.start();
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            cancel.cancel();
        });
        auto reply = engine.call(
            sample(), std::chrono::steady_clock::now() + std::chrono::seconds(60), [&](const Frame&) {}, &cancel);
        canceller.join();
        QVERIFY(!reply);
        QVERIFY(engine.lastSent() != std::chrono::steady_clock::time_point{});  // it had gone out
        QCOMPARE(engine.lastFailure(), EngineProcess::Failure::Cancelled);
        QVERIFY2(t.elapsed() < 5000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!engine.running());
        // A cancel given before the call: nothing is sent, and no engine is started for it.
        auto again = engine.call(sample(), std::chrono::steady_clock::now() + std::chrono::seconds(60), {}, &cancel);
        QVERIFY(!again);
        QCOMPARE(engine.lastFailure(), EngineProcess::Failure::Cancelled);
        QVERIFY(!engine.running());
    }

    // The PTX part crosses as a reply of its own type, marked partial, with the stages running
    // beside each announced stage.
    void ptxPartAndStagesAlongsideCross() {
        pipeline::CompileResult part;
        part.generation = 9;
        part.partial = true;
        part.ptx = ".version 8.0\n";
        part.diagnostics.push_back({"a.ll", 3, 1, nvvm::Severity::Warning, "w"});
        const auto frame = *decodeFrame(encodeFrame(makePtxReply(part)));
        QCOMPARE(frame.type, uint16_t(kPtxReply));
        auto back = readPtxReply(frame);
        QVERIFY(back);
        QVERIFY(back->partial);
        QCOMPARE(back->generation, uint64_t(9));
        QCOMPARE(back->ptx, part.ptx);
        QCOMPARE(back->diagnostics.size(), size_t(1));
        QVERIFY(!readCompileReply(frame));  // not the compile reply
        pipeline::CompileResult whole = part;
        whole.partial = false;
        QVERIFY(!readPtxReply(makePtxReply(whole)));  // a whole result is no PTX part
        QVERIFY(parseCompileRequest(makeCompileRequest({}, std::nullopt, true))->ptxFirst);
        QVERIFY(!parseCompileRequest(makeCompileRequest({}, std::nullopt))->ptxFirst);

        const pipeline::StageEvent linking{
            pipeline::StageId::LinkLtoCubin, {}, {pipeline::StageId::CompilePtx, pipeline::StageId::LinkLtoPtx}};
        auto stage = readProgress(*decodeFrame(encodeFrame(makeProgress(linking))));
        QVERIFY(stage);
        QVERIFY(*stage == linking);
        pipeline::Job job;
        job.modules = {{"a.ll", "x"}};
        const auto words = engine::describeCrash(job, linking, "SIGSEGV");
        QVERIFY2(words.find("libNVVM or nvJitLink crashed") != std::string::npos, words.c_str());
        QVERIFY2(words.find("linking LTO-IR to cubin (nvJitLink), and compiling PTX") != std::string::npos,
                 words.c_str());
    }

    // Whose fault an engine's end is: only a crash in a stage where libNVVM
    // reads the input blames the input; memory that ran out, a crash before the first stage
    // (loading the libraries) or in a step on what the toolkit made (a link, ptxas, nvdisasm)
    // says so and what to do instead. Timeouts never ask to change the input.
    void crashesAreBlamedOnWhatWasRunning() {
        using pipeline::StageId;
        pipeline::Job text, bitcode;
        text.modules = {{"a.ll", "x"}};
        bitcode.modules = {{"a.ll", "x"}, {"b.bc", std::string("BC\xc0\xde", 4)}};
        QVERIFY(bitcode.modules[1].isBitcode());
        const auto blamesInput = [](const std::string& w) {
            return w.find("Change or remove that input") != std::string::npos;
        };
        const auto blamesToolkit = [](const std::string& w) {
            return w.find("the toolkit is the likely cause, not the input") != std::string::npos;
        };
        using engine::CrashCause;
        struct Case {
            const pipeline::Job* job;
            std::optional<pipeline::StageEvent> stage;
            std::string how;
            CrashCause cause;
            std::string says;
        };
        const std::vector<Case> cases = {
            {&bitcode, pipeline::StageEvent{StageId::AddModule, "b.bc"}, "SIGSEGV", CrashCause::Input,
             "libNVVM crashed (SIGSEGV) while adding module b.bc for the modules a.ll, b.bc; the bitcode of b.bc is "
             "the likely cause"},
            {&text, pipeline::StageEvent{StageId::CompilePtx, {}}, "SIGSEGV", CrashCause::Input,
             "libNVVM crashed (SIGSEGV) while compiling PTX for the module a.ll."},
            {&text, std::nullopt, "SIGABRT: hostile", CrashCause::Toolkit,
             "the engine crashed (SIGABRT: hostile) while loading the toolkit, before it began on the module a.ll: "
             "nothing of the input had been read yet"},
            {&bitcode, pipeline::StageEvent{StageId::LinkLtoPtx, {}}, "SIGSEGV", CrashCause::Toolkit,
             "nvJitLink crashed (SIGSEGV) while linking LTO-IR to PTX (nvJitLink) for the modules a.ll, b.bc. It "
             "links the LTO-IR libNVVM made of the input"},
            {&text, pipeline::StageEvent{StageId::Disassemble, {}}, "SIGKILL", CrashCause::Toolkit,
             "the engine crashed (SIGKILL) while disassembling the cubin (nvdisasm) for the module a.ll."},
            {&text, pipeline::StageEvent{StageId::CompilePtx, {}}, "SIGABRT: LLVM ERROR: out of memory",
             CrashCause::Memory,
             "libNVVM ran out of memory (SIGABRT: LLVM ERROR: out of memory) while compiling PTX "
             "for the module a.ll: "},
            {&bitcode, pipeline::StageEvent{StageId::LinkLtoCubin, {}}, "SIGABRT: what():  std::bad_alloc",
             CrashCause::Memory, "nvJitLink ran out of memory"},
            // Damaged bitcode makes libNVVM ask for absurd sizes: while it reads bitcode, the
            // bitcode stays the suspect, and memory is named as the other possibility.
            {&bitcode, pipeline::StageEvent{StageId::AddModule, "b.bc"}, "SIGABRT: LLVM ERROR: out of memory",
             CrashCause::Input, "If that bitcode is sound, memory ran out instead: "},
        };
        for (const auto& c : cases) {
            const auto words = engine::describeCrash(*c.job, c.stage, c.how);
            QCOMPARE(int(engine::crashCause(*c.job, c.stage, c.how)), int(c.cause));
            QVERIFY2(words.find(c.says) != std::string::npos, words.c_str());
            QVERIFY2(blamesInput(words) == (c.cause == CrashCause::Input), words.c_str());
            QVERIFY2(blamesToolkit(words) == (c.cause == CrashCause::Toolkit), words.c_str());
            QVERIFY2(words.find("of modules") == std::string::npos, words.c_str());
        }
        const auto slowInput = engine::describeTimeout(text, pipeline::StageEvent{StageId::CompilePtx, {}}, 300);
        QVERIFY2(slowInput.find("did not finish compiling PTX for the module a.ll within 300 s") != std::string::npos &&
                     slowInput.find("raise the time limit of 300 s") != std::string::npos &&
                     !blamesToolkit(slowInput) && !blamesInput(slowInput),
                 slowInput.c_str());
        const auto hungLink = engine::describeTimeout(text, pipeline::StageEvent{StageId::LinkLtoPtx, {}}, 5);
        QVERIFY2(
            hungLink.find("if nvJitLink hangs, the toolkit is the likely cause, not the input") != std::string::npos &&
                !blamesInput(hungLink),
            hungLink.c_str());
        const auto hungLoad = engine::describeTimeout(text, std::nullopt, 5);
        QVERIFY2(hungLoad.find("did not finish loading the toolkit within 5 s, before it began on the module a.ll") !=
                         std::string::npos &&
                     blamesToolkit(hungLoad),
                 hungLoad.c_str());
    }

    void stagesCrossByTheirNames() {
        for (auto id : {pipeline::StageId::AddModule, pipeline::StageId::CompilePtx, pipeline::StageId::LinkLtoCubin}) {
            auto back = readProgress(*decodeFrame(encodeFrame(makeProgress({id, "b.bc"}))));
            QVERIFY(back);
            QVERIFY(*back == (pipeline::StageEvent{id, "b.bc"}));
        }
        QCOMPARE(pipeline::stageWords({pipeline::StageId::AddModule, "b.bc"}), std::string("adding module b.bc"));
        QCOMPARE(pipeline::stageWords({pipeline::StageId::CompilePtx, {}}), std::string("compiling PTX"));
        // A stage this side does not know is a protocol error, not a blank status.
        Frame unknown;
        unknown.type = kProgress;
        unknown.header = {{"stage", "compiling PTX"}};
        auto bad = readProgress(unknown);
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.find("unknown stage") != std::string::npos, bad.error().message.c_str());
        unknown.header = {{"stage", 3}};
        QVERIFY(!readProgress(unknown));

        // Stage timings in a reply too.
        pipeline::CompileResult r;
        r.stages = {{pipeline::StageId::CompilePtx, 0.25}, {pipeline::StageId::LinkLtoPtx, 0.5}};
        auto reply = makeCompileReply(r);
        auto read = readCompileReply(reply);
        QVERIFY(read);
        QCOMPARE(read->stageSeconds(pipeline::StageId::LinkLtoPtx), 0.5);
        QVERIFY(!read->findStage(pipeline::StageId::Verify));
        reply.header["result"]["stages"][0]["name"] = "compile ptx";
        auto wrong = readCompileReply(reply);
        QVERIFY(!wrong);
        QVERIFY2(wrong.error().message.find("unknown stage") != std::string::npos, wrong.error().message.c_str());
        // A timeout keeps its kind across the protocol.
        bool fatal = false;
        const auto timedOut =
            readRunReply(makeRunReply(support::makeError(support::ErrorKind::Timeout, "slow"), true), fatal);
        QVERIFY(!timedOut);
        QCOMPARE(timedOut.error().kind, support::ErrorKind::Timeout);
    }

    void sassCrossesWithItsCountsAndSource() {
        pipeline::CompileResult r;
        r.ptx = ".version 9.0\n";
        r.sass = std::string("\t.target\tsm_90\n        /*0000*/                   EXIT ;\n") + std::string(3, '\0') +
                 "\xff";
        r.sassFunctions = {{"k", 12, true}, {"$k$helper", 3, false}};
        r.sassSource = "nvdisasm -c of the LTO-linked cubin (nvJitLink -arch=sm_90 -lto)";
        r.ltoIr = {{"a.ll", "A"}, {"b.ll", "B"}};
        auto read = readCompileReply(*decodeFrame(encodeFrame(makeCompileReply(r))));
        QVERIFY2(read, read ? "" : read.error().message.c_str());
        QCOMPARE(read->sass, r.sass);  // byte for byte, as a blob
        QCOMPARE(read->sassFunctions.size(), size_t(2));
        QCOMPARE(read->sassFunctions[0].name, std::string("k"));
        QCOMPARE(read->sassFunctions[0].instructions, 12);
        QVERIFY(read->sassFunctions[0].isEntry);
        QCOMPARE(read->sassFunctions[1].name, std::string("$k$helper"));
        QVERIFY(!read->sassFunctions[1].isEntry);
        QCOMPARE(read->sassSource, r.sassSource);
        QVERIFY(read->sassUnavailable.empty());
        QCOMPARE(read->ltoIr.size(), size_t(2));  // the blobs after the SASS are still the LTO-IR
        QCOMPARE(read->ltoIr[1].bytes, std::string("B"));
        QCOMPARE(read->ptx, r.ptx);

        // The listing ahead of the late reply: its SASS fields into the plain result, the rest kept.
        pipeline::CompileResult into;
        into.ptx = r.ptx;
        into.sassPending = true;
        QVERIFY(readSassReply(*decodeFrame(encodeFrame(makeSassReply(r))), into));
        QCOMPARE(into.sass, r.sass);
        QCOMPARE(into.sassFunctions.size(), size_t(2));
        QCOMPARE(into.sassSource, r.sassSource);
        QVERIFY(!into.sassPending);
        QCOMPARE(into.ptx, r.ptx);
        QVERIFY(!readSassReply(makeCompileReply(r), into));  // another kind of frame is refused
        pipeline::Job job;
        job.outputs = pipeline::kSass;
        auto asked = parseCompileRequest(makeCompileRequest(job, std::nullopt, false, true));
        QVERIFY(asked && asked->sassFirst && !asked->ptxFirst);
        QVERIFY(!parseCompileRequest(makeCompileRequest(job, std::nullopt))->sassFirst);

        pipeline::CompileResult none;
        none.sassUnavailable = "nvdisasm not found: … `pip install nvidia-cuda-nvdisasm` …";
        auto readNone = readCompileReply(*decodeFrame(encodeFrame(makeCompileReply(none))));
        QVERIFY(readNone);
        QCOMPARE(readNone->sassUnavailable, none.sassUnavailable);
        QVERIFY(readNone->sass.empty());
    }

    void engineCommandFromTheEnvironment() {
        qputenv("NVPG_ENGINE", "inprocess");
        QVERIFY(engineCommand("engine").empty());
        qputenv("NVPG_ENGINE", "/usr/bin/nvpg  engine");
        QCOMPARE(engineCommand("x"), (std::vector<std::string>{"/usr/bin/nvpg", "engine"}));
        qunsetenv("NVPG_ENGINE");
        const auto self = engineCommand("engine");
        QCOMPARE(self.size(), size_t(2));
        QVERIFY(self[0].find("tst_core_protocol") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestProtocol)
#include "tst_protocol.moc"
