#include "gui/panels/CompareSession.h"

#include <filesystem>
#include <system_error>

#include <fmt/format.h>

namespace fs = std::filesystem;

namespace nvpg::gui {

namespace {

// The variant's toolkit, located (never opened here: its engine opens it), or why it cannot be used.
support::Result<std::shared_ptr<toolkit::Toolkit>> variantToolkit(const workspace::Variant& v) {
    std::error_code ec;
    if (!fs::is_directory(v.toolkit, ec))
        return support::makeError(support::ErrorKind::Environment,
                                  fmt::format("the folder {} is not there any more", v.toolkit));
    toolkit::SearchConfig search;
    search.explicitRoot = v.toolkit;
    return toolkit::Toolkit::locate(search);
}

}  // namespace

CompareSession::CompareSession(std::shared_ptr<const toolkit::Toolkit> appToolkit, EngineSettings settings,
                               QObject* parent)
    : QObject(parent), appToolkit_(std::move(appToolkit)), settings_(std::move(settings)) {}

CompareSession::~CompareSession() = default;

void CompareSession::setAppToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, EngineSettings settings) {
    appToolkit_ = std::move(toolkit);
    settings_ = std::move(settings);
    for (auto& s : sides_) s.engine.reset();
}

bool CompareSession::hasEngineFor(size_t side, const workspace::Variant& v) const {
    const auto& s = sides_[side];
    return s.engine && s.toolkit == QString::fromStdString(v.toolkit);
}

support::Status CompareSession::makeEngine(size_t side, const workspace::Variant& v) {
    auto& s = sides_[side];
    s.engine.reset();
    std::shared_ptr<const toolkit::Toolkit> tk = appToolkit_;
    EngineSettings settings = settings_;
    if (!v.toolkit.empty() && settings.far)
        // The far engine compiles with the far toolkit only: never that one in this one's place.
        return support::makeError(
            support::ErrorKind::Environment,
            fmt::format("the toolkit {} is on this machine, and compiles go to {}: File ▸ Settings… ▸ Engine ▸ On "
                        "this machine compares it",
                        v.toolkit, settings.far->destination));
    if (!v.toolkit.empty()) {
        // Never another toolkit in its place: the comparison would be of something else.
        auto located = variantToolkit(v);
        if (!located) return located.error();
        tk = *located;
        settings.cudaPath = v.toolkit;
    }
    s.engine = std::make_unique<SupervisedEngine>(tk, tk ? QString() : tr("libNVVM is not available"), settings);
    s.toolkit = QString::fromStdString(v.toolkit);
    connect(s.engine.get(), &Engine::replied, this, [this, side](const EngineReply& reply) {
        auto& s = sides_[side];
        if (reply.generation != s.generation || reply.cancelled) return;
        s.waiting = false;
        emit replied(side, reply);
    });
    connect(s.engine.get(), &Engine::lateReplied, this,
            [this, side](quint64 generation, std::shared_ptr<const pipeline::CompileResult> result) {
                if (generation != sides_[side].generation || !result) return;
                emit lateReplied(side, std::move(result));
            });
    return {};
}

void CompareSession::drop(size_t side) {
    sides_[side].engine.reset();
    sides_[side].waiting = false;
}

void CompareSession::compile(size_t side, pipeline::Job job) {
    auto& s = sides_[side];
    job.generation = ++s.generation;
    s.waiting = true;
    s.engine->submit(job);
}

}  // namespace nvpg::gui
