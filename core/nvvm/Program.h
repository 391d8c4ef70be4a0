#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/nvvm/Diagnostic.h"
#include "core/nvvm/Module.h"
#include "core/nvvm/Options.h"
#include "core/support/Result.h"
#include "core/toolkit/NvvmApi.h"

namespace nvpg::nvvm {

// What one compile or verify call gave back.
struct CompileOutput {
    bool ok = false;
    nvvmResult code = NVVM_SUCCESS;
    std::string result;  // PTX text, or LTO-IR bytes with -gen-lto; empty for verify
    std::string log;     // libNVVM's log as it was
    std::vector<Diagnostic> diagnostics;
    double seconds = 0;
    bool addedLibdevice = false;  // this call was the one that added libdevice
};

// One nvvmProgram. Every call that touches the handle holds the Program's mutex, so one Program
// can be compiled from many threads. libdevice, when asked for, is added lazily on the first
// compile and never again, however many compiles follow: modules cannot be removed from an
// nvvmProgram, and adding libdevice twice is an error in libNVVM. A verify before that compile
// does not add it: verify, then libdevice, then compile, as cuda.core does.
class Program {
public:
    // `api` is copied: tests hand in a table with counting or failing entries.
    static support::Result<std::unique_ptr<Program>> create(const toolkit::NvvmApi& api);
    ~Program();
    Program(const Program&) = delete;
    Program& operator=(const Program&) = delete;

    // Adds a module (eagerly, or lazily when module.lazy). Order matters to libNVVM.
    support::Status addModule(const Module& module);
    // Opt in to libdevice; the bitcode is added on the next compile.
    void useLibdevice(std::shared_ptr<const std::string> bitcode, std::string name = "libdevice.10.bc");

    CompileOutput compile(const Options& options);
    // libNVVM's verifier over the modules added so far (and libdevice once a compile added it).
    // A module libNVVM cannot read (a datalayout it cannot parse, damaged bitcode) is not given
    // to the verifier, which ends the process on it (CUDA 13.0): the verify then fails with what
    // a compile says of it ("Unknown specifier in datalayout string", "Invalid abbrev number").
    CompileOutput verify(const Options& options);

    bool libdeviceAdded() const;
    std::vector<std::string> moduleNames() const;

private:
    explicit Program(const toolkit::NvvmApi& api) : api_(api) {}
    CompileOutput run(const Options& options, bool compile);
    bool ensureLibdevice(CompileOutput& out);
    // The first module a compile of its own could not read (then the verifier is not run), if any.
    std::optional<std::string> unreadableModule();
    std::string programLog();

    toolkit::NvvmApi api_;
    nvvmProgram handle_ = nullptr;
    mutable std::mutex mu_;
    std::vector<Module> modules_;        // kept for placing verifier messages (text modules only)
    std::vector<Module> unreadBitcode_;  // bitcode modules not yet read by unreadableModule()
    std::optional<std::string> unreadable_;
    bool anyEager_ = false;
    std::shared_ptr<const std::string> libdevice_;
    std::string libdeviceName_;
    bool libdeviceAdded_ = false;
};

// libNVVM names no module on some errors: bitcode it cannot read ("Invalid abbrev number",
// "Invalid encoding"), "Unknown specifier in datalayout string", and of two modules that define
// one symbol it names only the second. After a failed compile or verify of `modules`, gives each
// such error of `out` its module: the one that alone fails with the same message (each is tried
// in a Program of its own, with no options, so that an option error is matched by none), else
// "in one of" the modules; a symbol defined twice is said with both modules that define it.
// `verifier`: `out` came from verify, whose messages are matched by verifying each module alone.
void nameModulesOfErrors(CompileOutput& out, const std::vector<Module>& modules, const toolkit::NvvmApi& api,
                         bool verifier = false);

}  // namespace nvpg::nvvm
