#include "core/inspect/Docs.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "core/inspect/DocsEmbedded.h"
#include "core/nvvm/NewerIr.h"
#include "core/support/Json.h"
#include "core/support/Text.h"

namespace nvpg::inspect {

namespace detail {

std::vector<std::pair<std::string, std::string>> embeddedDocTexts() {
    std::vector<std::pair<std::string, std::string>> texts;
    for (const EmbeddedDoc* d = embeddedDocs(); d->name; ++d)
        texts.emplace_back(d->name, std::string(d->data, d->size));
    return texts;
}

}  // namespace detail

namespace {

std::optional<DocDomain> domainNamed(std::string_view name) {
    if (name == "ptx") return DocDomain::Ptx;
    if (name == "ir") return DocDomain::Ir;
    if (name == "libdevice") return DocDomain::Libdevice;
    if (name == "sass") return DocDomain::Sass;
    if (name == "view") return DocDomain::View;
    if (name == "arch") return DocDomain::Arch;
    if (name == "option") return DocDomain::Option;
    return std::nullopt;
}

const char* domainName(DocDomain d) {
    switch (d) {
        case DocDomain::Ptx:
            return "PTX";
        case DocDomain::Ir:
            return "NVVM IR";
        case DocDomain::Libdevice:
            return "libdevice";
        case DocDomain::Sass:
            return "SASS";
        case DocDomain::View:
            return "NVVM Playground";
        case DocDomain::Arch:
        case DocDomain::Option:
            return "libNVVM";
    }
    return "";
}

// The fields an entry may have; any other is a typo the loader names rather than ignores.
constexpr std::array kRequired{"key", "kind", "title", "summary", "link", "source"};
constexpr std::array kOptional{
    "details", "syntax", "modifiers", "accuracy", "option_effect", "sass", "compute_capability",
    "ptx_isa", "adds",   "values",    "default",  "effect"};
constexpr const char* kKnownFields =
    "key, kind, title, summary, details, syntax, modifiers, accuracy, option_effect, sass, compute_capability, "
    "ptx_isa, adds, values, default, effect, link, source";

// "modifiers" and "values" are objects of "name": "meaning".
std::string readPairs(const nlohmann::json& j, const char* field,
                      std::vector<std::pair<std::string, std::string>>& out) {
    if (!j.contains(field)) return {};
    const auto& m = j[field];
    if (!m.is_object()) return fmt::format("field \"{}\" is not an object of \"name\": \"meaning\"", field);
    for (const auto& [name, meaning] : m.items()) {
        if (!meaning.is_string() || meaning.get_ref<const std::string&>().empty())
            return fmt::format("{} \"{}\" has no text", field, name);
        out.emplace_back(name, meaning.get<std::string>());
    }
    return {};
}

std::string readEntry(const nlohmann::json& j, DocDomain domain, DocEntry& e) {
    if (!j.is_object()) return "is not an object";
    for (const auto& [name, value] : j.items()) {
        const bool known = std::find(kRequired.begin(), kRequired.end(), name) != kRequired.end() ||
                           std::find(kOptional.begin(), kOptional.end(), name) != kOptional.end();
        if (!known) return fmt::format("has the unknown field \"{}\" (known: {})", name, kKnownFields);
        if (name != "modifiers" && name != "values" && !value.is_string())
            return fmt::format("field \"{}\" is not a string", name);
    }
    for (const char* name : kRequired)
        if (!j.contains(name) || j[name].get_ref<const std::string&>().empty())
            return fmt::format("lacks \"{}\" (every entry needs key, kind, title, summary, link, source)", name);
    auto str = [&](const char* name) { return j.contains(name) ? j[name].get<std::string>() : std::string(); };
    e.domain = domain;
    e.key = str("key");
    e.kind = str("kind");
    e.title = str("title");
    e.summary = str("summary");
    e.details = str("details");
    e.syntax = str("syntax");
    e.accuracy = str("accuracy");
    e.optionEffect = str("option_effect");
    e.sass = str("sass");
    e.computeCapability = str("compute_capability");
    e.ptxIsa = str("ptx_isa");
    e.adds = str("adds");
    e.defaultValue = str("default");
    e.effect = str("effect");
    e.link = str("link");
    e.source = str("source");
    if (!e.link.starts_with("https://"))
        return fmt::format("has the link \"{}\", which is not an https:// address", e.link);
    if (auto problem = readPairs(j, "modifiers", e.modifiers); !problem.empty()) return problem;
    if (auto problem = readPairs(j, "values", e.values); !problem.empty()) return problem;
    return {};
}

bool isUpper(std::string_view s) {
    return std::none_of(s.begin(), s.end(), [](unsigned char c) { return std::islower(c); });
}

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// IR writes names with a sigil ('@' globals, '%' locals, '!' metadata), quoted when they hold odd
// characters (numba: @"__nv_sinf"); the docs key the bare name.
std::string withoutIrSigil(std::string_view w) {
    if (!w.empty() && (w[0] == '@' || w[0] == '!' || w[0] == '%')) w.remove_prefix(1);
    if (w.size() >= 2 && w.front() == '"' && w.back() == '"') w = w.substr(1, w.size() - 2);
    return std::string(w);
}

// An option as nvpg, libNVVM or a person writes it ("-ftz=1", "--prec-div", "ftz"): the name
// without its dashes, and the value after '=' (empty when none).
std::pair<std::string, std::string> optionParts(std::string_view w) {
    for (int i = 0; i < 2 && w.starts_with('-'); ++i) w.remove_prefix(1);
    const size_t eq = w.find('=');
    if (eq == std::string_view::npos) return {std::string(w), {}};
    return {std::string(w.substr(0, eq)), std::string(w.substr(eq + 1))};
}

// An arch as written: "compute_90a", or its SASS target "sm_90a" (also upper case), which names
// the same entry.
std::string archForm(std::string_view w) {
    std::string out;
    for (char c : w) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (out.starts_with("sm_")) out = "compute_" + out.substr(3);
    return out;
}

std::vector<std::string> splitModifiers(std::string_view rest) {
    std::vector<std::string> mods;
    while (!rest.empty()) {
        const size_t next = rest.find('.', 1);
        mods.emplace_back(rest.substr(0, next));
        if (next == std::string_view::npos) break;
        rest.remove_prefix(next);
    }
    return mods;
}

// The edit distance of `a` (lower case) and `b` (compared in lower case), or limit + 1 once it
// is surely over `limit`; `row` is scratch space, kept by the caller across calls.
size_t boundedEditDistance(std::string_view a, std::string_view b, size_t limit, std::vector<size_t>& row) {
    return support::editDistance(
        a, b, [](char x, char y) { return x == static_cast<char>(std::tolower(static_cast<unsigned char>(y))); }, row,
        limit);
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::optional<Docs> Docs::fromJson(const std::vector<std::pair<std::string, std::string>>& namedTexts,
                                   std::string* error) {
    auto fail = [&](std::string message) -> std::optional<Docs> {
        if (error) *error = std::move(message);
        return std::nullopt;
    };
    Docs docs;
    std::set<std::pair<DocDomain, std::string>> keys;
    for (const auto& [name, text] : namedTexts) {
        auto parsed = support::parseJson(text);
        if (parsed.problem)
            return fail(fmt::format("{}:{}:{}: not JSON: {}", name, parsed.problem->line, parsed.problem->column,
                                    parsed.problem->reason));
        const auto& doc = parsed.doc;
        if (!doc.is_object() || !doc.contains("domain") || !doc["domain"].is_string() || !doc.contains("entries") ||
            !doc["entries"].is_array())
            return fail(
                fmt::format("{}: expected {{\"domain\": \"ptx|ir|libdevice|sass|view\", \"entries\": [...]}}", name));
        const auto domain = domainNamed(doc["domain"].get<std::string>());
        if (!domain)
            return fail(fmt::format("{}: unknown domain \"{}\" (one of ptx, ir, libdevice, sass, view)", name,
                                    doc["domain"].get<std::string>()));
        size_t index = 0;
        for (const auto& j : doc["entries"]) {
            DocEntry e;
            const std::string problem = readEntry(j, *domain, e);
            const std::string label = j.is_object() && j.contains("key") && j["key"].is_string()
                                          ? fmt::format("entry {} \"{}\"", index + 1, j["key"].get<std::string>())
                                          : fmt::format("entry {}", index + 1);
            if (!problem.empty()) return fail(fmt::format("{}: {} {}", name, label, problem));
            if (!keys.emplace(*domain, e.key).second)
                return fail(fmt::format("{}: {}: the key is already used by another entry of the domain", name, label));
            docs.entries_.push_back(std::move(e));
            ++index;
        }
    }
    docs.indexKeys();
    return docs;
}

namespace {

// What the table of IR newer than LLVM 7.0.1 knows, as IR entries: a word the IR docs have
// ("freeze") gets a sentence on the arch that reads it, one they do not ("noundef") an entry of
// its own, so that a hover or `nvpg explain` on it says what the compile error says.
void addNewerIrWords(std::vector<DocEntry>& entries) {
    for (const auto& w : nvvm::newerIrWords()) {
        const std::string word(w.word);
        const std::string what = nvvm::describeNewerIrWord(w);
        std::string which = fmt::format("`{}` is {}. {}: below compute_100 it is a parse error at the word.", word,
                                        what, nvvm::kDialectsByArch);
        const std::string remedy =
            w.removable ? "It is an optimisation hint (or a promise a front end makes): the program means the same "
                          "without it, and the fix \"Rewrite ... for LLVM 7.0.1\" drops it. Or compile for "
                          "compute_100 or later."
                        : "LLVM 7.0.1 has nothing to write in its place: compile for compute_100 or later, or have "
                          "the IR written without it.";
        auto known = std::find_if(entries.begin(), entries.end(),
                                  [&](const DocEntry& e) { return e.domain == DocDomain::Ir && e.key == word; });
        if (known != entries.end()) {
            known->details += fmt::format("{}{} {}", known->details.empty() ? "" : " ", which, remedy);
            continue;
        }
        DocEntry e;
        e.key = word;
        e.domain = DocDomain::Ir;
        e.kind = std::string(w.kind);
        e.title = fmt::format("{} — {}", word, what);
        e.summary = std::move(which);
        e.details = remedy;
        e.link = "https://llvm.org/docs/LangRef.html";
        e.source = "LLVM Language Reference (of the LLVM that writes it)";
        entries.push_back(std::move(e));
    }
}

}  // namespace

const Docs& Docs::builtIn() {
    // Read once, on first use (a thread-safe static). A file that does not read is left out, so one
    // bad text does not take every hover down; tst_docs reads the same texts and fails naming it.
    static const Docs docs = [] {
        Docs all;
        for (auto& named : detail::embeddedDocTexts()) {
            std::string error;
            if (auto one = fromJson({named}, &error))
                for (auto& e : one->entries_) all.entries_.push_back(std::move(e));
        }
        addNewerIrWords(all.entries_);
        all.indexKeys();
        return all;
    }();
    return docs;
}

std::vector<Explanation> Docs::explain(std::string_view word, DocContext context) const {
    struct Candidate {
        DocDomain domain;
        std::string form;   // the word as this domain keys it
        std::string value;  // an option's value ("-ftz=1" → "1"), which is no modifier
    };
    std::vector<Candidate> forms;
    auto add = [&](DocDomain d, std::string form, std::string value = {}) {
        if (!form.empty()) forms.push_back({d, std::move(form), std::move(value)});
    };
    auto addOptions = [&] {
        add(DocDomain::Arch, archForm(word));
        auto [name, value] = optionParts(word);
        add(DocDomain::Option, std::move(name), std::move(value));
    };
    // The domain order is the order of preference when a word names entries in several.
    switch (context) {
        case DocContext::Ir:
            add(DocDomain::Ir, withoutIrSigil(word));
            add(DocDomain::Libdevice, withoutIrSigil(word));
            break;
        case DocContext::Ptx:
            add(DocDomain::Ptx, std::string(word));
            add(DocDomain::Libdevice, std::string(word));
            // The target of `.target sm_90a` is the arch's entry.
            if (word.starts_with("sm_")) add(DocDomain::Arch, archForm(word));
            break;
        case DocContext::Sass:
            add(DocDomain::Sass, upper(word));
            break;
        case DocContext::View:
            add(DocDomain::View, std::string(word));
            break;
        case DocContext::Options:
            addOptions();
            break;
        case DocContext::Any:
            add(DocDomain::Ptx, std::string(word));
            add(DocDomain::Ir, withoutIrSigil(word));
            add(DocDomain::Libdevice, withoutIrSigil(word));
            // SASS is written upper-case; a lower-case word ("ret") means PTX's or IR's.
            if (isUpper(word)) add(DocDomain::Sass, std::string(word));
            add(DocDomain::View, std::string(word));
            addOptions();
            break;
    }

    struct Found {
        Explanation e;
        size_t keyLength;
        size_t order;
    };
    std::vector<Found> found;
    for (size_t i = 0; i < forms.size(); ++i) {
        const auto& [domain, form, value] = forms[i];
        // The longest key the word starts with at a '.' boundary (the whole word first). An arch
        // or an option is named whole: compute_90 is no modifier of anything.
        const bool whole = domain == DocDomain::Arch || domain == DocDomain::Option;
        const DocEntry* best = nullptr;
        for (const auto& e : entries_) {
            if (whole && (e.domain != domain || e.key != form)) continue;
            if (e.domain != domain || e.key.size() > form.size() || (best && e.key.size() <= best->key.size()))
                continue;
            if (form.compare(0, e.key.size(), e.key) != 0) continue;
            if (e.key.size() < form.size() && form[e.key.size()] != '.') continue;
            best = &e;
        }
        if (!best) continue;
        Explanation ex;
        ex.word = std::string(word);
        ex.entry = best;
        if (domain == DocDomain::Arch && lower(word).starts_with("sm_"))
            ex.note = fmt::format("{} is the SASS target of {}; libNVVM's -arch takes the compute_ name", lower(word),
                                  best->key);
        if (domain == DocDomain::Option && !value.empty()) {
            // The value's meaning from the entry's own list; an arch value (-arch=compute_90) is
            // that arch's title.
            std::string meaning;
            for (const auto& [v, text] : best->values)
                if (v == value) meaning = text;
            if (meaning.empty())
                for (const auto& e : entries_)
                    if (e.domain == DocDomain::Arch && e.key == archForm(value)) meaning = e.title;
            ex.modifiers.emplace_back("=" + value, std::move(meaning));
        }
        if (!whole)
            for (auto& mod : splitModifiers(std::string_view(form).substr(best->key.size()))) {
                std::string meaning;
                for (const auto& [m, text] : best->modifiers)
                    if (m == mod) meaning = text;
                // Then the domain's own modifier (or state space: ld.global); then another domain's
                // modifier, since IR's type suffixes (llvm.fma.f32) and sreg components (.x) mean
                // what PTX's do.
                for (int pass = 0; pass < 2 && meaning.empty(); ++pass)
                    for (const auto& e : entries_) {
                        const bool ok =
                            pass == 0
                                ? e.domain == domain && (e.kind == "modifier" || e.kind == "state space")
                                : e.kind == "modifier" && (e.domain == DocDomain::Sass) == (domain == DocDomain::Sass);
                        if (ok && e.key == mod) {
                            meaning = e.summary;
                            break;
                        }
                    }
                ex.modifiers.emplace_back(std::move(mod), std::move(meaning));
            }
        found.push_back({std::move(ex), best->key.size(), i});
    }
    // The same entry reached twice (IR and Any forms of one word) is listed once.
    std::stable_sort(found.begin(), found.end(), [&](const Found& a, const Found& b) {
        const bool aExact = a.keyLength == forms[a.order].form.size();
        const bool bExact = b.keyLength == forms[b.order].form.size();
        if (aExact != bExact) return aExact;
        return a.order < b.order;
    });
    std::vector<Explanation> out;
    for (auto& f : found)
        if (std::none_of(out.begin(), out.end(), [&](const Explanation& x) { return x.entry == f.e.entry; }))
            out.push_back(std::move(f.e));
    return out;
}

std::vector<std::string> Docs::nearest(std::string_view word, size_t n) const {
    // No key is longer than 35 characters: a word twice that long is no typo of one, and its
    // distance to every key would cost |word| x |key| steps each (a 131 KB word took 6.3 s).
    constexpr size_t kLongestSuggestible = 80;
    if (word.size() > kLongestSuggestible || n == 0) return {};
    const std::string bare = lower(withoutIrSigil(word));
    const std::string raw = lower(word);
    // The forms the word is measured in: as written, without an IR sigil, without its modifiers,
    // and as an option ("-ftzz=1" → "ftzz") or an arch ("sm_91" → "compute_91") names a key.
    std::vector<std::string> forms{bare};
    auto addForm = [&](std::string f) {
        if (!f.empty() && std::find(forms.begin(), forms.end(), f) == forms.end()) forms.push_back(std::move(f));
    };
    addForm(raw);
    // The word without its modifiers: "fmaa.rn.f32" is a typo of fma, whatever its modifiers.
    if (const size_t dot = bare.find('.', 1); dot != std::string::npos) addForm(bare.substr(0, dot));
    addForm(optionParts(raw).first);
    addForm(archForm(raw));
    // A suggestion must be close in spelling: at most a third of the form's characters off (at
    // least one), or a key the word begins (a word of 3 or more characters: "prec" → prec-div).
    // Otherwise the nearest of ~1,500 keys to a word that is like none of them is unrelated.
    auto within = [](const std::string& form) { return std::max<size_t>(1, form.size() / 3); };
    constexpr size_t kShortestPrefix = 3;
    struct Scored {
        size_t distance;
        size_t prefix;
        const std::string* key;
    };
    auto better = [](const Scored& a, const Scored& b) {
        if (a.distance != b.distance) return a.distance < b.distance;
        if (a.prefix != b.prefix) return a.prefix > b.prefix;
        return *a.key < *b.key;
    };
    auto startsWithIgnoringCase = [](std::string_view key, std::string_view form) {
        if (form.size() > key.size()) return false;
        for (size_t i = 0; i < form.size(); ++i)
            if (std::tolower(static_cast<unsigned char>(key[i])) != static_cast<unsigned char>(form[i])) return false;
        return true;
    };
    // The best n so far, best first: a key whose length alone puts it further than the nth is
    // not measured, and a measurement stops once it passes that distance.
    std::vector<Scored> best;
    std::vector<size_t> row;
    constexpr size_t kUnbounded = std::numeric_limits<size_t>::max();
    for (const size_t i : uniqueKeys_) {
        const std::string& key = entries_[i].key;
        const size_t nth = best.size() < n ? kUnbounded : best.back().distance;
        size_t d = kUnbounded;
        for (const auto& form : forms) {
            const bool completes = form.size() >= kShortestPrefix && startsWithIgnoringCase(key, form);
            const size_t limit = std::min(nth, completes ? kUnbounded : within(form));
            const size_t fd = boundedEditDistance(form, key, limit, row);
            if (fd <= limit) d = std::min(d, fd);
        }
        if (d == kUnbounded) continue;
        // The shared prefix with the word without its sigil; with an option's or arch's form
        // only where that form is not the word as written.
        size_t p = 0;
        for (const auto& form : forms) {
            if (form == raw && raw != bare) continue;  // "%tid" is not nearer to "%tidd" for its '%'
            size_t q = 0;
            while (q < key.size() && q < form.size() &&
                   std::tolower(static_cast<unsigned char>(key[q])) == static_cast<unsigned char>(form[q]))
                ++q;
            p = std::max(p, q);
        }
        const Scored s{d, p, &key};
        if (best.size() == n && !better(s, best.back())) continue;
        best.insert(std::upper_bound(best.begin(), best.end(), s, better), s);
        if (best.size() > n) best.pop_back();
    }
    std::vector<std::string> out;
    for (const auto& s : best) out.push_back(*s.key);
    return out;
}

void Docs::indexKeys() {
    // One measurement per key, however many domains use it.
    std::set<std::string_view> seen;
    uniqueKeys_.clear();
    for (size_t i = 0; i < entries_.size(); ++i)
        if (seen.insert(entries_[i].key).second) uniqueKeys_.push_back(i);
}

namespace {

bool isPtxWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '%';
}
bool isSassWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}
bool isIrNameChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
}

std::string runAround(std::string_view line, size_t column, bool (*inWord)(char)) {
    if (column >= line.size() || !inWord(line[column])) return {};
    size_t b = column, e = column;
    while (b > 0 && inWord(line[b - 1])) --b;
    while (e < line.size() && inWord(line[e])) ++e;
    std::string_view w = line.substr(b, e - b);
    // A sentence's full stop, or "foo." in a comment, is not part of the word.
    while (w.size() > 1 && w.back() == '.') w.remove_suffix(1);
    return std::string(w);
}

std::string irWordAt(std::string_view line, size_t column) {
    if (column >= line.size()) return {};
    // A quoted name (@"__nv_sinf", %"x y"): the whole of it, sigil and quotes included.
    for (size_t i = 0; i + 1 < line.size(); ++i) {
        if ((line[i] != '@' && line[i] != '%' && line[i] != '!') || line[i + 1] != '"') continue;
        const size_t close = line.find('"', i + 2);
        if (close == std::string_view::npos) break;
        if (column >= i && column <= close) return std::string(line.substr(i, close - i + 1));
        i = close;
    }
    // addrspace(N), hovered anywhere in it.
    for (size_t at = line.find("addrspace("); at != std::string_view::npos; at = line.find("addrspace(", at + 1)) {
        const size_t close = line.find(')', at);
        if (close == std::string_view::npos) break;
        if (column >= at && column <= close) return std::string(line.substr(at, close - at + 1));
    }
    size_t c = column;
    if ((line[c] == '@' || line[c] == '%' || line[c] == '!') && c + 1 < line.size() && isIrNameChar(line[c + 1])) ++c;
    if (!isIrNameChar(line[c])) return {};
    size_t b = c, e = c;
    while (b > 0 && isIrNameChar(line[b - 1])) --b;
    while (e < line.size() && isIrNameChar(line[e])) ++e;
    if (b > 0 && (line[b - 1] == '@' || line[b - 1] == '%' || line[b - 1] == '!')) --b;
    std::string_view w = line.substr(b, e - b);
    // "-" belongs to names (@my-kernel) but not to numbers ("-1") or to a word's end.
    while (!w.empty() && w.back() == '-') w.remove_suffix(1);
    if (!w.empty() && w.front() == '-') w.remove_prefix(1);
    return std::string(w);
}

}  // namespace

