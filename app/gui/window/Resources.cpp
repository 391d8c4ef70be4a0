#include <QtGlobal>

// The GUI lives in a static library, whose resources (the window icon) are registered
// only when something asks; the window does, so the app and the tests get them alike.
static void registerGuiResources() {
    Q_INIT_RESOURCE(gui);
}

namespace nvpg::gui {
void initResources() {
    static const bool once = (registerGuiResources(), true);
    (void)once;
}
}  // namespace nvpg::gui
