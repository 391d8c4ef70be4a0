#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/lesson/Lesson.h"
#include "core/support/Result.h"
#include "core/workspace/Workspace.h"

namespace nvpg::lesson {

// The bundled course: share/nvvm-playground/lessons (resources/lessons in a build tree).
std::filesystem::path lessonsDir();

// A lesson file as File > Lessons lists it.
struct LessonEntry {
    std::filesystem::path path;
    std::string id, title, summary;
    int steps = 0;
};
// The lessons in `dir`, by file name (the course's order: "01-first-kernel" first). Files that
// are not lessons are left out.
std::vector<LessonEntry> listLessons(const std::filesystem::path& dir = lessonsDir());

// The lesson after the one with `id` in the course it belongs to: the first of `dirs` (a course
// folder each, the installed lessonsDir() first) that holds a lesson with that id. Nothing when
// none does, or when that lesson is the course's last.
std::optional<LessonEntry> nextLesson(const std::string& id, const std::vector<std::filesystem::path>& dirs);

// For each output check of `lesson` whose reference is neither carried in the lesson file nor
// beside it (a learner's file saved elsewhere by an older version): the reference of the
// installed course's lesson with the same id, from `dir`. The checks left without one say so
// when they are evaluated ("not checked: cannot read reference ...").
void findCourseReferences(Lesson& lesson, const std::filesystem::path& dir = lessonsDir());

// A learner's progress in one lesson, kept in the user's data folder (one file per lesson id),
// so that a lesson reopened goes on where it was left, with the learner's own work.
struct Progress {
    std::string id;
    std::string file;               // the lesson file last opened for it
    int step = 1;                   // the step the learner is on (1-based)
    std::set<int> passed;           // steps whose checks all passed
    std::map<int, int> hintsShown;  // per step: how many hints are revealed
    // Per step: the learner's own state (modules, options, ...) as a workspace file's JSON, kept
    // when they leave the step, reset it or look at its solution.
    std::map<int, nlohmann::ordered_json> work;
};
// The file for `id` in `dir`: its characters outside [A-Za-z0-9._-] become '_', and a hash of the
// whole id keeps two ids apart ("nvvm-course/01" -> "nvvm-course_01-1a2b3c4d.json").
std::filesystem::path progressFile(const std::filesystem::path& dir, const std::string& id);
// A missing file is an empty progress for `id`; a damaged one is an error saying so.
support::Result<Progress> readProgress(const std::filesystem::path& file, const std::string& id);
support::Status writeProgress(const std::filesystem::path& file, const Progress& progress);

// A workspace's state as progress keeps it, and back (over `into`, whose name and lesson stay).
nlohmann::ordered_json stateJson(const workspace::Workspace& ws);
support::Result<workspace::Workspace> stateFromJson(const nlohmann::ordered_json& state,
                                                    const workspace::Workspace& into);

}  // namespace nvpg::lesson
