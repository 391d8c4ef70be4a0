#include "cli/ManPage.h"

#include <cctype>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "core/support/Text.h"

namespace nvpg::cli {

namespace {

// One UTF-8 character of `s` at `i`: its code point, and `i` moved past it. A broken sequence
// is U+FFFD, one byte long.
char32_t nextCodePoint(std::string_view s, size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || i + length > s.size()) {
        ++i;
        return U'\uFFFD';
    }
    char32_t cp = length == 1 ? c : c & (0x7F >> length);
    for (int k = 1; k < length; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b >> 6) != 0x2) {
            ++i;
            return U'\uFFFD';
        }
        cp = (cp << 6) | (b & 0x3F);
    }
    i += length;
    return cp;
}

// roff for a name or type name typed as it is written: every hyphen is a minus sign.
std::string literal(std::string_view text) {
    std::string out;
    for (const char c : roffText(text)) {
        if (c == '-' && (out.empty() || out.back() != '\\'))
            out += "\\-";
        else
            out += c;
    }
    return out;
}

// A line of text (not a request): one that starts with a dot or an apostrophe would be read as
// a request, so it starts with the zero-width \&.
std::string textLine(std::string_view roff) {
    if (roff.empty()) return "\n";
    return (roff.front() == '.' || roff.front() == '\'' ? "\\&" : "") + std::string(roff) + "\n";
}

// The option's names as they are typed: "\fB\-o\fR, \fB\-\-output\fR", or a positional's
// "\fIINPUT\fR".
std::string optionNames(const CLI::Option& opt) {
    if (!opt.nonpositional()) return "\\fI" + literal(opt.get_name(true)) + "\\fR";
    std::vector<std::string> names;
    for (const auto& s : opt.get_snames()) names.push_back("\\fB" + literal("-" + s) + "\\fR");
    for (const auto& l : opt.get_lnames()) names.push_back("\\fB" + literal("--" + l) + "\\fR");
    return support::join(names, ", ");
}

// An option's paragraph: its names and argument as --help writes them (the type name, "..."
// for one that repeats, whether it is required), then its description and what else the table
// says about it, a line each.
std::string optionEntry(const CLI::Option& opt) {
    std::string tag = optionNames(opt);
    if (opt.get_type_size() != 0) {
        if (const auto type = opt.get_type_name(); !type.empty()) tag += " \\fI" + literal(type) + "\\fR";
        if (opt.get_expected_max() >= CLI::detail::expected_max_vector_size) tag += " .\\|.\\|.";
    }
    if (opt.get_required()) tag += " (required)";
    std::vector<std::string> notes;
    if (const auto d = opt.get_default_str(); !d.empty()) notes.push_back("Default: " + d + ".");
    for (const auto* other : opt.get_excludes()) notes.push_back("Not with " + other->get_name() + ".");
    for (const auto* other : opt.get_needs()) notes.push_back("Needs " + other->get_name() + ".");
    if (const auto env = opt.get_envname(); !env.empty()) notes.push_back("Also from $" + env + ".");
    std::string out = ".TP\n" + textLine(tag) + textLine(roffText(opt.get_description()));
    for (const auto& note : notes) out += ".br\n" + textLine(roffText(note));
    return out;
}

std::vector<const CLI::App*> commands(const CLI::App& app) {
    return app.get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty() && !sub->get_disabled(); });
}

// "\fBnvpg\fR [\fIglobal options\fR] \fBcompile\fR [\fIoptions\fR] \fIINPUT\fR...": a command's
// synopsis, from its options and positionals.
std::string synopsis(const CLI::App& sub) {
    std::string line = "\\fBnvpg\\fR [\\fIglobal options\\fR] \\fB" + literal(sub.get_name()) + "\\fR";
    const auto options =
        sub.get_options([&](const CLI::Option* o) { return o->nonpositional() && o != sub.get_help_ptr(); });
    if (!options.empty()) line += " [\\fIoptions\\fR]";
    for (const auto* p : sub.get_options([](const CLI::Option* o) { return !o->nonpositional(); })) {
        std::string arg = "\\fI" + literal(p->get_name(true)) + "\\fR";
        if (p->get_expected_max() >= CLI::detail::expected_max_vector_size) arg += ".\\|.\\|.";
        line += " " + (p->get_required() ? arg : "[" + arg + "]");
    }
    return line;
}

