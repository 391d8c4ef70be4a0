#include "gui/editor/BitcodeSummary.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>

namespace nvpg::gui {

namespace {

// LLVM bitstream container: abbreviation ids and the block ids this summary reads.
enum : unsigned { kEndBlock = 0, kEnterSubblock = 1, kDefineAbbrev = 2, kUnabbrevRecord = 3 };
enum : unsigned {
    kBlockInfoBlock = 0,
    kModuleBlock = 8,
    kIdentificationBlock = 13,
    kValueSymtabBlock = 14,
    kStrtabBlock = 23,
};

struct AbbrevOp {
    enum Kind { Literal, Fixed, Vbr, Array, Char6, Blob } kind;
    uint64_t value = 0;
};
using Abbrev = std::vector<AbbrevOp>;

struct Record {
    uint64_t code = 0;
    std::vector<uint64_t> ops;
    std::string_view blob;
};

// Reads bits least significant first, as the bitstream stores them. A read past the end stops
// the reader for good (ok() turns false) instead of yielding garbage.
class BitReader {
public:
    explicit BitReader(std::string_view data) : data_(data), bits_(data.size() * 8) {}

    bool ok() const { return ok_; }
    size_t pos() const { return pos_; }
    size_t size() const { return bits_; }
    void seek(size_t bit) { pos_ = std::min(bit, bits_); }
    void fail() {
        ok_ = false;
        pos_ = bits_;
    }

    uint64_t read(unsigned width) {
        if (width > 64 || pos_ + width > bits_) {
            fail();
            return 0;
        }
        uint64_t v = 0;
        unsigned got = 0;
        while (got < width) {
            const unsigned offset = pos_ & 7;
            const unsigned take = std::min(8 - offset, width - got);
            const uint64_t byte = static_cast<uint8_t>(data_[pos_ >> 3]);
            v |= ((byte >> offset) & ((1u << take) - 1)) << got;
            got += take;
            pos_ += take;
        }
        return v;
    }

    uint64_t vbr(unsigned width) {
        if (width < 2 || width > 32) {
            fail();
            return 0;
        }
        const uint64_t hi = uint64_t{1} << (width - 1);
        uint64_t result = 0;
        for (unsigned shift = 0; ok_; shift += width - 1) {
            if (shift >= 64) {
                fail();
                break;
            }
            const uint64_t piece = read(width);
            result |= (piece & (hi - 1)) << shift;
            if (!(piece & hi)) return result;
        }
        return 0;
    }

    void align32() { seek((pos_ + 31) & ~size_t{31}); }

