#include "core/export/CodeText.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/pipeline/OutputNames.h"
#include "core/support/Text.h"

namespace nvpg::exporting {

std::string pyString(std::string_view s) {
    // JSON's escapes are Python's (\", \\, \n, \u00XX, \uXXXX), but for a character past U+FFFF,
    // which JSON writes as two surrogates and Python reads as two characters: one \UXXXXXXXX.
    const auto json =
        nlohmann::json(std::string(s)).dump(-1, ' ', /*ensure_ascii=*/true, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(json.size());
    const auto unit = [&](size_t at) { return std::stoul(json.substr(at + 2, 4), nullptr, 16); };
    for (size_t i = 0; i < json.size(); ++i) {
        if (json[i] != '\\') {
            out += json[i];
            continue;
        }
        if (json[i + 1] == 'u' && i + 12 <= json.size() && json.compare(i + 6, 2, "\\u") == 0) {
            const auto high = unit(i), low = unit(i + 6);
            if (high >= 0xD800 && high <= 0xDBFF && low >= 0xDC00 && low <= 0xDFFF) {
                out += fmt::format("\\U{:08x}", 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                i += 11;
                continue;
            }
        }
        out += json.substr(i, 2);  // an escape of two characters, or the start of \uXXXX
        ++i;
    }
    return out;
}

std::string cString(std::string_view s) {
    std::string out = "\"";
    for (const unsigned char c : s) {
        if (c == '"' || c == '\\')
            out += {'\\', char(c)};
        else if (c == '?')
            out += "\\?";
        else if (c >= 0x20 && c < 0x7f)
            out += char(c);
        else
            out += fmt::format("\\{:03o}", c);
    }
    return out + "\"";
}

std::string commentText(Comment kind, std::string_view s) {
    // printable leaves the line and paragraph separators, which editors (and Qt) break lines at.
    std::string text = support::printable(s);
    for (const auto& [utf8, escaped] : {std::pair{"\u2028", "\\u2028"}, std::pair{"\u2029", "\\u2029"}})
        for (size_t at; (at = text.find(utf8)) != std::string::npos;) text.replace(at, 3, escaped);
    if (kind == Comment::Hash) return text;
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const char before = out.empty() ? '\0' : out.back();
        // "*/" ends the comment and "/*" in it stops a -Wcomment -Werror build; "??/" is a
        // backslash where trigraphs are read.
        if ((c == '/' && before == '*') || (c == '*' && before == '/') || (c == '?' && before == '?')) out += ' ';
        // A backslash at a line's end joins the next line to this one: comment lines break at spaces.
        if (c == '\\' && (i + 1 == text.size() || text[i + 1] == ' '))
            out += "\\x5c";
        else
            out += c;
    }
    return out;
}

std::string commentLines(Comment kind, std::string_view prefix, std::string_view text, std::string_view indent,
                         size_t width) {
    std::string out, current(prefix);
    bool empty = true;
    const auto words = commentText(kind, text);
    for (auto word : support::split(words, ' ')) {
        if (word.empty()) continue;
        if (!empty && current.size() + 1 + word.size() > width) {
            out += current + '\n';
            current = std::string(prefix) + std::string(indent);
            empty = true;
        }
        if (!empty) current += ' ';
        current += word;
        empty = false;
    }
    return out + current + '\n';
}

namespace {

// What Python could import from the script's folder instead of the module meant (the folder is
// first on sys.path), space-separated: the standard library's top-level modules
// (sys.stdlib_module_names of Python 3.10 to 3.14) and what Python imports at start-up, then the
// packages the script imports and what they import (cuda-core, cuda-bindings, cuda-pathfinder,
// numpy).
constexpr std::string_view kPythonModules =
    "__future__ __init__ __main__ _abc _aix_support _android_support _apple_support _ast _asyncio "
    "_bisect _blake2 _bootsubprocess _bz2 _codecs _codecs_cn _codecs_hk _codecs_iso2022 _codecs_jp "
    "_codecs_kr _codecs_tw _collections _collections_abc _colorize _compat_pickle _compression "
    "_contextvars _crypt _csv _ctypes _curses _curses_panel _datetime _dbm _decimal _elementtree "
    "_frozen_importlib _frozen_importlib_external _functools _gdbm _hashlib _heapq _hmac _imp "
    "_interpchannels _interpqueues _interpreters _io _ios_support _json _locale _lsprof _lzma "
    "_markupbase _md5 _msi _multibytecodec _multiprocessing _opcode _opcode_metadata _operator "
    "_osx_support _overlapped _pickle _posixshmem _posixsubprocess _py_abc _py_warnings _pydatetime "
    "_pydecimal _pyio _pylong _pyrepl _queue _random _remote_debugging _scproxy _sha1 _sha2 _sha256 "
    "_sha3 _sha512 _signal _sitebuiltins _socket _sqlite3 _sre _ssl _stat _statistics _string _strptime "
    "_struct _suggestions _symtable _sysconfig _thread _threading_local _tkinter _tokenize _tracemalloc "
    "_types _typing _uuid _warnings _weakref _weakrefset _winapi _wmi _zoneinfo _zstd abc aifc "
    "annotationlib antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb "
    "binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop "
    "collections colorsys compileall compression concurrent configparser contextlib contextvars copy "
    "copyreg crypt csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest "
    "email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib "
    "functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http "
    "idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 linecache "
    "locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt "
    "multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os "
    "ossaudiodev pathlib pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath "
    "pprint profile pstats pty pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re "
    "readline reprlib resource rlcompleter runpy sched secrets select selectors shelve shlex shutil "
    "signal site sitecustomize smtpd smtplib sndhdr socket socketserver spwd sqlite3 sre_compile "
    "sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau symtable sys "
    "sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit "
    "tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing "
    "unicodedata unittest urllib usercustomize uu uuid venv warnings wave weakref webbrowser winreg "
    "winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib zoneinfo cuda numpy packaging "
    "typing_extensions importlib_metadata zipp ";

// Target names CMake refuses or reserves (policy CMP0037, the Visual Studio and Xcode targets),
// and names that the executable would share with a file of the build folder.
constexpr std::array kCmakeNames = {
    "all",          "clean",          "help",       "install",       "test",
    "package",      "package_source", "edit_cache", "rebuild_cache", "list_install_components",
    "preinstall",   "depend",         "CMakeFiles", "Makefile",      "Testing",
    "CMakeScripts",
};
// ... and those that start so (ALL_BUILD, ZERO_CHECK, RUN_TESTS, CTest's dashboard targets,
// CMake's own rules).
constexpr std::array kCmakePrefixes = {"ALL_BUILD", "ZERO_CHECK", "RUN_TESTS", "Experimental",
                                       "Nightly",   "Continuous", "cmake_"};

std::string lower(std::string_view s) {
    std::string out(s);
    for (auto& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool taken(std::string_view stem) {
    static const std::set<std::string> python = [] {
        std::set<std::string> names;
        for (auto name : support::split(kPythonModules, ' '))
            if (!name.empty()) names.insert(lower(name));
        return names;
    }();
    const auto l = lower(stem);
    if (python.contains(l)) return true;
    const auto same = [&](const char* name) { return lower(name) == l; };
    if (std::any_of(kCmakeNames.begin(), kCmakeNames.end(), same)) return true;
    return std::any_of(kCmakePrefixes.begin(), kCmakePrefixes.end(),
                       [&](const char* prefix) { return l.rfind(lower(prefix), 0) == 0; });
}

}  // namespace

std::string codeStem(std::string_view name) {
    const auto stem = pipeline::fileStemOf(name);
    return taken(stem) ? stem + "_export" : stem;
}

}  // namespace nvpg::exporting
