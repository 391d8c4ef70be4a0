#pragma once

#include <array>
#include <memory>

#include <QObject>
#include <QString>

#include "core/pipeline/Job.h"
#include "core/support/Result.h"
#include "core/toolkit/Toolkit.h"
#include "core/workspace/Workspace.h"
#include "gui/compile/SupervisedEngine.h"

namespace nvpg::gui {

// The engines of the Compare dock's two sides: a side that shows a variant compiles on an engine
// process of its own, made for the variant's toolkit (two releases share libnvvm.so.4's soname,
// so each needs its own process) or for the app's. Each compile of a side is numbered; only the
// newest one's replies come out, cancelled ones never.
class CompareSession : public QObject {
    Q_OBJECT

public:
    // `appToolkit` and `settings`: what a variant without a toolkit of its own compiles with.
    CompareSession(std::shared_ptr<const toolkit::Toolkit> appToolkit, EngineSettings settings,
                   QObject* parent = nullptr);
    ~CompareSession() override;

    // New app settings: every side's engine goes (the next makeEngine makes one of these).
    void setAppToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, EngineSettings settings);
    // Whether side `side` has an engine for variant `v`'s toolkit.
    bool hasEngineFor(size_t side, const workspace::Variant& v) const;
    bool hasEngine(size_t side) const { return sides_[side].engine != nullptr; }
    // Makes side `side`'s engine for `v` (its toolkit, else the app's), in place of any it had;
    // fails, leaving it none, when the variant's toolkit is not where the workspace says.
    support::Status makeEngine(size_t side, const workspace::Variant& v);
    // Side `side` compiles nothing any more: its engine goes.
    void drop(size_t side);

    // Compiles `job` on side `side`'s engine (it must have one), numbered after the last.
    void compile(size_t side, pipeline::Job job);
    // A compile of the side is in flight (until its reply; a cancelled one keeps it so).
    bool waiting(size_t side) const { return sides_[side].waiting; }

signals:
    // The newest compile of side `side` replied (never a cancelled one).
    void replied(size_t side, const nvpg::gui::EngineReply& reply);
    // Its complete result came after the reply (the SASS).
    void lateReplied(size_t side, std::shared_ptr<const nvpg::pipeline::CompileResult> result);

private:
    struct Side {
        std::unique_ptr<SupervisedEngine> engine;
        QString toolkit;  // the root its engine was made for; empty: the app's
        quint64 generation = 0;
        bool waiting = false;
    };
    std::shared_ptr<const toolkit::Toolkit> appToolkit_;
    EngineSettings settings_;
    std::array<Side, 2> sides_;
};

}  // namespace nvpg::gui