    std::string_view bytes(size_t count) {
        if ((pos_ & 7) || pos_ / 8 + count > data_.size()) {
            fail();
            return {};
        }
        std::string_view b = data_.substr(pos_ / 8, count);
        pos_ += count * 8;
        return b;
    }

private:
    std::string_view data_;
    size_t bits_;
    size_t pos_ = 0;
    bool ok_ = true;
};

char char6(uint64_t v) {
    static const char table[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";
    return v < 64 ? table[v] : '?';
}

std::string charsOf(const std::vector<uint64_t>& ops, size_t from = 0) {
    std::string s;
    for (size_t i = from; i < ops.size(); ++i) s += static_cast<char>(ops[i] & 0xFF);
    return s;
}

class Parser {
public:
    Parser(std::string_view stream, BitcodeSummary& out) : r_(stream), out_(out) {}

    // Returns whether the module block was read to its end.
    bool run() {
        r_.seek(32);  // past 'BC' 0xC0DE
        while (r_.ok() && r_.pos() + 32 <= r_.size()) {
            if (r_.read(2) != kEnterSubblock) break;  // the zero padding at the end
            if (!enterSubblock(~0u, 0)) break;
        }
        finish();
        return moduleRead_;
    }

private:
    struct GlobalValue {
        enum Kind { Variable, Function, Alias } kind = Variable;
        bool prototype = false;
        uint64_t offset = 0, size = 0;
        std::string name;  // from the value symbol table (modules before strtab)
    };

    bool enterSubblock(unsigned parent, int depth) {
        const unsigned id = static_cast<unsigned>(r_.vbr(8));
        const unsigned width = static_cast<unsigned>(r_.vbr(4));
        r_.align32();
        const uint64_t words = r_.read(32);
        if (!r_.ok()) return false;
        const size_t end = r_.pos() + words * 32;
        if (end > r_.size()) {
            r_.fail();
            return false;
        }
        // Function bodies, constants, metadata and types are skipped whole: the block length
        // lets a multi-megabyte module be summarized by reading its module-level records only.
        const bool wanted = depth < 4 && width >= 1 && width <= 32 &&
                            (id == kBlockInfoBlock || id == kModuleBlock || id == kIdentificationBlock ||
                             id == kStrtabBlock || (id == kValueSymtabBlock && parent == kModuleBlock));
        if (wanted) {
            block(id, width, end, depth);
            if (id == kModuleBlock && r_.ok()) moduleRead_ = true;
        }
        if (r_.ok()) r_.seek(end);
        return r_.ok();
    }

    void block(unsigned id, unsigned width, size_t end, int depth) {
        std::vector<Abbrev> abbrevs = blockInfo_[id];
        unsigned infoTarget = ~0u;  // BLOCKINFO's SETBID
        while (r_.ok() && r_.pos() < end) {
            const unsigned code = static_cast<unsigned>(r_.read(width));
            if (code == kEndBlock) {
                r_.align32();
                return;
            }
            if (code == kEnterSubblock) {
                if (!enterSubblock(id, depth + 1)) return;
                continue;
            }
            if (code == kDefineAbbrev) {
                Abbrev a;
                if (!readAbbrev(a)) return;
                if (id != kBlockInfoBlock)
                    abbrevs.push_back(std::move(a));
                else if (infoTarget != ~0u)
                    blockInfo_[infoTarget].push_back(std::move(a));
                continue;
            }
            Record rec;
            if (!readRecord(code, abbrevs, rec)) return;
            if (id == kBlockInfoBlock) {
                if (rec.code == 1 && !rec.ops.empty()) infoTarget = static_cast<unsigned>(rec.ops[0]);
            } else {
                handle(id, rec);
            }
        }
    }

    bool readAbbrev(Abbrev& a) {
        const uint64_t count = r_.vbr(5);
        if (count == 0 || count > 64) {
            r_.fail();
            return false;
        }
        for (uint64_t i = 0; i < count && r_.ok(); ++i) {
            AbbrevOp op{};
            if (r_.read(1)) {
                op.kind = AbbrevOp::Literal;
                op.value = r_.vbr(8);
            } else {
                switch (r_.read(3)) {
                    case 1:
                        op.kind = AbbrevOp::Fixed;
                        op.value = r_.vbr(5);
                        break;
                    case 2:
                        op.kind = AbbrevOp::Vbr;
                        op.value = r_.vbr(5);
                        break;
                    case 3:
                        op.kind = AbbrevOp::Array;
                        break;
                    case 4:
                        op.kind = AbbrevOp::Char6;
                        break;
                    case 5:
                        op.kind = AbbrevOp::Blob;
                        break;
                    default:
                        r_.fail();
                        return false;
                }
                if ((op.kind == AbbrevOp::Fixed && op.value > 64) || (op.kind == AbbrevOp::Vbr && op.value > 32)) {
                    r_.fail();
                    return false;
                }
            }
            a.push_back(op);
        }
        return r_.ok();
    }

    uint64_t scalar(const AbbrevOp& op) {
        switch (op.kind) {
            case AbbrevOp::Literal:
                return op.value;
            case AbbrevOp::Fixed:
                return r_.read(static_cast<unsigned>(op.value));
            case AbbrevOp::Vbr:
                return op.value ? r_.vbr(static_cast<unsigned>(op.value)) : 0;
            case AbbrevOp::Char6:
                return static_cast<unsigned char>(char6(r_.read(6)));
            default:
                r_.fail();
                return 0;
        }
    }

    // More elements than bits left means a corrupt count; refusing it bounds the allocation.
    bool plausibleCount(uint64_t n) const { return n <= r_.size() - r_.pos(); }

    bool readRecord(unsigned abbrevId, const std::vector<Abbrev>& abbrevs, Record& rec) {
        if (abbrevId == kUnabbrevRecord) {
            rec.code = r_.vbr(6);
            const uint64_t n = r_.vbr(6);
            if (!plausibleCount(n)) r_.fail();
            for (uint64_t i = 0; i < n && r_.ok(); ++i) rec.ops.push_back(r_.vbr(6));
            return r_.ok();
        }
        const size_t index = abbrevId - 4;
        if (abbrevId < 4 || index >= abbrevs.size()) {
            r_.fail();
            return false;
        }
        const Abbrev& a = abbrevs[index];
        std::vector<uint64_t> values;
        for (size_t i = 0; i < a.size() && r_.ok(); ++i) {
            const AbbrevOp& op = a[i];
            if (op.kind == AbbrevOp::Array) {
                const uint64_t n = r_.vbr(6);
                if (i + 1 >= a.size() || !plausibleCount(n)) {
                    r_.fail();
                    break;
                }
                const AbbrevOp& element = a[++i];
                for (uint64_t k = 0; k < n && r_.ok(); ++k) values.push_back(scalar(element));
            } else if (op.kind == AbbrevOp::Blob) {
                const uint64_t n = r_.vbr(6);
                r_.align32();
                rec.blob = r_.bytes(static_cast<size_t>(std::min<uint64_t>(n, r_.size())));
                r_.align32();
            } else {
                values.push_back(scalar(op));
            }
        }
        if (!r_.ok() || values.empty()) {
            r_.fail();
            return false;
        }
        rec.code = values[0];
        rec.ops.assign(values.begin() + 1, values.end());
        return true;
    }

    void handle(unsigned block, const Record& rec) {
        const auto& ops = rec.ops;
        switch (block) {
            case kIdentificationBlock:
                if (rec.code == 1) out_.producer = charsOf(ops);  // IDENTIFICATION_CODE_STRING
                break;
            case kModuleBlock:
                switch (rec.code) {
                    case 1:
                        version_ = ops.empty() ? 0 : ops[0];
                        break;  // VERSION
                    case 2:
                        out_.triple = charsOf(ops);
                        break;  // TRIPLE
                    case 16:
                        out_.sourceFileName = charsOf(ops);
                        break;  // SOURCE_FILENAME
                    case 7:
                        addValue(GlobalValue::Variable, ops);
                        break;  // GLOBALVAR
                    case 8:
                        addValue(GlobalValue::Function, ops);
                        break;  // FUNCTION
                    case 9:
                    case 14:
                    case 15:
                        addValue(GlobalValue::Alias, ops);
                        break;  // ALIAS, IFUNC
                    default:
                        break;
                }
                break;
            case kValueSymtabBlock:
                // ENTRY [valueid, name...], FNENTRY [valueid, offset, name...]
                if ((rec.code == 1 || rec.code == 3) && !ops.empty() && ops[0] < values_.size()) {
                    const size_t from = rec.code == 1 ? 1 : 2;
                    if (ops.size() > from) values_[ops[0]].name = charsOf(ops, from);
                }
                break;
            case kStrtabBlock:
                if (rec.code == 1) strtab_ = rec.blob;  // STRTAB_BLOB
                break;
            default:
                break;
        }
    }

    void addValue(GlobalValue::Kind kind, const std::vector<uint64_t>& ops) {
        // From LLVM 5 (module version 2) records start with the name's strtab offset and size.
        const bool strtab = version_ >= 2;
        GlobalValue v;
        v.kind = kind;
        if (strtab && ops.size() >= 2) {
            v.offset = ops[0];
            v.size = ops[1];
        }
        const size_t protoIndex = strtab ? 4 : 2;  // FUNCTION: [.., type, cc, isproto, ..]
        if (kind == GlobalValue::Function && ops.size() > protoIndex) v.prototype = ops[protoIndex] != 0;
        values_.push_back(std::move(v));
    }

    void finish() {
        for (const GlobalValue& v : values_) {
            std::string name = v.name;
            if (name.empty() && v.size && v.offset + v.size <= strtab_.size())
                name = std::string(strtab_.substr(v.offset, v.size));
            if (name.empty()) continue;
            if (v.kind == GlobalValue::Function)
                (v.prototype ? out_.declaredFunctions : out_.definedFunctions).push_back(name);
            else if (v.kind == GlobalValue::Variable)
                out_.globals.push_back(name);
        }
    }

    BitReader r_;
    BitcodeSummary& out_;
    std::map<unsigned, std::vector<Abbrev>> blockInfo_;
    std::vector<GlobalValue> values_;
    std::string_view strtab_;
    uint64_t version_ = 0;
    bool moduleRead_ = false;
};

uint32_t le32(std::string_view b, size_t at) {
    if (at + 4 > b.size()) return 0;
    uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + i]);
    return v;
}

bool isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '$';
}

