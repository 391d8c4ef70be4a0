#include "core/lesson/Course.h"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "core/lesson/Lesson.h"
#include "core/support/Files.h"
#include "core/support/Installed.h"

namespace nvpg::lesson {

namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

fs::path lessonsDir() {
    const auto data = support::dataDir();
    return data.empty() ? fs::path() : data / "lessons";
}

std::vector<LessonEntry> listLessons(const fs::path& dir) {
    std::vector<LessonEntry> out;
    if (dir.empty()) return out;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() != ".nvpg" || !it->is_regular_file(ec)) continue;
        auto file = loadLesson(it->path());
        if (!file) continue;
        out.push_back(
            {it->path(), file->lesson.id, file->lesson.title, file->lesson.summary, int(file->lesson.steps.size())});
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a.path.filename() < b.path.filename(); });
    return out;
}

std::optional<LessonEntry> nextLesson(const std::string& id, const std::vector<fs::path>& dirs) {
    for (const auto& dir : dirs) {
        const auto course = listLessons(dir);
        const auto it = std::find_if(course.begin(), course.end(), [&](const auto& e) { return e.id == id; });
        if (it == course.end()) continue;
        if (std::next(it) == course.end()) return std::nullopt;
        return *std::next(it);
    }
    return std::nullopt;
}

void findCourseReferences(Lesson& lesson, const fs::path& dir) {
    std::error_code ec;
    const auto missing = [&](const Check& c) {
        return c.kind == CheckKind::Output && !c.reference && !fs::is_regular_file(c.equals, ec);
    };
    bool any = false;
    for (const auto& s : lesson.steps) any |= std::any_of(s.checks.begin(), s.checks.end(), missing);
    if (!any || dir.empty()) return;
    std::optional<LessonFile> installed;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && !installed; it.increment(ec)) {
        if (it->path().extension() != ".nvpg") continue;
        auto file = loadLesson(it->path());
        if (file && file->lesson.id == lesson.id) installed = std::move(*file);
    }
    if (!installed) return;
    for (auto& s : lesson.steps)
        for (auto& c : s.checks) {
            if (!missing(c)) continue;
            for (const auto& is : installed->lesson.steps)
                for (const auto& ic : is.checks)
                    if (ic.kind == CheckKind::Output && ic.equalsName == c.equalsName) {
                        c.reference = ic.reference;
                        c.equals = ic.equals;
                    }
        }
}

fs::path progressFile(const fs::path& dir, const std::string& id) {
    std::string name;
    for (char c : id) name += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
    if (name.size() > 80) name.resize(80);
    // FNV-1a of the whole id: "a/b" and "a_b" get files of their own.
    uint32_t h = 2166136261u;
    for (unsigned char c : id) h = (h ^ c) * 16777619u;
    return dir / fmt::format("{}-{:08x}.json", name, h);
}

support::Result<Progress> readProgress(const fs::path& file, const std::string& id) {
    Progress p;
    p.id = id;
    std::error_code ec;
    if (!fs::exists(file, ec)) return p;
    auto bytes = support::readFile(file);
    if (!bytes) return bytes.error();
    const auto bad = [&](const std::string& why) {
        return support::makeError(support::ErrorKind::Input,
                                  fmt::format("{}: {}; the lesson's progress there is not used (delete the file to "
                                              "start the lesson afresh)",
                                              file.string(), why));
    };
    const auto j = ojson::parse(*bytes, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return bad("not a progress file (JSON object)");
    try {
        if (j.value("id", std::string()) != id) return bad("it is the progress of another lesson");
        p.file = j.value("file", std::string());
        p.step = std::max(1, j.value("step", 1));
        if (const auto it = j.find("passed"); it != j.end() && it->is_array())
            for (const auto& s : *it)
                if (s.is_number_integer()) p.passed.insert(s.get<int>());
        if (const auto it = j.find("hints"); it != j.end() && it->is_object())
            for (const auto& [k, v] : it->items())
                if (v.is_number_integer()) p.hintsShown[std::stoi(k)] = v.get<int>();
        if (const auto it = j.find("work"); it != j.end() && it->is_object())
            for (const auto& [k, v] : it->items())
                if (v.is_object()) p.work[std::stoi(k)] = v;
    } catch (const std::exception& e) {
        return bad(e.what());
    }
    return p;
}

support::Status writeProgress(const fs::path& file, const Progress& p) {
    ojson j = ojson::object();
    j["id"] = p.id;
    j["file"] = p.file;
    j["step"] = p.step;
    j["passed"] = p.passed;
    ojson hints = ojson::object();
    for (const auto& [step, n] : p.hintsShown) hints[std::to_string(step)] = n;
    j["hints"] = std::move(hints);
    ojson work = ojson::object();
    for (const auto& [step, state] : p.work) work[std::to_string(step)] = state;
    j["work"] = std::move(work);
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec)
        return support::makeError(support::ErrorKind::Environment,
                                  fmt::format("cannot make {}: {}", file.parent_path().string(), ec.message()));
    return support::writeFileAtomic(file, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

ojson stateJson(const workspace::Workspace& ws) {
    workspace::Workspace plain;
    plain.modules = ws.modules;
    plain.options = ws.options;
    plain.libdevice = ws.libdevice;
    plain.verify = ws.verify;
    plain.ltoMode = ws.ltoMode;
    plain.runs = ws.runs;
    auto all = ojson::parse(workspace::serializeWorkspace(plain));
    ojson out = ojson::object();
    for (const char* key : {"modules", "options", "libdevice", "verify", "lto", "runs"})
        if (all.contains(key)) out[key] = all[key];
    return out;
}

support::Result<workspace::Workspace> stateFromJson(const ojson& state, const workspace::Workspace& into) {
    ojson doc = ojson::object();
    doc["format"] = workspace::kFormatName;
    doc["version"] = workspace::kFormatVersion;
    for (const auto& [k, v] : state.items()) doc[k] = v;
    auto ws = workspace::parseWorkspace(doc.dump(), "saved work");
    if (!ws) return ws.error();
    return withState(into, *ws);
}

}  // namespace nvpg::lesson