std::string wordAt(std::string_view line, size_t column, DocContext context) {
    switch (context) {
        case DocContext::Ptx:
            return runAround(line, column, isPtxWordChar);
        case DocContext::Sass:
            return runAround(line, column, isSassWordChar);
        case DocContext::Ir:
        case DocContext::View:
        case DocContext::Options:
        case DocContext::Any:
            return irWordAt(line, column);
    }
    return {};
}

std::string formatExplanation(const Explanation& e) {
    // The word is what the user typed (or hovered): shown escaped, as names are everywhere, so
    // that an escape sequence in it cannot rewrite the terminal.
    const std::string word = support::printable(e.word);
    if (!e.entry) return fmt::format("{}: no entry\n", word);
    const DocEntry& d = *e.entry;
    std::string out = fmt::format("{}    ({} {})\n", d.title, domainName(d.domain), d.kind);
    if (e.word != d.key) fmt::format_to(std::back_inserter(out), "  as written: {}\n", word);
    if (!e.note.empty()) fmt::format_to(std::back_inserter(out), "  ({})\n", e.note);
    fmt::format_to(std::back_inserter(out), "{}\n", d.summary);
    if (!d.syntax.empty()) fmt::format_to(std::back_inserter(out), "Syntax: {}\n", d.syntax);
    if (!d.sass.empty()) {
        fmt::format_to(std::back_inserter(out), "SASS target: {}", d.sass);
        if (!d.computeCapability.empty())
            fmt::format_to(std::back_inserter(out), " (compute capability {})", d.computeCapability);
        out += "\n";
    }
    if (!d.ptxIsa.empty()) fmt::format_to(std::back_inserter(out), "PTX: {}\n", d.ptxIsa);
    if (!d.adds.empty()) fmt::format_to(std::back_inserter(out), "Adds: {}\n", d.adds);
    if (!d.values.empty()) {
        size_t width = 0;
        for (const auto& [v, _] : d.values) width = std::max(width, support::displayWidth(v));
        out += "Values:\n";
        for (const auto& [v, meaning] : d.values)
            fmt::format_to(std::back_inserter(out), "  {:<{}}  {}\n", v, width, meaning);
    }
    if (!d.defaultValue.empty()) fmt::format_to(std::back_inserter(out), "Default: {}\n", d.defaultValue);
    if (!e.modifiers.empty()) {
        size_t width = 0;
        for (const auto& [m, _] : e.modifiers) width = std::max(width, support::displayWidth(support::printable(m)));
        out += d.domain == DocDomain::Option ? "Value given:\n" : "Modifiers:\n";
        for (const auto& [m, meaning] : e.modifiers)
            fmt::format_to(std::back_inserter(out), "  {:<{}}  {}\n", support::printable(m), width,
                           meaning.empty() ? "(no text for this modifier)" : meaning);
    }
    if (!d.details.empty()) fmt::format_to(std::back_inserter(out), "{}\n", d.details);
    if (!d.accuracy.empty()) fmt::format_to(std::back_inserter(out), "Accuracy: {}\n", d.accuracy);
    if (!d.optionEffect.empty()) fmt::format_to(std::back_inserter(out), "Options: {}\n", d.optionEffect);
    if (!d.effect.empty()) fmt::format_to(std::back_inserter(out), "Effect: {}\n", d.effect);
    fmt::format_to(std::back_inserter(out), "Read: {} {}\n", d.source, d.link);
    return out;
}

std::string optionEffectText(std::string_view option, std::string_view value) {
    std::string out;
    const auto& docs = Docs::builtIn();
    const auto find = [&](std::string_view key, DocDomain domain) -> const DocEntry* {
        for (const auto& e : docs.entries())
            if (e.domain == domain && e.key == key) return &e;
        return nullptr;
    };
    if (const auto* e = find(option, DocDomain::Option); e && !e->effect.empty()) out = e->effect;
    if (option == "arch")
        if (const auto* a = find(value, DocDomain::Arch); a && !a->adds.empty())
            out += fmt::format("{}{}: {}", out.empty() ? "" : "\n\n", a->key, a->adds);
    return out;
}

}  // namespace nvpg::inspect