// What the table cannot say about a command: how its parts work together, its exit statuses.
const std::map<std::string, std::string, std::less<>>& commandNotes() {
    static const std::map<std::string, std::string, std::less<>> notes = {
        {"compile", R"roff(Writes the chosen output (\fB\-\-emit\fR, PTX by default) to standard output, or to
the file \fB\-o\fR names; LTO\-IR and cubins are binary and need \fB\-o\fR or a pipe.
A workspace brings its modules, options, libdevice and verify choices, and the options given
here apply over them.
Diagnostics go to standard error as \fIFILE\fR:\fILINE\fR:\fICOL\fR: \fBerror:\fR \fIMESSAGE\fR.
An output file that is one of the inputs (by identity, links followed) is refused, the
per\-module LTO\-IR files that \fB\-\-lto\-mode separate\fR derives from \fB\-o\fR too, and a
read\-only one is replaced only with \fB\-\-force\fR.
)roff"},
        {"run", R"roff(Compiles as \fBcompile\fR does, then launches \fB\-\-kernel\fR with \fB\-\-grid\fR,
\fB\-\-block\fR and one \fB\-\-arg\fR per kernel parameter, in order, and prints the kernel time
(the median of \fB\-\-repeat\fR), the bytes moved and the first and last values of each buffer.
A workspace's saved run configuration (\fB\-\-config\fR, else its first) supplies what the command
line does not.
The arguments are checked against the kernel's PTX parameters before the GPU is touched.
Exit status 3 when there is no usable GPU or CUDA driver.
)roff"},
        {"compare", R"roff(Compiles the same inputs twice: side A with the common options and then
\fB\-\-a\fR's, side B with \fB\-\-b\fR's; each side may name its own toolkit with
\fB\-\-cuda\-path\fR, and compiles in an engine process of its own.
Writes the unified diff of the chosen output, then the verdict and a table of each kernel's
registers, spills, SASS instructions and PTX lines.
Exit status 0 when both sides compiled, identical or not; 1 when a side failed (standard error
names it); 2 for a bad option, naming the side.
)roff"},
        {"explain", R"roff(Prints the built\-in documentation of each word (the text the app shows on hover);
a word with modifiers is read as its entry plus each modifier's meaning. Archs (\fBcompute_90a\fR,
or their SASS name \fBsm_90a\fR) and libNVVM options as they are written (\fBftz\fR, \fB\-ftz=1\fR,
\fB\-opt=0\fR) have entries too.
Exit status 1 when a word has no entry; the nearest known words, close in spelling, go to standard error.
)roff"},
        {"occupancy", R"roff(Compiles as \fBcompile\fR does, then prints each kernel's theoretical occupancy at
\fB\-\-block\fR threads with \fB\-\-shared\fR bytes of dynamic shared memory: its registers and static
shared memory (ptxas' figures for the PTX), the blocks and warps that fit on one SM, the occupancy
(resident warps over the SM's maximum) and what limits it (warps, registers, shared memory, blocks,
barriers; all that tie). Without \fB\-\-block\fR, a workspace's run configurations' blocks, else
128 and 256 threads. The arch's limits come from the table built into nvpg
(\fIresources/occupancy/arch\-limits.json\fR, after the CUDA C++ Programming Guide), the arithmetic
is that of the toolkit's \fIcuda_occupancy.h\fR; the shared memory carve\-out is the driver's default.
Exit status 1 when the compile failed; 2 for a bad option or an arch the table lacks.
)roff"},
        {"import", R"roff(\fBnvpg import numba\fR \fIFILE.py\fR \fIFUNCTION\fR \fB\-\-sig\fR \fISIGNATURE\fR
[\fB\-\-args\fR \fIFILE.npz\fR] [\fB\-\-arch\fR \fIcompute_NN\fR] [\fB\-\-python\fR \fIPATH\fR]
[\fB\-o\fR \fIFILE.nvpg\fR] [\fB\-\-force\fR] [\fB\-\-timeout\fR \fISECONDS\fR]
runs \fIFILE.py\fR with numba\-cuda in \fB\-\-python\fR (default: \fBpython3\fR on \fBPATH\fR),
compiles \fIFUNCTION\fR as a kernel for \fISIGNATURE\fR and the arch (default: the local GPU's,
else compute_90), and writes a workspace (default \fIFUNCTION.nvpg\fR) of the NVVM IR modules and
libNVVM options numba handed to libNVVM, libdevice on, with a run configuration that passes each
array as numba does (meminfo, parent, nitems, itemsize, data, shape, strides) and notes naming the
kernel demangled. \fB\-\-args\fR takes example inputs from an .npz (an entry per argument, by
name or as arr_K); its arrays are written beside the workspace as .npy files.
\fB\-\-cuda\-path\fR is given to numba as CUDA_HOME.
Exit status 2 when numba\-cuda is not installed for that Python (standard error gives the pip
command), for a missing file or function, a signature numba does not read or that does not fit
the function, or an .npz that does not fit; 1 when numba cannot compile the function for the
signature.
)roff"},
        {"export", R"roff(Compiles as \fBcompile\fR does (nothing is written when that fails), then writes to the
folder \fB\-o\fR names the same program as standalone code: with \fB\-\-as cuda\-core\fR one Python
file over cuda.core's \fBProgram\fR(..., "nvvm") (the modules in the workspace's order, the first
the program and the rest its \fBextra_sources\fR, \fBuse_libdevice\fR, the arch the compile used
and every option cuda.core can pass); with \fB\-\-as c\fR a C11 program and a \fICMakeLists.txt\fR
over libNVVM (the verifier first, libdevice added lazily), nvJitLink and the driver API, which it
opens at run time. The modules go beside the code under \fImodules/\fR. With the workspace's run
configuration (\fB\-\-config\fR, else its first; \fB\-\-no\-run\fR for none) the code launches the
kernel after it wrote the PTX, its buffers read from \fIinputs/argK.npy\fR, and writes each buffer
after the launch as \fIoutputs/argK.npy\fR. A run from LTO, or \fB\-\-lto\fR, adds the LTO\-IR and
nvJitLink's links. What cuda.core cannot express (\fB\-\-jump\-table\-density\fR, \fB\-\-nvvm\-flag\fR,
\fB\-\-no\-verify\fR, lazy modules) is named in a comment of the script and in a warning.
Files already in the folder are replaced only with \fB\-\-force\fR.
Exit status 1 when the program does not compile; 2 for a bad option, input or run configuration.
)roff"},
        {"examples", R"roff(Lists each example's name and description, one a line, then the folder they are in.
Each name can be given where a workspace is (\fBnvpg compile saxpy\fR): see \fBEXAMPLE NAMES\fR.
Exit status 1 when the examples folder is missing (standard error says where nvpg looked) or
no example has the name given to \fB\-\-path\fR (standard error lists the names).
)roff"},
    };
    return notes;
}

