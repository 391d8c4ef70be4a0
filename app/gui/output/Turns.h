#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

class QObject;

namespace nvpg::gui {

// How many rows a view makes in one turn of the event loop when a reply brings hundreds (a large
// module's problems, its kernels' figures): the first this many at once, the rest in later turns,
// so that showing a reply never holds the window for long. Smaller replies show whole at once.
inline constexpr size_t kRowsPerTurn = 32;

// How long a piece of rows made in a later turn may take before it leaves the rest to the next
// one: rows with a widget each (a fix button) cost 0.1-0.25 ms, so a fixed count of them held the
// window 7-15 ms on a slower machine.
inline constexpr std::chrono::milliseconds kTurnBudget{2};

// What a reply leaves for later turns of the event loop (rows, tables, marks), one piece per turn,
// in the order given. Each piece runs from a timer of its own once the events that came meanwhile
// (keys, paints, other replies) are handled, so no two pieces, of one view or of several, run back
// to back in one go. A piece whose owner is gone is dropped; a piece that is no longer wanted (a
// newer reply came) says so itself and returns.
void runInLaterTurn(QObject* owner, std::function<void()> piece);

}  // namespace nvpg::gui
