#include "core/engine/Remote.h"

#include <cstdlib>

#include <fmt/format.h>

#include "core/engine/EngineProcess.h"
#include "core/engine/Messages.h"
#include "core/engine/ToolkitProbe.h"
#include "core/nvvm/Options.h"
#include "core/support/Json.h"
#include "core/support/Process.h"
#include "core/support/Text.h"

using nlohmann::json;
using nvpg::support::ErrorKind;
using nvpg::support::field;
using nvpg::support::makeError;

namespace nvpg::engine {

support::Result<std::vector<std::string>> splitShellWords(std::string_view text, std::string_view what) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord) words.push_back(std::move(word));
            word.clear();
            inWord = false;
            continue;
        }
        inWord = true;
        if (c == '\\') {
            // A backslash keeps the next character as it is; one at the end is itself.
            if (i + 1 < text.size()) {
                if (text[i + 1] != '\n') word += text[i + 1];
                ++i;
            } else {
                word += c;
            }
        } else if (c == '\'') {
            const auto end = text.find('\'', i + 1);
            if (end == std::string_view::npos)
                return makeError(ErrorKind::Usage, fmt::format("{}: a ' is not closed: \"{}\"", what, text));
            word.append(text.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '"') {
            size_t k = i + 1;
            for (; k < text.size() && text[k] != '"'; ++k) {
                // Inside double quotes a backslash quotes only these, as in a shell.
                if (text[k] == '\\' && k + 1 < text.size() &&
                    std::string_view("\"\\$`").find(text[k + 1]) != std::string_view::npos)
                    ++k;
                word += text[k];
            }
            if (k >= text.size())
                return makeError(ErrorKind::Usage, fmt::format("{}: a \" is not closed: \"{}\"", what, text));
            i = k;
        } else {
            word += c;
        }
    }
    if (inWord) words.push_back(std::move(word));
    if (words.empty()) return makeError(ErrorKind::Usage, fmt::format("{} is set but names no command", what));
    return words;
}

std::string shellQuoted(std::string_view word) {
    constexpr std::string_view kPlain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+:,@%=";
    const size_t from = support::startsWith(word, "~") ? 1 : 0;
    if (!word.empty() && word.substr(from).find_first_not_of(kPlain) == std::string_view::npos &&
        word.substr(from).find('~') == std::string_view::npos)
        return std::string(word);
    std::string quoted = "'";
    for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

support::Status checkDestination(std::string_view destination, std::string_view given) {
    if (destination.empty())
        return makeError(ErrorKind::Usage,
                         fmt::format("{} is empty: give the machine as ssh takes it (host, user@host, a Host alias "
                                     "of ~/.ssh/config, ssh://user@host:port)",
                                     given));
    if (destination.front() == '-')
        return makeError(ErrorKind::Usage,
                         fmt::format("{} \"{}\": a destination cannot start with '-' (ssh would read it as an option)",
                                     given, support::printable(destination)));
    for (const char c : destination)
        if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f)
            return makeError(ErrorKind::Usage,
                             fmt::format("{} \"{}\": a destination has no spaces or control characters", given,
                                         support::printable(destination)));
    return {};
}

support::Result<EngineLauncher> engineLauncher(const std::string& engineArgument, const std::optional<FarEnd>& far) {
    EngineLauncher launcher;
    if (!far) {
        launcher.argv = engineCommand(engineArgument);
        return launcher;
    }
    if (auto st = checkDestination(far->destination, "the destination"); !st) return st.error();
    std::vector<std::string> ssh{"ssh"};
    if (const char* env = std::getenv(kSshCommandVariable); env && *env) {
        auto words = splitShellWords(env, kSshCommandVariable);
        if (!words) return words.error();
        ssh = std::move(*words);
    }
    // Executed as an argv (posix_spawn takes a path): a bare name is looked up in PATH here.
    if (ssh.front().find('/') == std::string::npos) {
        const auto found = support::findInPath(ssh.front());
        if (found.empty())
            return makeError(ErrorKind::Environment,
                             fmt::format("{} is not in PATH: install OpenSSH's client (Debian: openssh-client), or "
                                         "name one in {}",
                                         ssh.front(), kSshCommandVariable));
        ssh.front() = found;
    }
    launcher.argv = std::move(ssh);
    for (const auto* option : {"-o", "BatchMode=yes", "-o"}) launcher.argv.emplace_back(option);
    launcher.argv.push_back(fmt::format("ConnectTimeout={}", far->connectTimeoutSeconds));
    for (const auto* option : {"-T", "-e", "none", "--"}) launcher.argv.emplace_back(option);
    launcher.argv.push_back(far->destination);
    // ssh hands the far side one command line, which the far login shell reads: the far nvpg is
    // quoted for it.
    launcher.argv.push_back(shellQuoted(far->remoteNvpg) + " engine");
    launcher.far = *far;
    return launcher;
}