constexpr std::string_view kDescription = R"roff(.SH DESCRIPTION
\fBnvpg\fR compiles NVVM IR modules (text \fI.ll\fR or bitcode \fI.bc\fR files) or an
NVVM Playground workspace (\fI.nvpg\fR) with NVIDIA's libNVVM, links LTO\-IR with nvJitLink,
and writes PTX, LTO\-IR, LTO\-linked PTX, cubins or SASS.
It also runs a kernel on the local GPU, compares two option sets, architectures or CUDA
releases, and explains PTX, NVVM IR, libdevice and SASS words.
It is the command line of NVVM Playground and goes through the same pipeline as the desktop
app, \fBnvvm\-playground\fR(1).
.PP
The CUDA toolkit is not part of nvpg: libNVVM, libdevice and nvJitLink are found when nvpg
runs (see \fBENVIRONMENT\fR), and \fBnvpg info\fR says which files were used and how each
was found.
libNVVM works in an engine process, a fork of nvpg: input that crashes libNVVM or runs past
\fB\-\-engine\-timeout\fR is reported as a compile error naming the likely module, and nvpg
goes on.
A compile whose inputs, options and toolkit files were all seen before is answered from the
result cache (see \fBFILES\fR).
.SS EXAMPLE NAMES
Where \fBcompile\fR, \fBrun\fR and \fBcompare\fR take a workspace, the name of a bundled
example stands for its \fI.nvpg\fR file: \fBnvpg compile saxpy\fR.
A name is taken as an example's only when it has no folder part and no file of that name
exists; a file in the current directory wins.
A name that is neither is an error that says so.
\fBnvpg examples\fR lists the examples.
)roff";

