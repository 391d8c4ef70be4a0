// An sshd of the test's own on 127.0.0.1 (Debian's openssh-server): a free port, a throwaway
// host key and user key in a temporary folder, its own sshd_config (no PAM, no strict modes, the
// test's authorized_keys, its pid file in the folder) and an ssh_config for the client
// (NVPG_SSH_COMMAND="ssh -F FILE", known hosts in the folder). Started by start(), stopped and
// waited for (no zombie) by the destructor.
#pragma once

#include <QTemporaryDir>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/support/Process.h"

extern char** environ;

namespace nvpg::test {

class Sshd {
public:
    Sshd() = default;
    Sshd(const Sshd&) = delete;
    Sshd& operator=(const Sshd&) = delete;
    ~Sshd() { stop(); }

    // Empty when sshd listens; else why it cannot (for QSKIP).
    std::string start() {
        if (!dir_.isValid()) return "no temporary folder";
        // NVPG_TEST_SSHD: another sshd (an absolute path, as sshd wants), for a machine that has
        // none installed (the GPU machine carries one).
        const char* chosen = std::getenv("NVPG_TEST_SSHD");
        const std::string sshd = chosen && *chosen ? chosen : "/usr/sbin/sshd";
        if (::access(sshd.c_str(), X_OK) != 0)
            return "no " + sshd +
                   " (Debian's openssh-server; quickstart.sh test installs it; NVPG_TEST_SSHD names another)";
        if (support::findInPath("ssh").empty() || support::findInPath("ssh-keygen").empty())
            return "no ssh or ssh-keygen in PATH (openssh-client)";
        // sshd's privilege separation wants this folder when it runs as root.
        if (::geteuid() == 0) ::mkdir("/run/sshd", 0755);
        const passwd* pw = ::getpwuid(::geteuid());
        if (!pw) return "this user has no name";
        user_ = pw->pw_name;
        const auto d = path("");
        for (const char* key : {"hostkey", "userkey", "otherkey"})
            if (!run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", d + key}))
                return std::string("ssh-keygen could not make ") + key;
        copyFile(d + "userkey.pub", d + "authorized_keys");
        port_ = freePort();
        if (port_ <= 0) return "no free port on 127.0.0.1";
        write(d + "sshd_config", "Port " + std::to_string(port_) + "\nListenAddress 127.0.0.1\nHostKey " + d +
                                     "hostkey\nAuthorizedKeysFile " + d + "authorized_keys\nPidFile " + d +
                                     "sshd.pid\nUsePAM no\nStrictModes no\n"
                                     "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                     "PermitRootLogin prohibit-password\nAllowUsers " +
                                     user_ + "\n");
        writeClientConfig("ssh_config", "userkey", "known_hosts");
        writeClientConfig("ssh_config_otherkey", "otherkey", "known_hosts");
        writeClientConfig("ssh_config_nohostkey", "userkey", "no_known_hosts");
        writeClientConfig("ssh_config_closed", "userkey", "known_hosts", freePort());
        write(d + "no_known_hosts", "");
        std::ifstream pub(d + "hostkey.pub");
        std::string type, key;
        pub >> type >> key;
        write(d + "known_hosts", "[127.0.0.1]:" + std::to_string(port_) + " " + type + " " + key + "\n");

        const std::vector<std::string> argv{sshd, "-D", "-e", "-f", d + "sshd_config"};
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        const auto log = d + "sshd.log";
        posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        std::vector<char*> args;
        auto copy = argv;
        for (auto& a : copy) args.push_back(a.data());
        args.push_back(nullptr);
        const int rc = ::posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (rc != 0) return "cannot start sshd: " + std::string(std::strerror(rc));
        // Listening once a connect succeeds; an sshd that ended says why in its log.
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (std::chrono::steady_clock::now() < until) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                std::ifstream in(log);
                return "sshd ended: " + std::string(std::istreambuf_iterator<char>(in), {});
            }
            if (accepts(port_)) return {};
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        return "sshd did not listen within 10 s";
    }

    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGTERM);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

    int port() const { return port_; }
    std::string user() const { return user_; }
    std::string path(const std::string& name) const { return dir_.path().toStdString() + "/" + name; }
    // NVPG_SSH_COMMAND's value with a client config of the folder: "ssh_config" logs in; the
    // others have a key sshd does not know, no known host key, or a port nothing listens on.
    std::string sshCommand(const std::string& config = "ssh_config") const { return "ssh -F " + path(config); }

private:
    static bool run(const std::vector<std::string>& argv) {
        const auto r = support::runProbe(argv, 30);
        return r.status == 0;
    }
    static void write(const std::string& file, const std::string& text) {
        std::ofstream out(file, std::ios::trunc);
        out << text;
    }
    static void copyFile(const std::string& from, const std::string& to) {
        std::ifstream in(from);
        write(to, std::string(std::istreambuf_iterator<char>(in), {}));
    }
    void writeClientConfig(const std::string& name, const std::string& key, const std::string& known, int port = 0) {
        write(path(name), "Host *\n  User " + user_ + "\n  Port " + std::to_string(port ? port : port_) +
                              "\n  IdentityFile " + path(key) +
                              "\n  IdentitiesOnly yes\n  IdentityAgent none\n"
                              "  UserKnownHostsFile " +
                              path(known) +
                              "\n  GlobalKnownHostsFile /dev/null\n"
                              "  StrictHostKeyChecking yes\n  LogLevel ERROR\n");
        ::chmod(path(name).c_str(), 0600);
    }
    static int freePort() {
        const int s = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof a;
        int port = -1;
        if (::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
            ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &len) == 0)
            port = ntohs(a.sin_port);
        ::close(s);
        return port;
    }
    static bool accepts(int port) {
        const int s = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = htons(uint16_t(port));
        const bool ok = ::connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(s);
        return ok;
    }

    QTemporaryDir dir_;
    pid_t pid_ = -1;
    int port_ = -1;
    std::string user_;
};

}  // namespace nvpg::test