namespace {

bool says(std::string_view text, std::string_view words) {
    return text.find(words) != std::string_view::npos;
}

// The host part of a destination, for the commands a message suggests: "host" of
// "ssh://user@host:2222", "user@host", "host".
std::string hostOf(std::string_view destination) {
    std::string_view d = destination;
    if (support::startsWith(d, "ssh://")) {
        d.remove_prefix(6);
        if (const auto at = d.rfind('@'); at != std::string_view::npos) d.remove_prefix(at + 1);
        if (const auto colon = d.rfind(':'); colon != std::string_view::npos && d.front() != '[')
            d = d.substr(0, colon);
        return std::string(d);
    }
    if (const auto at = d.rfind('@'); at != std::string_view::npos) d.remove_prefix(at + 1);
    return std::string(d);
}

}  // namespace

std::optional<std::string> describeSshFailure(const FarEnd& far, int exitStatus, std::string_view tail) {
    const auto dest = support::printable(far.destination);
    const char* sshCommand = std::getenv(kSshCommandVariable);
    const std::string ssh = sshCommand && *sshCommand ? sshCommand : "ssh";
    const auto program = support::printable(far.remoteNvpg);
    if (exitStatus == 127 || (exitStatus == 126 && says(tail, "ermission denied"))) {
        // The far shell could not run the far nvpg.
        return fmt::format(
            "nvpg on {} could not be started ({} {}): the far machine has no {} {}; install nvpg there, or give its "
            "path with --remote-nvpg PATH",
            dest, exitStatus == 127 ? "not found, exit status" : "not executable, exit status", exitStatus, program,
            exitStatus == 127 ? "on the far login's PATH" : "that may be run");
    }
    if (exitStatus != 255) return std::nullopt;
    if (says(tail, "REMOTE HOST IDENTIFICATION HAS CHANGED") || says(tail, "Host key for ") ||
        says(tail, "host key for"))
        return fmt::format(
            "the host key of {} is not the one known for it (it changed, or another machine answers): nvpg never "
            "accepts a key for you; if the change is expected, remove the old key with `ssh-keygen -R {}` and "
            "connect once with `{} {}` to check and accept the new one",
            dest, hostOf(far.destination), ssh, dest);
    if (says(tail, "Host key verification failed") || (says(tail, "No ") && says(tail, "host key is known")))
        return fmt::format(
            "the host key of {} is not known here, and nvpg never answers ssh's question for you: connect once with "
            "`{} {}` and check and accept the key, or add it with `ssh-keyscan {} >> ~/.ssh/known_hosts` after "
            "checking its fingerprint",
            dest, ssh, dest, hostOf(far.destination));
    if (says(tail, "Permission denied") || says(tail, "Too many authentication failures") ||
        says(tail, "Authentication failed"))
        return fmt::format(
            "{} refused the login (authentication failed): nvpg logs in with ssh's keys and agent only, never a "
            "password; add your public key to the far ~/.ssh/authorized_keys (ssh-copy-id), or name a key with "
            "{}=\"ssh -i KEY\"",
            dest, kSshCommandVariable);
    if (says(tail, "Could not resolve hostname") || says(tail, "connect to host") ||
        says(tail, "Connection timed out") || says(tail, "No route to host") || says(tail, "Network is unreachable") ||
        says(tail, "Connection refused") || says(tail, "kex_exchange_identification") || says(tail, "banner exchange"))
        return fmt::format(
            "{} cannot be reached ({}): check the name, that the machine is up and that its sshd listens (try `{} "
            "{}`)",
            dest, support::printable(support::trim(tail.substr(tail.rfind('\n', tail.size() - 2) + 1))), ssh, dest);
    if (says(tail, "closed by remote host") || says(tail, "Connection closed by") || says(tail, "Broken pipe") ||
        says(tail, "Connection reset") || says(tail, "not responding") || says(tail, "client_loop"))
        return fmt::format(
            "the connection to {} was cut before the engine answered: what it was doing is lost; the next command "
            "connects again",
            dest);
    return std::nullopt;
}

std::string farDefaultArch(const FarToolkit& tk) {
    if (!tk.gpus.empty())
        if (auto a = nvvm::archForComputeCapability(tk.gpus.front().ccMajor, tk.gpus.front().ccMinor, tk.cudaMajor))
            return *a + " (the far GPU's)";
    return "libNVVM's default";
}

