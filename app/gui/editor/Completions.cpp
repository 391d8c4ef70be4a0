#include "gui/editor/Completions.h"

#include <algorithm>

#include <Qsci/qscilexer.h>
#include <QHash>

#include "core/nvvm/Libdevice.h"
#include "gui/editor/IrWords.h"

namespace nvpg::gui {

namespace {

// Intrinsics as the NVVM IR specification and LLVM 7's NVPTX back end name them, in the typed
// pointer spelling libNVVM reads below compute_100. Overloaded ones are given for the types
// people use most; the names of the others follow the same mangling.
const char* const kIntrinsics[] = {
    // Special registers
    "llvm.nvvm.read.ptx.sreg.tid.x() -> i32",
    "llvm.nvvm.read.ptx.sreg.tid.y() -> i32",
    "llvm.nvvm.read.ptx.sreg.tid.z() -> i32",
    "llvm.nvvm.read.ptx.sreg.ntid.x() -> i32",
    "llvm.nvvm.read.ptx.sreg.ntid.y() -> i32",
    "llvm.nvvm.read.ptx.sreg.ntid.z() -> i32",
    "llvm.nvvm.read.ptx.sreg.ctaid.x() -> i32",
    "llvm.nvvm.read.ptx.sreg.ctaid.y() -> i32",
    "llvm.nvvm.read.ptx.sreg.ctaid.z() -> i32",
    "llvm.nvvm.read.ptx.sreg.nctaid.x() -> i32",
    "llvm.nvvm.read.ptx.sreg.nctaid.y() -> i32",
    "llvm.nvvm.read.ptx.sreg.nctaid.z() -> i32",
    "llvm.nvvm.read.ptx.sreg.warpsize() -> i32",
    "llvm.nvvm.read.ptx.sreg.laneid() -> i32",
    "llvm.nvvm.read.ptx.sreg.warpid() -> i32",
    "llvm.nvvm.read.ptx.sreg.nwarpid() -> i32",
    "llvm.nvvm.read.ptx.sreg.smid() -> i32",
    "llvm.nvvm.read.ptx.sreg.nsmid() -> i32",
    "llvm.nvvm.read.ptx.sreg.gridid() -> i64",
    "llvm.nvvm.read.ptx.sreg.lanemask.eq() -> i32",
    "llvm.nvvm.read.ptx.sreg.lanemask.le() -> i32",
    "llvm.nvvm.read.ptx.sreg.lanemask.lt() -> i32",
    "llvm.nvvm.read.ptx.sreg.lanemask.ge() -> i32",
    "llvm.nvvm.read.ptx.sreg.lanemask.gt() -> i32",
    "llvm.nvvm.read.ptx.sreg.clock() -> i32",
    "llvm.nvvm.read.ptx.sreg.clock64() -> i64",
    "llvm.nvvm.read.ptx.sreg.globaltimer() -> i64",
    // Barriers and memory fences
    "llvm.nvvm.barrier0() -> void",
    "llvm.nvvm.barrier0.popc(i32 predicate) -> i32",
    "llvm.nvvm.barrier0.and(i32 predicate) -> i32",
    "llvm.nvvm.barrier0.or(i32 predicate) -> i32",
    "llvm.nvvm.barrier.sync(i32 id) -> void",
    "llvm.nvvm.barrier.sync.cnt(i32 id, i32 count) -> void",
    "llvm.nvvm.bar.warp.sync(i32 membermask) -> void",
    "llvm.nvvm.membar.cta() -> void",
    "llvm.nvvm.membar.gl() -> void",
    "llvm.nvvm.membar.sys() -> void",
    // Atomics beyond atomicrmw
    "llvm.nvvm.atomic.load.inc.32.p0i32(i32* address, i32 limit) -> i32",
    "llvm.nvvm.atomic.load.inc.32.p1i32(i32 addrspace(1)* address, i32 limit) -> i32",
    "llvm.nvvm.atomic.load.inc.32.p3i32(i32 addrspace(3)* address, i32 limit) -> i32",
    "llvm.nvvm.atomic.load.dec.32.p0i32(i32* address, i32 limit) -> i32",
    "llvm.nvvm.atomic.load.dec.32.p1i32(i32 addrspace(1)* address, i32 limit) -> i32",
    "llvm.nvvm.atomic.load.dec.32.p3i32(i32 addrspace(3)* address, i32 limit) -> i32",
    "llvm.nvvm.atomic.load.add.f32.p0f32(float* address, float value) -> float",
    "llvm.nvvm.atomic.load.add.f32.p1f32(float addrspace(1)* address, float value) -> float",
    "llvm.nvvm.atomic.load.add.f32.p3f32(float addrspace(3)* address, float value) -> float",
    "llvm.nvvm.atomic.load.add.f64.p0f64(double* address, double value) -> double",
    "llvm.nvvm.atomic.load.add.f64.p1f64(double addrspace(1)* address, double value) -> double",
    // Read-only global loads
    "llvm.nvvm.ldg.global.i.i8.p1i8(i8 addrspace(1)* ptr, i32 align) -> i8",
    "llvm.nvvm.ldg.global.i.i16.p1i16(i16 addrspace(1)* ptr, i32 align) -> i16",
    "llvm.nvvm.ldg.global.i.i32.p1i32(i32 addrspace(1)* ptr, i32 align) -> i32",
    "llvm.nvvm.ldg.global.i.i64.p1i64(i64 addrspace(1)* ptr, i32 align) -> i64",
    "llvm.nvvm.ldg.global.f.f32.p1f32(float addrspace(1)* ptr, i32 align) -> float",
    "llvm.nvvm.ldg.global.f.f64.p1f64(double addrspace(1)* ptr, i32 align) -> double",
    "llvm.nvvm.ldg.global.p.p0i8.p1p0i8(i8* addrspace(1)* ptr, i32 align) -> i8*",
    "llvm.nvvm.ldu.global.i.i32.p1i32(i32 addrspace(1)* ptr, i32 align) -> i32",
    "llvm.nvvm.ldu.global.f.f32.p1f32(float addrspace(1)* ptr, i32 align) -> float",
    // Address space conversion
    "llvm.nvvm.ptr.gen.to.global.p1i8.p0i8(i8* ptr) -> i8 addrspace(1)*",
    "llvm.nvvm.ptr.gen.to.shared.p3i8.p0i8(i8* ptr) -> i8 addrspace(3)*",
    "llvm.nvvm.ptr.gen.to.constant.p4i8.p0i8(i8* ptr) -> i8 addrspace(4)*",
    "llvm.nvvm.ptr.gen.to.local.p5i8.p0i8(i8* ptr) -> i8 addrspace(5)*",
    "llvm.nvvm.ptr.global.to.gen.p0i8.p1i8(i8 addrspace(1)* ptr) -> i8*",
    "llvm.nvvm.ptr.shared.to.gen.p0i8.p3i8(i8 addrspace(3)* ptr) -> i8*",
    "llvm.nvvm.ptr.constant.to.gen.p0i8.p4i8(i8 addrspace(4)* ptr) -> i8*",
    "llvm.nvvm.ptr.local.to.gen.p0i8.p5i8(i8 addrspace(5)* ptr) -> i8*",
    "llvm.nvvm.isspacep.global(i8* ptr) -> i1",
    "llvm.nvvm.isspacep.shared(i8* ptr) -> i1",
    "llvm.nvvm.isspacep.const(i8* ptr) -> i1",
    "llvm.nvvm.isspacep.local(i8* ptr) -> i1",
    // Warp-level primitives
    "llvm.nvvm.shfl.sync.idx.i32(i32 membermask, i32 value, i32 lane, i32 clamp) -> i32",
    "llvm.nvvm.shfl.sync.up.i32(i32 membermask, i32 value, i32 delta, i32 clamp) -> i32",
    "llvm.nvvm.shfl.sync.down.i32(i32 membermask, i32 value, i32 delta, i32 clamp) -> i32",
    "llvm.nvvm.shfl.sync.bfly.i32(i32 membermask, i32 value, i32 lanemask, i32 clamp) -> i32",
    "llvm.nvvm.shfl.sync.idx.f32(i32 membermask, float value, i32 lane, i32 clamp) -> float",
    "llvm.nvvm.shfl.sync.up.f32(i32 membermask, float value, i32 delta, i32 clamp) -> float",
    "llvm.nvvm.shfl.sync.down.f32(i32 membermask, float value, i32 delta, i32 clamp) -> float",
    "llvm.nvvm.shfl.sync.bfly.f32(i32 membermask, float value, i32 lanemask, i32 clamp) -> "
    "float",
    "llvm.nvvm.vote.all.sync(i32 membermask, i1 predicate) -> i1",
    "llvm.nvvm.vote.any.sync(i32 membermask, i1 predicate) -> i1",
    "llvm.nvvm.vote.uni.sync(i32 membermask, i1 predicate) -> i1",
    "llvm.nvvm.vote.ballot.sync(i32 membermask, i1 predicate) -> i32",
    "llvm.nvvm.match.any.sync.i32(i32 membermask, i32 value) -> i32",
    "llvm.nvvm.match.any.sync.i64(i32 membermask, i64 value) -> i32",
    "llvm.nvvm.match.all.sync.i32p(i32 membermask, i32 value) -> {i32, i1}",
    "llvm.nvvm.match.all.sync.i64p(i32 membermask, i64 value) -> {i32, i1}",
    // Arithmetic with explicit rounding, and the fast approximations
    "llvm.nvvm.fma.rn.f(float a, float b, float c) -> float",
    "llvm.nvvm.fma.rz.f(float a, float b, float c) -> float",
    "llvm.nvvm.fma.rm.f(float a, float b, float c) -> float",
    "llvm.nvvm.fma.rp.f(float a, float b, float c) -> float",
    "llvm.nvvm.fma.rn.ftz.f(float a, float b, float c) -> float",
    "llvm.nvvm.fma.rn.d(double a, double b, double c) -> double",
    "llvm.nvvm.fma.rz.d(double a, double b, double c) -> double",
    "llvm.nvvm.fma.rm.d(double a, double b, double c) -> double",
    "llvm.nvvm.fma.rp.d(double a, double b, double c) -> double",
    "llvm.nvvm.add.rn.f(float a, float b) -> float",
    "llvm.nvvm.add.rn.d(double a, double b) -> double",
    "llvm.nvvm.mul.rn.f(float a, float b) -> float",
    "llvm.nvvm.mul.rn.d(double a, double b) -> double",
    "llvm.nvvm.div.rn.f(float a, float b) -> float",
    "llvm.nvvm.div.rn.d(double a, double b) -> double",
    "llvm.nvvm.div.approx.f(float a, float b) -> float",
    "llvm.nvvm.rcp.rn.f(float a) -> float",
    "llvm.nvvm.rcp.rn.d(double a) -> double",
    "llvm.nvvm.sqrt.rn.f(float a) -> float",
    "llvm.nvvm.sqrt.rn.d(double a) -> double",
    "llvm.nvvm.sqrt.f(float a) -> float",
    "llvm.nvvm.sqrt.approx.f(float a) -> float",
    "llvm.nvvm.rsqrt.approx.f(float a) -> float",
    "llvm.nvvm.rsqrt.approx.d(double a) -> double",
    "llvm.nvvm.ex2.approx.f(float a) -> float",
    "llvm.nvvm.ex2.approx.ftz.f(float a) -> float",
    "llvm.nvvm.ex2.approx.d(double a) -> double",
    "llvm.nvvm.lg2.approx.f(float a) -> float",
    "llvm.nvvm.lg2.approx.ftz.f(float a) -> float",
    "llvm.nvvm.lg2.approx.d(double a) -> double",
    "llvm.nvvm.sin.approx.f(float a) -> float",
    "llvm.nvvm.sin.approx.ftz.f(float a) -> float",
    "llvm.nvvm.cos.approx.f(float a) -> float",
    "llvm.nvvm.cos.approx.ftz.f(float a) -> float",
    "llvm.nvvm.fabs.f(float a) -> float",
    "llvm.nvvm.fabs.d(double a) -> double",
    "llvm.nvvm.fmin.f(float a, float b) -> float",
    "llvm.nvvm.fmax.f(float a, float b) -> float",
    "llvm.nvvm.fmin.d(double a, double b) -> double",
    "llvm.nvvm.fmax.d(double a, double b) -> double",
    "llvm.nvvm.saturate.f(float a) -> float",
    "llvm.nvvm.floor.f(float a) -> float",
    "llvm.nvvm.ceil.f(float a) -> float",
    "llvm.nvvm.trunc.f(float a) -> float",
    "llvm.nvvm.round.f(float a) -> float",
    "llvm.nvvm.mulhi.i(i32 a, i32 b) -> i32",
    "llvm.nvvm.mulhi.ui(i32 a, i32 b) -> i32",
    "llvm.nvvm.mulhi.ll(i64 a, i64 b) -> i64",
    "llvm.nvvm.mulhi.ull(i64 a, i64 b) -> i64",
    "llvm.nvvm.mul24.i(i32 a, i32 b) -> i32",
    "llvm.nvvm.mul24.ui(i32 a, i32 b) -> i32",
    "llvm.nvvm.prmt(i32 a, i32 b, i32 selector) -> i32",
    "llvm.nvvm.rotate.b32(i32 a, i32 amount) -> i32",
    // Generic LLVM intrinsics that NVPTX lowers
    "llvm.memcpy.p0i8.p0i8.i64(i8* dest, i8* src, i64 len, i1 isvolatile) -> void",
    "llvm.memmove.p0i8.p0i8.i64(i8* dest, i8* src, i64 len, i1 isvolatile) -> void",
    "llvm.memset.p0i8.i64(i8* dest, i8 value, i64 len, i1 isvolatile) -> void",
    "llvm.lifetime.start.p0i8(i64 size, i8* ptr) -> void",
    "llvm.lifetime.end.p0i8(i64 size, i8* ptr) -> void",
    "llvm.assume(i1 cond) -> void",
    "llvm.expect.i1(i1 value, i1 expected) -> i1",
    "llvm.expect.i32(i32 value, i32 expected) -> i32",
    "llvm.trap() -> void",
    "llvm.stacksave() -> i8*",
    "llvm.stackrestore(i8* ptr) -> void",
    "llvm.fma.f32(float a, float b, float c) -> float",
    "llvm.fma.f64(double a, double b, double c) -> double",
    "llvm.fmuladd.f32(float a, float b, float c) -> float",
    "llvm.fmuladd.f64(double a, double b, double c) -> double",
    "llvm.fabs.f32(float a) -> float",
    "llvm.fabs.f64(double a) -> double",
    "llvm.sqrt.f32(float a) -> float",
    "llvm.sqrt.f64(double a) -> double",
    "llvm.floor.f32(float a) -> float",
    "llvm.floor.f64(double a) -> double",
    "llvm.ceil.f32(float a) -> float",
    "llvm.ceil.f64(double a) -> double",
    "llvm.trunc.f32(float a) -> float",
    "llvm.trunc.f64(double a) -> double",
    "llvm.rint.f32(float a) -> float",
    "llvm.rint.f64(double a) -> double",
    "llvm.nearbyint.f32(float a) -> float",
    "llvm.nearbyint.f64(double a) -> double",
    "llvm.round.f32(float a) -> float",
    "llvm.round.f64(double a) -> double",
    "llvm.minnum.f32(float a, float b) -> float",
    "llvm.minnum.f64(double a, double b) -> double",
    "llvm.maxnum.f32(float a, float b) -> float",
    "llvm.maxnum.f64(double a, double b) -> double",
    "llvm.copysign.f32(float mag, float sign) -> float",
    "llvm.copysign.f64(double mag, double sign) -> double",
    "llvm.ctpop.i32(i32 a) -> i32",
    "llvm.ctpop.i64(i64 a) -> i64",
    "llvm.ctlz.i32(i32 a, i1 is_zero_undef) -> i32",
    "llvm.ctlz.i64(i64 a, i1 is_zero_undef) -> i64",
    "llvm.cttz.i32(i32 a, i1 is_zero_undef) -> i32",
    "llvm.cttz.i64(i64 a, i1 is_zero_undef) -> i64",
    "llvm.bswap.i32(i32 a) -> i32",
    "llvm.bswap.i64(i64 a) -> i64",
    "llvm.bitreverse.i32(i32 a) -> i32",
    "llvm.bitreverse.i64(i64 a) -> i64",
    "llvm.sadd.with.overflow.i32(i32 a, i32 b) -> {i32, i1}",
    "llvm.uadd.with.overflow.i32(i32 a, i32 b) -> {i32, i1}",
    "llvm.smul.with.overflow.i32(i32 a, i32 b) -> {i32, i1}",
    "llvm.umul.with.overflow.i32(i32 a, i32 b) -> {i32, i1}",
    "llvm.dbg.value(metadata value, metadata variable, metadata expression) -> void",
    "llvm.dbg.declare(metadata address, metadata variable, metadata expression) -> void",
};

// "float %a, double* %p" -> "float a, double* p": call tips read like C prototypes.
QString stripSigils(std::string_view params) {
    QString out = QString::fromUtf8(params.data(), static_cast<qsizetype>(params.size()));
    out.remove(QLatin1Char('%'));
    return out;
}

struct Tables {
    QStringList entries;
    QStringList names;  // every completable name, sorted
    QStringList globals;
    QHash<QString, QString> tips;
};

const Tables& tables() {
    static const Tables t = [] {
        Tables t;
        auto addWords = [&](auto first, auto last) {
            for (auto it = first; it != last; ++it)
                if (it->size() > 1) t.entries << QString::fromLatin1(it->data(), static_cast<qsizetype>(it->size()));
        };
        addWords(std::begin(ir_words::kInstructions), std::end(ir_words::kInstructions));
        addWords(std::begin(ir_words::kKeywords), std::end(ir_words::kKeywords));
        addWords(std::begin(ir_words::kTypes), std::end(ir_words::kTypes));
        for (const char* e : {"i1", "i8", "i16", "i32", "i64", "i128"}) t.entries << e;

        auto addCall = [&](const QString& entry) {
            const QString name = entry.left(entry.indexOf(QLatin1Char('(')));
            t.entries << entry;
            t.globals << name;
            t.tips.insert(name, entry);
        };
        for (const char* e : kIntrinsics) addCall(QString::fromLatin1(e));
        for (const auto& f : nvvm::libdeviceFunctions()) {
            // __internal_* helpers are libdevice's own, not meant to be called.
            if (f.name.substr(0, 5) != "__nv_") continue;
            addCall(QStringLiteral("%1(%2) -> %3")
                        .arg(QString::fromLatin1(f.name.data(), static_cast<qsizetype>(f.name.size())),
                             stripSigils(f.params), stripSigils(f.returnType)));
        }
        t.entries.removeDuplicates();
        t.globals.removeDuplicates();
        t.globals.sort();
        for (const QString& e : t.entries) t.names << e.left(e.indexOf(QLatin1Char('(')));
        t.names.removeDuplicates();
        t.names.sort();
        return t;
    }();
    return t;
}

}  // namespace

Completions::Completions(QsciLexer* lexer) : QsciAbstractAPIs(lexer) {}

const QStringList& Completions::entries() {
    return tables().entries;
}

const QStringList& Completions::globalNames() {
    return tables().globals;
}

QString Completions::callTip(const QString& name) {
    return tables().tips.value(name);
}

void Completions::updateAutoCompletionList(const QStringList& context, QStringList& list) {
    if (context.isEmpty() || context.last().isEmpty()) return;
    const QString& prefix = context.last();
    const QStringList& names = tables().names;
    for (auto it = std::lower_bound(names.begin(), names.end(), prefix); it != names.end() && it->startsWith(prefix);
         ++it) {
        if (!list.contains(*it)) list << *it;
    }
}

QStringList Completions::callTips(const QStringList& context, int commas, QsciScintilla::CallTipsStyle,
                                  QList<int>& shifts) {
    // QsciScintilla passes the words before '(' followed by an empty one.
    if (context.size() < 2) return {};
    const QString tip = callTip(context[context.size() - 2]);
    if (tip.isEmpty()) return {};
    // Past the last parameter there is nothing to show.
    const int close = tip.indexOf(QLatin1Char(')'));
    if (tip.left(close).count(QLatin1Char(',')) < commas) return {};
    shifts << 0;
    return {tip};
}

}  // namespace nvpg::gui
