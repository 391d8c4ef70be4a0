// nvvm::Program against the real libNVVM: libdevice exactly once, across compiles and threads;
// linking across modules; bitcode; diagnostics placed on the right module, line and column.
#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <thread>

#include <fmt/format.h>

#include "PlainNvvm.h"
#include "TestSupport.h"
#include "core/nvvm/IrScan.h"
#include "core/nvvm/Program.h"

using namespace nvpg;

namespace {

// Counting wrappers over the real entry points: the function table makes this possible without
// a fake library.
std::atomic<int> g_lazyLibdeviceAdds{0};
std::atomic<int> g_lazyAdds{0};
nvvmResult (*g_realLazyAdd)(nvvmProgram, const char*, size_t, const char*) = nullptr;

nvvmResult countingLazyAdd(nvvmProgram p, const char* buf, size_t size, const char* name) {
    ++g_lazyAdds;
    if (std::string_view(name) == "libdevice.10.bc") ++g_lazyLibdeviceAdds;
    return g_realLazyAdd(p, buf, size, name);
}

nvvmResult failingCompile(nvvmProgram, int, const char**) {
    return NVVM_ERROR_COMPILATION;
}

// The compiles a Program makes, counted: a verify that reads a module alone first is one.
std::atomic<int> g_compiles{0};
nvvmResult (*g_realCompile)(nvvmProgram, int, const char**) = nullptr;
nvvmResult countingCompile(nvvmProgram p, int n, const char** flags) {
    ++g_compiles;
    return g_realCompile(p, n, flags);
}

std::unique_ptr<nvvm::Program> makeProgram(const toolkit::NvvmApi& api) {
    auto p = nvvm::Program::create(api);
    if (!p) qFatal("%s", p.error().message.c_str());
    return std::move(*p);
}

nvvm::Options arch90() {
    nvvm::Options o;
    o.arch = "compute_90";
    return o;
}

}  // namespace

class TestProgram : public QObject {
    Q_OBJECT

private:
    toolkit::NvvmApi countingApi() {
        auto api = test::realToolkit()->nvvm();
        g_realLazyAdd = api.lazyAddModuleToProgram;
        api.lazyAddModuleToProgram = countingLazyAdd;
        g_lazyAdds = 0;
        g_lazyLibdeviceAdds = 0;
        return api;
    }
    std::shared_ptr<const std::string> libdevice() { return *test::realToolkit()->libdevice(); }
    // The fixture as bitcode made by llvm-as-14 now, or "" when llvm-as-14 is not installed.
    std::string assemble(const char* name) {
        const auto llvmAs = QStandardPaths::findExecutable("llvm-as-14");
        if (llvmAs.isEmpty()) return {};
        QProcess as;
        as.start(llvmAs, {QString::fromStdString((test::dataDir() / "ir" / name).string()), "-o", "-"});
        if (!as.waitForFinished(30000) || as.exitCode() != 0) qFatal("llvm-as-14 failed on %s", name);
        return as.readAllStandardOutput().toStdString();
    }

private slots:
    void libdeviceAddedOnceOverTwoCompiles() {
        auto program = makeProgram(countingApi());
        QVERIFY(program->addModule(test::irFixture("sinf.ll")));
        program->useLibdevice(libdevice());
        QCOMPARE(g_lazyLibdeviceAdds.load(), 0);  // lazily: not before the first compile

        const auto first = program->compile(arch90());
        QVERIFY2(first.ok, first.log.c_str());
        QVERIFY(first.addedLibdevice);
        const auto second = program->compile(arch90());
        QVERIFY2(second.ok, second.log.c_str());
        QVERIFY(!second.addedLibdevice);
        QCOMPARE(g_lazyLibdeviceAdds.load(), 1);
        QCOMPARE(second.result, first.result);
    }