std::string describeFarMachine(const FarEnd& far, const FarToolkit& tk) {
    std::string out;
    auto line = [&](std::string_view label, const std::string& text) {
        fmt::format_to(std::back_inserter(out), "{:<12}{}\n", label, text);
    };
    line("engine on",
         fmt::format("{} (host {}), over ssh", support::printable(far.destination), support::printable(tk.host)));
    line("", fmt::format("nvpg {}, engine protocol {}", support::printable(tk.nvpgVersion), tk.protocol));
    line("toolkit", support::printable(tk.release));
    for (const auto& r : tk.libraries) {
        if (r.found) {
            line(r.name, r.version);
            line("", fmt::format("{} ({})", support::printable(r.path.string()), r.via));
            if (!r.problem.empty()) line("", support::printable(r.problem));
        } else {
            line(r.name, "not found: " + support::printable(r.problem));
        }
    }
    out += "\n";
    line("archs", support::join(nvvm::supportedArchs(tk.cudaMajor), " "));
    line("", "default: " + farDefaultArch(tk));
    for (const auto& d : tk.gpus)
        line(d.ordinal == 0 ? "GPUs" : "",
             fmt::format("{}: {}, compute capability {}.{}, {:.1f} GiB", d.ordinal, support::printable(d.name),
                         d.ccMajor, d.ccMinor, d.totalMemory / double(1 << 30)));
    if (tk.gpus.empty()) line("GPUs", "none: " + support::printable(tk.noGpuReason));
    return out;
}

std::string describeNoFarGpu(const FarEnd& far, const FarToolkit& tk) {
    return fmt::format("{} ({}) has no GPU the engine there can use: {}", support::printable(far.destination),
                       support::printable(tk.host), tk.noGpuReason.empty() ? "it listed none" : tk.noGpuReason);
}

Frame makeFarRequest(const std::optional<std::string>& cudaPath, bool withGpus) {
    Frame f;
    f.type = kToolkitRequest;
    f.header = json::object();
    if (cudaPath) f.header["cuda_path"] = *cudaPath;
    f.header["describe"] = true;
    f.header["gpus"] = withGpus;
    return f;
}

support::Result<FarToolkit> readFarToolkit(const Frame& reply) {
    if (reply.type != kToolkitReply)
        return makeError(ErrorKind::Environment, "the far engine answered the toolkit request with another message");
    const auto& h = reply.header;
    if (!h.is_object()) return makeError(ErrorKind::Environment, "the far engine's toolkit reply is not an object");
    if (h.contains("error"))
        return makeError(ErrorKind::Environment,
                         field(h["error"], "message", std::string("the far engine could not open its toolkit")));
    if (!h.contains("describe"))
        return makeError(ErrorKind::Environment,
                         "the far nvpg does not describe its toolkit (an older nvpg): install the same nvpg version "
                         "on both machines");
    const auto& d = h["describe"];
    FarToolkit tk;
    tk.host = field(d, "host", std::string());
    tk.nvpgVersion = field(d, "nvpg_version", std::string());
    tk.protocol = field(d, "protocol", 0);
    tk.release = field(d, "release", std::string());
    tk.cudaMajor = field(h, "cuda_major", 0);
    if (const auto it = d.find("libraries"); it != d.end() && it->is_array())
        for (const auto& l : *it) tk.libraries.push_back(libraryReportFrom(l));
    tk.hasNvJitLink = field(field(h, "nvjitlink", json()), "found", false);
    tk.hasNvdisasm = field(d, "nvdisasm", false);
    tk.nvdisasmProblem = field(d, "nvdisasm_problem", std::string());
    if (const auto it = d.find("gpus"); it != d.end() && it->is_array())
        for (const auto& g : *it) {
            gpu::DeviceInfo info;
            info.ordinal = field(g, "ordinal", 0);
            info.name = field(g, "name", std::string());
            info.ccMajor = field(g, "cc_major", 0);
            info.ccMinor = field(g, "cc_minor", 0);
            info.totalMemory = field(g, "memory_bytes", size_t(0));
            tk.gpus.push_back(std::move(info));
        }
    tk.noGpuReason = field(d, "no_gpu_reason", std::string());
    if (const auto it = d.find("identity"); it != d.end() && it->is_object()) {
        if (const auto files = it->find("files"); files != it->end() && files->is_array())
            for (const auto& f : *files)
                tk.identity.files.push_back({field(f, "role", std::string()), field(f, "path", std::string()),
                                             field(f, "size", uint64_t(0)), field(f, "mtime_ns", int64_t(0))});
        tk.identity.gpu = field(*it, "gpu", std::string());
    }
    return tk;
}

cache::Environment farEnvironment(const FarEnd& far, const FarToolkit& tk) {
    cache::Environment env;
    // Marked as far, with the destination and the far machine's name: never the key of a local
    // compile, whose files are stamped here.
    env.files.push_back({"far engine at " + far.destination + " (" + tk.host + ")", far.remoteNvpg, 0, 0});
    for (const auto& f : tk.identity.files) env.files.push_back({"far " + f.role, f.path, f.size, f.mtimeNs});
    // This nvpg reads the replies and writes the outputs: a new build may say things differently.
    std::error_code ec;
    env.files.push_back(cache::stampOf("nvpg", std::filesystem::read_symlink("/proc/self/exe", ec)));
    env.gpu = tk.identity.gpu;
    return env;
}

}  // namespace nvpg::engine
