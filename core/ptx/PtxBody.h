#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace nvpg::ptx {

// One statement of a function body: an instruction ("@%p1 bra $L__BB0_2", without the ';', its
// whitespace runs made one space) or a label ("$L__BB0_2", without the ':'). Directives
// (.reg, .local, .loc, .pragma ...) and the braces of call sequences are not statements here.
struct BodyStatement {
    enum class Kind { Instruction, Label };
    Kind kind = Kind::Instruction;
    std::string text;
    int line = 0;  // 1-based line of the PTX where it starts
};

// The body of a .entry or .func that has one, in the text's order.
struct FunctionBody {
    std::string name;
    bool isEntry = false;
    int line = 0;       // the line of .entry / .func
    int openLine = 0;   // the line of the body's '{'
    int closeLine = 0;  // the line of its '}'
    std::vector<BodyStatement> statements;

    int instructions() const;
};

// The bodies of every defined function; declarations without a body are left out. Never fails:
// what cannot be read is left out.
std::vector<FunctionBody> readBodies(std::string_view ptx);

}  // namespace nvpg::ptx