constexpr std::string_view kTrailer = R"roff(.SH ENVIRONMENT
.TP
.BR CUDA_PATH ", " CUDA_HOME ", " CONDA_PREFIX
Folders searched for a CUDA toolkit, in this order, unless \fB\-\-cuda\-path\fR is given.
After them come the \fInvidia\fR folders of the pip wheels in python3's site\-packages,
\fI/usr/local/cuda\fR, the newest \fI/usr/local/cuda\-X.Y\fR and \fI/opt/cuda\fR.
.TP
.B PATH
Where \fBpython3\fR (asked for its site\-packages) and \fBnvdisasm\fR are looked for.
.TP
.BR XDG_CACHE_HOME ", " HOME
The cache folder is \fI$XDG_CACHE_HOME/nvvm\-playground\fR, else
\fI$HOME/.cache/nvvm\-playground\fR (see \fBFILES\fR).
.TP
.B NVPG_CACHE_DIR
The result cache's folder, instead of \fIresults\fR in the cache folder.
.TP
.B NVPG_CACHE_MAX_BYTES
The most bytes the result cache keeps on disk (default 256 MiB); the least recently used
results go first.
.TP
.B NVPG_NO_CACHE
Set to anything but 0: the result cache is neither read nor written (\fB\-\-no\-cache\fR does
this for one command).
.TP
.B NVPG_ENGINE
\fBinprocess\fR: compile and run in nvpg's own process, as \fB\-\-in\-process\fR does.
Otherwise a command that serves as the engine process, such as \fB"/path/to/nvpg engine"\fR.
.TP
.B NVPG_DATA_DIR
A folder holding \fIexamples/\fR, used instead of the installed \fIshare/nvvm\-playground\fR.
.SH FILES
.TP
.I PREFIX/share/nvvm\-playground/examples/
The bundled examples (\fI.nvpg\fR workspaces, with the IR they were made from in \fIsrc/\fR).
\fIPREFIX\fR is the folder above the one holding nvpg: \fI/usr\fR for \fI/usr/bin/nvpg\fR.
.TP
.I $XDG_CACHE_HOME/nvvm\-playground/results/
The result cache (default \fI~/.cache/nvvm\-playground/results/\fR), shared with the desktop app
and safe to delete.
.TP
.I $XDG_CACHE_HOME/nvvm\-playground/gpus.json
The local GPUs as the CUDA driver described them, kept per driver version so that later runs
need not start the driver to learn them.
.SH EXIT STATUS
.TP
.B 0
Success; warnings, if any, went to standard error.
.TP
.B 1
libNVVM or nvJitLink rejected the input, crashed while reading it, or did not finish within
\fB\-\-engine\-timeout\fR (any step, the disassembly too); for \fBrun\fR, a launch failed or ran past \fB\-\-timeout\fR; for
\fBcompare\fR, a side failed; for \fBexplain\fR, a word has no entry; for \fBexamples\fR, no
examples folder, or no example of the name asked for.
.TP
.B 2
A usage or environment error: a bad option or value, an input that cannot be read or is neither
a file nor an example's name, libNVVM not found (with every place tried) or too big for the
memory left to load it, an output that could not be written (standard output included), memory or
threads that ran out (in nvpg or its engine), a toolkit that crashed where the input was not being
read (while loading, in nvJitLink's link, ptxas or nvdisasm).
.TP
.B 3
\fBrun\fR: no usable GPU or CUDA driver.
.PP
Killed by a signal, nvpg ends by the same signal (130 in the shell for Ctrl\-C), and so does its
engine process.
.SH EXAMPLES
List the bundled examples, compile one to PTX, and copy one to edit:
.PP
.RS 4
.nf
nvpg examples
nvpg compile saxpy
cp "$(nvpg examples \-\-path saxpy)" .
.fi
.RE
.PP
Compile two modules with libdevice for compute_90 into \fIkernel.ptx\fR; then write only a JSON
report of a module's registers, spills and timings:
.PP
.RS 4
.nf
nvpg compile kernel.ll helper.bc \-\-libdevice \-\-arch compute_90 \-o kernel.ptx
nvpg compile kernel.ll \-\-report report.json \-o /dev/null
.fi
.RE
.PP
See what flushing denormals to zero changes in the PTX, and compare two CUDA releases:
.PP
.RS 4
.nf
nvpg compare libdevice\-math \-\-a "\-\-ftz 0" \-\-b "\-\-ftz 1"
nvpg compare kernel.ll \-\-a "" \-\-b "\-\-cuda\-path /usr/local/cuda\-12.9"
.fi
.RE
.PP
Run saxpy's saved run configuration on the GPU; then the same kernel from a module of your
own, with its arguments given, saving the buffers as \fIout/arg2.npy\fR and \fIout/arg3.npy\fR:
.PP
.RS 4
.nf
nvpg run saxpy
nvpg run saxpy.ll \-\-kernel saxpy \-\-grid 16 \-\-block 256 \-\-arg i32:4096 \-\-arg f32:2 \e
    \-\-arg buf:f32:4096:iota \-\-arg buf:f32:4096:const:1 \-\-save\-outputs out
.fi
.RE
.SH SEE ALSO
\fBnvvm\-playground\fR(1)
.PP
The README and the documentation under \fIPREFIX/share/doc/nvvm\-playground/docs\fR describe both programs in full.
)roff";

}  // namespace

