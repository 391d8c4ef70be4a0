#pragma once

#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include <QHash>
#include <QObject>
#include <QString>

#include "core/inspect/LineMap.h"

class QsciScintilla;

namespace nvpg::gui {

class CompileController;
class EditorArea;
class ModuleEditor;
class OutputView;
class WorkspaceDocument;

// The line map drawn over the editors and the output panes, as Compiler Explorer does: each
// mapped IR line and the output lines it became share a background colour (a palette cycled by
// IR line); a click (or the caret moved by keys) on an IR line marks its lines in every output
// pane and scrolls to the first; a click on an output line shows and marks its IR line, in
// whichever module tab; hovering over a line shows LineMap::describe. Call lines that pulled in
// libdevice say so beside them. Display only: no pane's text changes.
class LineMapLinks : public QObject {
    Q_OBJECT

public:
    LineMapLinks(EditorArea* editors, OutputView* output, WorkspaceDocument* document, QObject* parent = nullptr);
    // Each compile's line map; a compile asked for makes the map shown stale.
    void attach(CompileController* controller);

    // The plain reply is on screen: the old map's marks go, and while `mapping` the panes with
    // text say so until setMap.
    void resultShown(bool mapping);
    // The map of the reply on screen; null when none came.
    void setMap(std::shared_ptr<const inspect::LineMap> map);
    // A module's text changed: the marks are of other text now, and go until the next map.
    void textEdited();
    // A new request went out with the text as it is now.
    void requested();
    // View > Line map: off clears everything and no note is shown.
    void setEnabled(bool on);

    std::shared_ptr<const inspect::LineMap> map() const { return map_; }

    // What a click on IR line `line` (1-based, in the map's numbering) of module `module` (its
    // name) does; `source` is an output pane that is not scrolled (the one clicked).
    void focusIrLine(const QString& module, int line, QsciScintilla* source = nullptr);
    // What a click on line `line` (1-based) of an output pane does.
    void focusOutputLine(inspect::MappedOutput output, int line);
    // Marks lines `lines` (1-based) of output pane `output` as focusIrLine marks an IR line's, and
    // scrolls to the first: a libdevice function's lines (the libdevice dock), which are no one
    // IR line's. Works without a map, or with View > Line map off (a `.func` body is known without
    // one); empty: marks none.
    void markOutputLines(inspect::MappedOutput output, const std::vector<inspect::LineRange>& lines);
    // A group of lines at once (a control-flow graph's block): marks lines `lines` (1-based) of
    // output pane `output` and, through the map, the IR lines they came from and those IR lines'
    // lines in the other panes, scrolling each pane to its first mark (no caret moves). Without a
    // map (or with View > Line map off) only the pane's own lines are marked.
    void focusOutputLines(inspect::MappedOutput output, const std::vector<int>& lines);
    // The same from IR lines `lines` (1-based, in the map's numbering) of module `module`.
    void focusIrLines(const QString& module, const std::vector<int>& lines);
    // Shows line `line` (1-based, in the map's numbering, which is the module's text or its
    // llvm-dis-14 text) of module `module` in its editor.
    void showIrLine(const QString& module, int line);
    // The hover text of 1-based editor line `line` of an editor or output pane; empty for none.
    QString hoverText(QsciScintilla* editor, int line) const;
    // The text beside a call line that pulled in libdevice (1-based map line); empty for none.
    QString libdeviceLabel(const QString& module, int line) const;

    // For tests: 1-based lines of `editor` that carry the strong mark, and those with a band.
    static std::vector<int> focusedLines(QsciScintilla* editor);
    static std::vector<int> bandedLines(QsciScintilla* editor);
    // The band colour index of a 1-based line; -1 for none.
    static int bandOf(QsciScintilla* editor, int line);

    static constexpr int kPaletteSize = 8;

signals:
    // The strong marks changed (a focus, a clear): views that follow them read focusedLines.
    void focusChanged();

private:
    // Marks IR lines `lines` (map module, line) in their editors and their lines in every output
    // pane but `skip`'s, scrolling to the first of each (not `noScroll`).
    void markIrLines(const std::set<std::pair<int, int>>& lines, std::optional<inspect::MappedOutput> skip,
                     QsciScintilla* noScroll);
    void attachEditor(int module);
    void attachOutput(inspect::MappedOutput output);
    void watch(QsciScintilla* editor);
    bool eventFilter(QObject* watched, QEvent* event) override;
    void userMovedTo(QsciScintilla* editor);
    void clearMarks();
    void clearFocus();
    void paintEditor(int module);
    void paintOutputs();
    void paintOutput(inspect::MappedOutput output);
    // An output's map in its pane's numbering: the SASS pane's compact view has its own (viewSass).
    const inspect::OutputMap& outputMap(inspect::MappedOutput output) const;
    void viewSass();
    void updateNotes();
    // The map's module of a document module, and the offset of its map lines in its editor
    // (a bitcode view's header line); -1 when the editor does not show the mapped text.
    int mapModuleOf(int documentModule, int* offset) const;
    int documentModuleOfEditor(QsciScintilla* editor) const;

    EditorArea* editors_;
    OutputView* output_;
    WorkspaceDocument* document_;
    std::shared_ptr<const inspect::LineMap> map_;
    std::shared_ptr<const inspect::OutputMap> sassShown_;  // map_'s SASS map through the pane's view
    QHash<qint64, int> colours_;                           // (map module << 32 | line) -> palette index
    bool enabled_ = true;
    bool mapping_ = false;
    bool editedSinceRequest_ = false;
    bool gotNone_ = false;  // the last reply's map did not come
    QHash<QsciScintilla*, int> lastLine_;
};

}  // namespace nvpg::gui