    void libdeviceAddedOnceFromEightThreads() {
        auto program = makeProgram(countingApi());
        QVERIFY(program->addModule(test::irFixture("sinf.ll")));
        program->useLibdevice(libdevice());
        constexpr int kThreads = 8, kCompiles = 50;
        std::vector<std::vector<std::string>> ptx(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                for (int i = 0; i < kCompiles; ++i) {
                    auto out = program->compile(arch90());
                    ptx[t].push_back(out.ok ? out.result : "FAILED: " + out.log);
                }
            });
        for (auto& th : threads) th.join();
        QCOMPARE(g_lazyLibdeviceAdds.load(), 1);
        QCOMPARE(g_lazyAdds.load(), 1);
        const auto& reference = ptx[0][0];
        QVERIFY(reference.find(".entry sin_kernel") != std::string::npos);
        for (const auto& perThread : ptx) {
            QCOMPARE(int(perThread.size()), kCompiles);
            for (const auto& p : perThread) QCOMPARE(p, reference);
        }
    }

    void libdeviceIsLinkedIntoThePtx() {
        auto withLib = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(withLib->addModule(test::irFixture("sinf.ll")));
        withLib->useLibdevice(libdevice());
        const auto linked = withLib->compile(arch90());
        QVERIFY2(linked.ok, linked.log.c_str());
        QVERIFY(linked.result.find(".extern .func __nv_") == std::string::npos);

        // Without libdevice the call stays an unresolved extern: the check above can fail.
        auto without = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(without->addModule(test::irFixture("sinf.ll")));
        const auto unlinked = without->compile(arch90());
        QVERIFY2(unlinked.ok, unlinked.log.c_str());
        QVERIFY(unlinked.result.find(".extern .func  (.param .b32 func_retval0) __nv_sinf") != std::string::npos ||
                unlinked.result.find(".extern .func __nv_sinf") != std::string::npos ||
                unlinked.result.find("__nv_sinf") != std::string::npos);
        QVERIFY(unlinked.result.find(".extern .func") != std::string::npos);
    }

    void kernelCallsFunctionDefinedInAnotherModule() {
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("caller.ll")));
        QVERIFY(program->addModule(test::irFixture("callee.ll")));
        const auto out = program->compile(arch90());
        QVERIFY2(out.ok, out.log.c_str());
        QVERIFY(out.result.find(".entry caller") != std::string::npos);
        QVERIFY(out.result.find(".extern") == std::string::npos);  // scale() was linked in
        QVERIFY(out.result.find("mul.f32") != std::string::npos || out.result.find("mul.rn.f32") != std::string::npos);
    }

    void lazyModuleSuppliesOnlyWhatIsUsed() {
        const auto bc = assemble("callee.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed (Debian package llvm-14)");
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("caller.ll")));
        QVERIFY(program->addModule({"callee.bc", bc, /*lazy=*/true}));
        const auto out = program->compile(arch90());
        QVERIFY2(out.ok, out.log.c_str());
        QVERIFY(out.result.find(".entry caller") != std::string::npos);
        QVERIFY(out.result.find(".extern") == std::string::npos);
    }

    void lazyTextModuleIsRefusedWithTheReason() {
        // libNVVM would accept the add and then fail the compile with an empty log.
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("caller.ll")));
        const auto st = program->addModule(test::irFixture("callee.ll", /*lazy=*/true));
        QVERIFY(!st);
        QVERIFY(st.error().message.find("callee.ll") != std::string::npos);
        QVERIFY(st.error().message.find("bitcode") != std::string::npos);
    }

    void bitcodeGivesTheSamePtxAsText() {
        nvvm::Module bitcode{"sinf.bc", assemble("sinf.ll"), false};
        if (bitcode.bytes.empty()) QSKIP("llvm-as-14 is not installed (Debian package llvm-14)");
        QVERIFY(bitcode.isBitcode());

        auto fromText = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(fromText->addModule(test::irFixture("sinf.ll")));
        fromText->useLibdevice(libdevice());
        auto fromBitcode = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(fromBitcode->addModule(bitcode));
        fromBitcode->useLibdevice(libdevice());
        const auto a = fromText->compile(arch90());
        const auto b = fromBitcode->compile(arch90());
        QVERIFY2(a.ok && b.ok, (a.log + b.log).c_str());
        QCOMPARE(b.result, a.result);
    }

    void brokenModuleIsPlacedOnItsLine() {
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("caller.ll")));
        QVERIFY(program->addModule(test::irFixture("broken.ll")));
        const auto out = program->compile(arch90());
        QVERIFY(!out.ok);
        QCOMPARE(out.code, NVVM_ERROR_COMPILATION);
        QCOMPARE(int(out.diagnostics.size()), 1);
        const auto& d = out.diagnostics[0];
        QCOMPARE(d.module, std::string("broken.ll"));
        QCOMPARE(d.line, 8);
        QCOMPARE(d.column, 8);  // "fad" starts in column 8 of "  %b = fad float ..."
        QCOMPARE(d.severity, nvvm::Severity::Error);
        QVERIFY(d.message.find("expected instruction opcode") != std::string::npos);
        QVERIFY(out.log.find("broken.ll (8, 7)") != std::string::npos);  // raw log kept as it was
    }

    void verifierMessageIsPlacedOnTheQuotedInstruction() {
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("verify-alloca.ll")));
        const auto out = program->verify(arch90());
        QVERIFY(!out.ok);
        QCOMPARE(out.code, NVVM_ERROR_INVALID_IR);
        QVERIFY(!out.diagnostics.empty());
        const auto& d = out.diagnostics[0];
        QCOMPARE(d.module, std::string("verify-alloca.ll"));
        QCOMPARE(d.line, 8);
        QCOMPARE(d.column, 3);
    }

    // Lesson 2's step 3 as a learner may leave it: @tile moved to addrspace(3) with its
    // zeroinitializer kept. libNVVM's verifier names the global and says why two lines below;
    // the diagnostic says why on its first line, keeps the quoted IR, and sits on @tile's
    // definition. The raw log is as libNVVM wrote it.
    void sharedInitializerIsPlacedOnTheGlobalWithItsReason() {
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("caller.ll")));
        QVERIFY(program->addModule(test::irFixture("shared-init.ll")));
        const auto out = program->verify(arch90());
        QVERIFY(!out.ok);
        QCOMPARE(int(out.diagnostics.size()), 1);
        const auto& d = out.diagnostics[0];
        QCOMPARE(d.module, std::string("shared-init.ll"));
        QCOMPARE(d.line, 19);  // @tile = internal addrspace(3) global [256 x float] zeroinitializer
        QCOMPARE(d.column, 1);
        QVERIFY2(d.message.starts_with("Global Variable `tile': Shared variables can't be initialized\n"),
                 d.message.c_str());
        QVERIFY2(d.message.find("context: @tile = internal addrspace(3)") != std::string::npos, d.message.c_str());
        QVERIFY2(out.log.find("Error: : Global Variable `tile': \n  context: @tile") != std::string::npos,
                 out.log.c_str());
        QVERIFY(out.log.find("\n  Shared variables can't be initialized\n") != std::string::npos);
    }

    // A function's verifier message: placed on the instruction it quotes after "context:".
    void verifierContextPlacesAFunctionsMessage() {
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule(test::irFixture("verify-atomic-i8.ll")));
        const auto out = program->verify(arch90());
        QVERIFY(!out.ok);
        QCOMPARE(int(out.diagnostics.size()), 1);
        const auto& d = out.diagnostics[0];
        QCOMPARE(d.module, std::string("verify-atomic-i8.ll"));
        QCOMPARE(d.line, 8);
        QCOMPARE(d.column, 3);
        QVERIFY2(d.message.starts_with("Function `count' Basic Block `entry': Atomic operations on non-i32/i64/i128 "
                                       "types are not supported\n"),
                 d.message.c_str());
    }

    // libNVVM's verifier ends the process on a datalayout LLVM cannot parse (CUDA 13.0), and
    // every compile now verifies first: the verify fails with the compile's words instead.
    void verifyOfAnUnreadableLayoutFailsWithoutEndingTheProcess() {
        std::string ir = test::readText(test::dataDir() / "ir/sinf.ll");
        ir.insert(ir.find("target datalayout = \"") + 21, "q7-");
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule({"layout.ll", ir, false}));
        const auto out = program->verify(arch90());
        QVERIFY(!out.ok);
        QVERIFY(out.result.empty());
        QVERIFY2(out.log.find("Unknown specifier in datalayout string") != std::string::npos, out.log.c_str());
        // A readable layout is verified as before.
        auto good = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(good->addModule(test::irFixture("verify-layout.ll")));
        const auto refused = good->verify(arch90());
        QVERIFY(!refused.ok);
        QVERIFY2(refused.log.find("DataLayoutError") != std::string::npos, refused.log.c_str());
    }

    // The layout every example and numba module uses (and any LLVM surely parses) is not read
    // alone before the verifier: that costs a compile of its own on every process's first
    // verify. A layout that is not surely readable still is, once per process.
    void aReadableLayoutIsNotProbedFirst() {
        auto api = test::realToolkit()->nvvm();
        g_realCompile = api.compileProgram;
        api.compileProgram = countingCompile;
        g_compiles = 0;
        auto program = makeProgram(api);
        QVERIFY(program->addModule(test::irFixture("sinf.ll")));
        QVERIFY(program->verify(arch90()).ok);
        QCOMPARE(g_compiles.load(), 0);

        // Valid for LLVM, but outside what dataLayoutParses vouches for (a non-integral address
        // space): read alone once, then verified as before.
        std::string ir = test::readText(test::dataDir() / "ir/sinf.ll");
        ir.insert(ir.find("target datalayout = \"") + 21, "ni:7-");
        auto unusual = makeProgram(api);
        QVERIFY(unusual->addModule({"unusual.ll", ir, false}));
        const auto out = unusual->verify(arch90());
        QVERIFY2(out.ok, out.log.c_str());
        QCOMPARE(g_compiles.load(), 1);
    }

    // What dataLayoutParses vouches for, libNVVM's verifier reads without ending the process (it
    // may still refuse it for NVVM, as a DataLayoutError); what it does not, it leaves to the
    // probe.
    void dataLayoutParsesVouchesOnlyForWhatLibnvvmReads_data() {
        QTest::addColumn<QString>("layout");
        QTest::addColumn<bool>("vouched");
        QTest::newRow("examples") << "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-"
                                     "f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
                                  << true;
        QTest::newRow("short") << "e-i64:64-i128:128-v16:16-v32:32-n16:32:64" << true;
        QTest::newRow("32-bit pointers") << "e-p:32:32:32-i64:64-n16:32" << true;
        QTest::newRow("address space, index size") << "e-p3:32:32:32:32-p:64:64-i64:64" << true;
        QTest::newRow("aggregate, stack, mangling") << "e-m:e-a:0:64-S128-f80:128" << true;
        QTest::newRow("big-endian (left to the probe)") << "E-i64:64" << false;
        QTest::newRow("unknown specifier") << "q7-e-i64:64" << false;
        QTest::newRow("alignment not a power of two") << "e-i64:48" << false;
        QTest::newRow("alignment in bits not bytes") << "e-i64:12" << false;
        QTest::newRow("preferred below ABI") << "e-i64:64:32" << false;
        QTest::newRow("pointer without alignment") << "e-p:64" << false;
        QTest::newRow("zero width") << "e-i0:8" << false;
        QTest::newRow("empty specifier") << "e--i64:64" << false;
        QTest::newRow("not a number") << "e-i64:sixty" << false;
        QTest::newRow("unknown mangling") << "e-m:q" << false;
        QTest::newRow("empty") << "" << false;
    }
    void dataLayoutParsesVouchesOnlyForWhatLibnvvmReads() {
        QFETCH(QString, layout);
        QFETCH(bool, vouched);
        QCOMPARE(nvvm::dataLayoutParses(layout.toStdString()), vouched);
        if (!vouched) return;
        const auto module = fmt::format(
            "target datalayout = \"{}\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n!nvvmir.version "
            "= !{{!0}}\n"
            "!0 = !{{i32 2, i32 0}}\n",
            layout.toStdString());
        // The verifier itself, with nothing before it: were the layout unreadable, this process
        // would end here.
        const auto& api = test::realToolkit()->nvvm();
        nvvmProgram p = nullptr;
        QCOMPARE(api.createProgram(&p), NVVM_SUCCESS);
        QCOMPARE(api.addModuleToProgram(p, module.data(), module.size(), "layout.ll"), NVVM_SUCCESS);
        const char* flags[] = {"-arch=compute_90"};
        const auto verified = api.verifyProgram(p, 1, flags);
        size_t size = 0;
        std::string log;
        if (api.getProgramLogSize(p, &size) == NVVM_SUCCESS && size > 1) {
            log.resize(size);
            api.getProgramLog(p, log.data());
        }
        api.destroyProgram(&p);
        QVERIFY2(log.find("datalayout string") == std::string::npos, log.c_str());
        QVERIFY2(verified == NVVM_SUCCESS || log.find("DataLayoutError") != std::string::npos, log.c_str());
    }

    // Verify, then libdevice, then compile: a verify does not add libdevice, the compile does.
    void verifyLeavesLibdeviceToTheCompile() {
        auto program = makeProgram(countingApi());
        QVERIFY(program->addModule(test::irFixture("sinf.ll")));
        program->useLibdevice(libdevice());
        QVERIFY(program->verify(arch90()).ok);
        QVERIFY(!program->libdeviceAdded());
        QCOMPARE(g_lazyLibdeviceAdds.load(), 0);
        QVERIFY(program->compile(arch90()).ok);
        QVERIFY(program->verify(arch90()).ok);
        QVERIFY(program->compile(arch90()).ok);
        QCOMPARE(g_lazyLibdeviceAdds.load(), 1);
    }

    void allLazyProgramIsExplained() {
        const auto bc = assemble("sinf.ll");
        if (bc.empty()) QSKIP("llvm-as-14 is not installed (Debian package llvm-14)");
        auto program = makeProgram(test::realToolkit()->nvvm());
        QVERIFY(program->addModule({"sinf.bc", bc, /*lazy=*/true}));
        const auto out = program->compile(arch90());
        QVERIFY(!out.ok);
        QCOMPARE(int(out.diagnostics.size()), 1);
        QVERIFY(out.diagnostics[0].message.find("marked lazy") != std::string::npos);
        QVERIFY(out.diagnostics[0].message.find("Unmark") != std::string::npos);
        QCOMPARE(out.diagnostics[0].module, std::string("sinf.bc"));
    }

    void emptyProgramIsExplained() {
        auto program = makeProgram(test::realToolkit()->nvvm());
        const auto out = program->compile(arch90());
        QVERIFY(!out.ok);
        QVERIFY(out.diagnostics.at(0).message.find("no modules") != std::string::npos);
    }

    void sameProgramCompilesAgainWithOtherOptions() {
        const auto& api = test::realToolkit()->nvvm();
        auto program = makeProgram(api);
        QVERIFY(program->addModule(test::irFixture("sinf.ll")));
        program->useLibdevice(libdevice());
        const auto o3 = program->compile(arch90());
        nvvm::Options o0 = arch90();
        o0.opt = 0;
        const auto opt0 = program->compile(o0);
        nvvm::Options lto = arch90();
        lto.genLto = true;
        const auto ltoir = program->compile(lto);
        const auto again = program->compile(arch90());
        QVERIFY(o3.ok && opt0.ok && ltoir.ok && again.ok);
        QVERIFY(opt0.result != o3.result);
        QVERIFY(ltoir.result.find(".entry") == std::string::npos);  // LTO-IR is not PTX
        QVERIFY(!ltoir.result.empty());
        QCOMPARE(again.result, o3.result);  // an LTO compile in between changes nothing

        // And each equals a fresh plain-libNVVM program with the same options.
        const std::vector<test::PlainModule> plain = {{"sinf.ll", test::irFixture("sinf.ll").bytes, false},
                                                      {"libdevice.10.bc", *libdevice(), true}};
        QCOMPARE(o3.result, test::plainCompile(api, plain, {"-arch=compute_90"}));
        QCOMPARE(opt0.result, test::plainCompile(api, plain, {"-arch=compute_90", "-opt=0"}));
    }

    void failedCallWithoutLogIsStillExplained() {
        auto api = test::realToolkit()->nvvm();
        api.compileProgram = failingCompile;
        auto program = makeProgram(api);
        QVERIFY(program->addModule(test::irFixture("sinf.ll")));
        const auto out = program->compile(arch90());
        QVERIFY(!out.ok);
        QCOMPARE(int(out.diagnostics.size()), 1);
        QVERIFY(out.diagnostics[0].message.find("NVVM_ERROR_COMPILATION") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestProgram)
#include "tst_program.moc"
