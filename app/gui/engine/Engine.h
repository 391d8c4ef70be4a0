#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "pipeline/Job.h"
#include "toolkit/Toolkit.h"

namespace nvpg::gui {

// What comes back for one request: the pipeline's result, or why there is none (an invalid
// option, a missing library). Plain data, so that it can come from a thread today and from a
// supervised engine process later without the GUI changing.
struct EngineReply {
    quint64 generation = 0;
    std::shared_ptr<const pipeline::Result> result;  // null when `error` says why
    QString error;
};

// The GUI's only way to compile: a request in, a reply out, asynchronously. Nothing behind it
// runs on the UI thread.
class Engine : public QObject {
    Q_OBJECT

public:
    using QObject::QObject;
    // Returns at once. Requests older than the newest one may be skipped unanswered.
    virtual void submit(const pipeline::Job& job) = 0;
    // Libraries found anew (a CUDA path setting): later requests use them. A null toolkit makes
    // every later request reply with `whyNone`.
    virtual void setToolkit(std::shared_ptr<const toolkit::Toolkit> toolkit, const QString& whyNone = {}) = 0;

signals:
    void replied(const nvpg::gui::EngineReply& reply);
};

}  // namespace nvpg::gui

Q_DECLARE_METATYPE(nvpg::gui::EngineReply)
Q_DECLARE_METATYPE(nvpg::pipeline::Job)
Q_DECLARE_METATYPE(std::shared_ptr<const nvpg::toolkit::Toolkit>)