// "LLVM" and a digit, for producers whose string was not found where the bitstream puts it.
std::string searchProducer(std::string_view bytes) {
    for (size_t at = bytes.find("LLVM"); at != std::string_view::npos; at = bytes.find("LLVM", at + 1)) {
        if (at + 4 < bytes.size() && bytes[at + 4] >= '0' && bytes[at + 4] <= '9') {
            size_t end = at + 4;
            while (end < bytes.size() && isNameChar(bytes[end])) ++end;
            return std::string(bytes.substr(at, end - at));
        }
    }
    return {};
}

std::vector<std::string> guessNames(std::string_view bytes) {
    const size_t tail = std::min<size_t>(bytes.size(), 64 * 1024);
    const std::string_view s = bytes.substr(bytes.size() - tail);
    std::vector<std::string> names;
    std::set<std::string> seen;
    for (size_t i = 0; i < s.size() && names.size() < 40;) {
        if (!isNameChar(s[i])) {
            ++i;
            continue;
        }
        size_t j = i;
        bool letter = false;
        while (j < s.size() && isNameChar(s[j])) {
            letter = letter || ((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z');
            ++j;
        }
        std::string run(s.substr(i, j - i));
        if (run.size() >= 3 && letter && seen.insert(run).second) names.push_back(run);
        i = j;
    }
    return names;
}

}  // namespace

BitcodeSummary summarizeBitcode(std::string_view bytes) {
    BitcodeSummary out;
    std::string_view stream = bytes;
    // The wrapper some toolchains put around bitcode: magic 0x0B17C0DE, version, offset, size.
    if (le32(bytes, 0) == 0x0B17C0DEu) {
        const uint32_t offset = le32(bytes, 8), size = le32(bytes, 12);
        stream =
            offset <= bytes.size() && size <= bytes.size() - offset ? bytes.substr(offset, size) : std::string_view{};
    }
    bool moduleRead = false;
    if (stream.size() >= 8 && stream.substr(0, 4) == std::string_view("BC\xC0\xDE", 4)) {
        Parser parser(stream, out);
        moduleRead = parser.run();
    }
    if (out.producer.empty()) out.producer = searchProducer(bytes);
    if (!moduleRead && out.definedFunctions.empty() && out.declaredFunctions.empty() && out.globals.empty())
        out.guessedNames = guessNames(bytes);
    return out;
}

}  // namespace nvpg::gui
