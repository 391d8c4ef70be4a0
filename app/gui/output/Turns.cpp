#include "gui/output/Turns.h"

#include <deque>
#include <utility>

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace nvpg::gui {

namespace {

class LaterTurns : public QObject {
public:
    LaterTurns() {
        timer_.setObjectName(QStringLiteral("laterTurns"));  // named where timings list it
        timer_.setSingleShot(true);
        timer_.setInterval(0);
        connect(&timer_, &QTimer::timeout, this, &LaterTurns::runOne);
    }

    void add(QObject* owner, std::function<void()> piece) {
        pieces_.push_back({owner, std::move(piece)});
        if (!timer_.isActive()) timer_.start();
    }

private:
    void runOne() {
        while (!pieces_.empty()) {
            auto [owner, piece] = std::move(pieces_.front());
            pieces_.pop_front();
            if (!owner) continue;                  // its view is gone: nothing to run, try the next
            if (!pieces_.empty()) timer_.start();  // the next in a turn of its own, whatever this one does
            piece();
            return;
        }
    }

    struct Piece {
        QPointer<QObject> owner;
        std::function<void()> run;
    };
    std::deque<Piece> pieces_;
    QTimer timer_;
};

LaterTurns& laterTurns() {
    // Made on the UI thread on first use; its timer lives there.
    static auto* turns = new LaterTurns;
    return *turns;
}

}  // namespace

void runInLaterTurn(QObject* owner, std::function<void()> piece) {
    laterTurns().add(owner, std::move(piece));
}

}  // namespace nvpg::gui
