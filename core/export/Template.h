#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/support/Result.h"

// The fixed text of exported code: templates (resources/export/*.in, built into the binary) with
// named places that the writers fill.
//
// A template is lines of text with three kinds of marks, each between two '@':
// - `@name@` inside a line: a value of one line (no line break);
// - a line that is only `@name@`: a block of whole lines (empty, or ending with a line break)
//   that stands for that line;
// - lines that are only `@if name@`, `@else name@` (optional) and `@end name@`: a section,
//   kept when the flag `name` is on (the lines up to @else), else dropped (the lines after it).
//   Sections nest; the marker lines never reach the output.
// Names are lower-case letters, digits and '_'. "@@" is one '@' of the text; no other '@' may
// stand in a template.
namespace nvpg::exporting {

struct TemplateFill {
    std::map<std::string, std::string> values;
    std::map<std::string, bool> sections;
};

// What a template holds: its places (both kinds) and its sections.
struct TemplateMarks {
    std::set<std::string> places, sections;
};

// The marks of `text`; an error for a stray '@', a section that does not close or closes
// another, an @else out of place.
support::Result<TemplateMarks> templateMarks(std::string_view text);

// `text` filled. An error, as for templateMarks, and also for: a place left without a value in
// a kept line, a value for a place the template does not have, a section the fill does not set
// or one the template does not have, a line break in a one-line value, a block that does not end
// with one. Values go in as they are: what they hold is never read as marks.
support::Result<std::string> fillTemplate(std::string_view text, const TemplateFill& fill);

// The templates built into the binary, by file name ("program.c.in"), and their names.
std::string_view builtInTemplate(std::string_view name);
std::vector<std::string> builtInTemplateNames();

// builtInTemplate(name) filled; a template and a fill that do not match are a fault of this
// program, thrown as std::logic_error.
std::string fillBuiltIn(std::string_view name, const TemplateFill& fill);

}  // namespace nvpg::exporting
