#include "core/support/Pattern.h"

#include <re2/re2.h>

#include <fmt/format.h>

namespace nvpg::support {

Result<Pattern> Pattern::compile(std::string_view pattern) {
    RE2::Options options;
    options.set_log_errors(false);  // the reason goes into the error, not to stderr
    options.set_max_mem(kPatternMemory);
    auto re = std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
    if (!re->ok()) return makeError(ErrorKind::Input, re->error());
    Pattern out;
    out.re_ = std::move(re);
    return out;
}

bool Pattern::search(std::string_view text) const {
    return re_ && RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *re_);
}

const std::string& Pattern::source() const {
    static const std::string none;
    return re_ ? re_->pattern() : none;
}

}  // namespace nvpg::support
