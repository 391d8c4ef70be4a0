#pragma once

#include <string>
#include <string_view>

// How text from a workspace (its name, description, module, run and kernel names, argument
// SPECs) goes into generated code: as data, never as code. One function per target language and
// kind of place, each the only one of its kind: a string literal reads back as the text, and a
// comment stays one comment line whatever the text holds (line breaks of any kind, NUL, bidi
// controls, comment ends, trigraphs, a line-final backslash). No generated file holds workspace
// text on its first two lines (where Python reads an encoding declaration).
namespace nvpg::exporting {

// A Python str literal ("..."), ASCII only: printable ASCII as it is, the rest as \n, \uXXXX or
// \UXXXXXXXX escapes. Bytes that are not UTF-8 become U+FFFD.
std::string pyString(std::string_view s);
// A C string literal: printable ASCII as it is, '?' as \? (no trigraphs), the rest as
// three-digit octal escapes (which, unlike \x, cannot run into the next character).
std::string cString(std::string_view s);

// Where a comment goes: a '#' line (Python, CMake: it ends at the line's end and nothing
// continues it), or a line inside a C block comment ("/* ... */" or " * " lines).
enum class Comment { Hash, C };
// `s` as text that stays inside one comment line of that kind: control characters, bidi
// controls, U+2028/U+2029 and bytes that are not UTF-8 escaped as support::printable writes
// them (\n, \u0085, \xNN); in C also no "*/" or "/*" (a space between), no "??" (trigraphs: a
// space between) and no backslash before a space or at the end (a line splice), which is \x5c.
std::string commentText(Comment kind, std::string_view s);
// `text` as comment lines of at most `width` columns, each starting with `prefix` ("# ", " * ");
// a later line of a list item starts with `indent` after the prefix. The text is escaped here.
std::string commentLines(Comment kind, std::string_view prefix, std::string_view text, std::string_view indent = {},
                         size_t width = 100);

// The stem of the exported code's files (STEM.py; STEM.c and the CMake target STEM) for a
// workspace or module name: pipeline::fileStemOf's, with "_export" added where that stem would
// be taken by something the code relies on: a module the script imports, or any other that
// Python could find first in the script's folder (every standard library module, cuda, numpy
// and what they import), or a name CMake reserves for a target or uses in its build folder
// (all, clean, help, install, test, package, CMakeFiles...). Compared without case, for file
// systems that do not tell case apart.
std::string codeStem(std::string_view name);

}  // namespace nvpg::exporting