std::string roffText(std::string_view text) {
    std::string out;
    bool inOption = false;  // within a word that began with a hyphen: every hyphen of it is a minus
    char before = ' ';
    for (size_t i = 0; i < text.size();) {
        const char c = text[i];
        if (static_cast<unsigned char>(c) >= 0x80) {
            out += fmt::format("\\[u{:04X}]", static_cast<uint32_t>(nextCodePoint(text, i)));
            before = 'x';
            inOption = false;
            continue;
        }
        ++i;
        if (c == '\\') {
            out += "\\e";
        } else if (c == '-') {
            if (std::string_view(" \t([{\"'`").find(before) != std::string_view::npos) inOption = true;
            out += inOption ? "\\-" : "-";
        } else {
            if (std::string_view(" \t)]},;\"'").find(c) != std::string_view::npos) inOption = false;
            out += c == '\n' ? ' ' : c;  // a description is one paragraph
        }
        before = c;
    }
    return out;
}

std::string manPage(const CliApp& cli, std::string_view date) {
    const auto& app = cli.app;
    std::string page;
    page += ".\\\" Generated by nvpg_manpage from nvpg's option table (app/cli/CliApp.cpp); edit that\n";
    page += ".\\\" and app/cli/ManPage.cpp, not this file.\n";
    page += fmt::format(".TH NVPG 1 \"{}\" \"nvpg {}\" \"User Commands\"\n", roffText(date), roffText(NVPG_VERSION));

    // The table's own one-line description, less its "nvpg: ", is the page's whatis line.
    std::string summary = app.get_description();
    if (summary.starts_with("nvpg: ")) summary.erase(0, 6);
    page += ".SH NAME\n" + textLine("nvpg \\- " + roffText(summary));

    page += ".SH SYNOPSIS\n";
    for (const auto* sub : commands(app)) page += textLine(synopsis(*sub)) + ".br\n";
    page += textLine("\\fBnvpg\\fR \\fB\\-\\-version\\fR");
    page += std::string(kDescription);

    page += ".SH GLOBAL OPTIONS\n";
    page += textLine("These may come before or after the command.");
    for (const auto* opt : app.get_options()) page += optionEntry(*opt);
    page += ".PP\n" + textLine("Each command takes \\fB\\-h\\fR, \\fB\\-\\-help\\fR too, and lists its own options.");

    page += ".SH COMMANDS\n";
    for (const auto* sub : commands(app)) {
        page += ".SS " + literal(sub->get_name()) + "\n";
        page += textLine(synopsis(*sub)) + ".PP\n";
        std::string description = roffText(sub->get_description());
        if (!description.empty()) description[0] = char(std::toupper(static_cast<unsigned char>(description[0])));
        page += textLine(description + ".");
        if (const auto note = commandNotes().find(sub->get_name()); note != commandNotes().end()) page += note->second;
        for (const auto* opt : sub->get_options())
            if (opt != sub->get_help_ptr()) page += optionEntry(*opt);
    }
    page += std::string(kTrailer);
    return page;
}

}  // namespace nvpg::cli
