#!/usr/bin/env python3
"""Writes resources/docs/libdevice.json: one entry for every function of core/nvvm/LibdeviceTable.inc.

The texts are the project's own; the facts come from NVIDIA's documents:
  - what each function computes: the libdevice User's Guide (one page per function);
  - the maximum ulp error: the CUDA C++ Programming Guide (13.0), chapter "Mathematical Functions",
    Tables 17 (single precision), 18 (double precision), 21 and 22 (intrinsics); the libdevice
    guide sends readers there ("For accuracy information see ...");
  - which compile options change a function: measured from libdevice.10.bc itself, by which
    __nvvm_reflect() parameters each function reads and whether it divides with a plain `fdiv float`
    (the only IR division -prec-div acts on; libdevice's other divisions are explicit intrinsics).

Run:  python3 resources/docs/make_libdevice_docs.py [path/to/libdevice.10.bc]
It needs llvm-dis (llvm-dis-14 reads libdevice.10.bc) and fails, naming the function, when the table
has a function this script has no facts for: add its facts here, rerun, and commit the JSON.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TABLE = os.path.join(ROOT, "core", "nvvm", "LibdeviceTable.inc")
OUT = os.path.join(HERE, "libdevice.json")
GUIDE = "https://docs.nvidia.com/cuda/libdevice-users-guide/"
PROG_GUIDE = "CUDA C++ Programming Guide 13.0, Mathematical Functions"

# Functions that have no page of their own in the current libdevice User's Guide (they are newer
# than its function list, or internal helpers): they link to the guide's function reference.
NO_PAGE = {
    "__nv_cyl_bessel_i0", "__nv_cyl_bessel_i0f", "__nv_cyl_bessel_i1", "__nv_cyl_bessel_i1f",
    "__nv_fast_tanhf", "__nv_rcp64h", "__nv_dsub_rn", "__nv_dsub_rz", "__nv_dsub_ru", "__nv_dsub_rd",
    "__nv_fmaf_ieee_rn", "__nv_fmaf_ieee_rz", "__nv_fmaf_ieee_rd", "__nv_fmaf_ieee_ru",
    "__internal_trig_reduction_slowpathd", "__internal_accurate_pow", "__internal_lgamma_pos",
}

# Standard math functions: C name (double) -> (title words, what it computes, max ulp float,
# max ulp double), from Tables 17 and 18. None: the function is not in that table (it is exact by
# construction, said so below).
FULL = " ulp (full range)"
MATH = {
    "sqrt": ("square root", "the square root of x",
             "0 ulp with -prec-sqrt=1 (the default); with -prec-sqrt=0, 1 ulp on compute capability 5.2 and newer, 3 ulp on older GPUs",
             "0 ulp (IEEE-754 round-to-nearest-even)"),
    "rsqrt": ("reciprocal square root", "1/√x", "2" + FULL, "1" + FULL),
    "cbrt": ("cube root", "the cube root of x", "1" + FULL, "1" + FULL),
    "rcbrt": ("reciprocal cube root", "1/∛x", "1" + FULL, "1" + FULL),
    "hypot": ("hypotenuse", "√(x² + y²) without overflowing in the squares", "3" + FULL, "2" + FULL),
    "rhypot": ("reciprocal hypotenuse", "1/√(x² + y²)", "2" + FULL, "1" + FULL),
    "norm3d": ("length of a 3-vector", "√(a² + b² + c²)", "3" + FULL, "2" + FULL),
    "rnorm3d": ("reciprocal length of a 3-vector", "1/√(a² + b² + c²)", "2" + FULL, "1" + FULL),
    "norm4d": ("length of a 4-vector", "√(a² + b² + c² + d²)", "3" + FULL, "2" + FULL),
    "rnorm4d": ("reciprocal length of a 4-vector", "1/√(a² + b² + c² + d²)", "2" + FULL, "1" + FULL),
    "norm": ("length of a vector", "the Euclidean length of the `dim` elements at t",
             "no bound given: NVIDIA uses a fast algorithm that loses accuracy to round-off",
             "no bound given: NVIDIA uses a fast algorithm that loses accuracy to round-off"),
    "rnorm": ("reciprocal length of a vector", "1 / the Euclidean length of the `dim` elements at t",
              "no bound given: NVIDIA uses a fast algorithm that loses accuracy to round-off",
              "no bound given: NVIDIA uses a fast algorithm that loses accuracy to round-off"),
    "exp": ("exponential", "eˣ", "2" + FULL, "1" + FULL),
    "exp2": ("base-2 exponential", "2ˣ", "2" + FULL, "1" + FULL),
    "exp10": ("base-10 exponential", "10ˣ", "2" + FULL, "1" + FULL),
    "expm1": ("exponential minus one", "eˣ − 1, accurate also for x near 0", "1" + FULL, "1" + FULL),
    "log": ("natural logarithm", "ln x", "1" + FULL, "1" + FULL),
    "log2": ("base-2 logarithm", "log₂ x", "1" + FULL, "1" + FULL),
    "log10": ("base-10 logarithm", "log₁₀ x", "2" + FULL, "1" + FULL),
    "log1p": ("logarithm of one plus x", "ln(1 + x), accurate also for x near 0", "1" + FULL, "1" + FULL),
    "sin": ("sine", "the sine of x (x in radians)", "2" + FULL, "2" + FULL),
    "cos": ("cosine", "the cosine of x (x in radians)", "2" + FULL, "2" + FULL),
    "tan": ("tangent", "the tangent of x (x in radians)", "4" + FULL, "2" + FULL),
    "sincos": ("sine and cosine", "sin x and cos x at once, stored through sptr and cptr", "2" + FULL, "2" + FULL),
    "sinpi": ("sine of π·x", "sin(π·x), without the error of multiplying by a rounded π", "1" + FULL, "2" + FULL),
    "cospi": ("cosine of π·x", "cos(π·x), without the error of multiplying by a rounded π", "1" + FULL, "2" + FULL),
    "sincospi": ("sine and cosine of π·x", "sin(π·x) and cos(π·x) at once, stored through sptr and cptr",
                 "1" + FULL, "2" + FULL),
    "asin": ("arc sine", "the angle whose sine is x, in [−π/2, π/2]", "2" + FULL, "2" + FULL),
    "acos": ("arc cosine", "the angle whose cosine is x, in [0, π]", "2" + FULL, "2" + FULL),
    "atan": ("arc tangent", "the angle whose tangent is x, in [−π/2, π/2]", "2" + FULL, "2" + FULL),
    "atan2": ("arc tangent of a/b", "the angle of the point (b, a), in [−π, π]: atan2(y, x) with y first",
              "3" + FULL, "2" + FULL),
    "sinh": ("hyperbolic sine", "sinh x", "3" + FULL, "2" + FULL),
    "cosh": ("hyperbolic cosine", "cosh x", "2" + FULL, "1" + FULL),
    "tanh": ("hyperbolic tangent", "tanh x", "2" + FULL, "1" + FULL),
    "asinh": ("inverse hyperbolic sine", "arsinh x", "3" + FULL, "3" + FULL),
    "acosh": ("inverse hyperbolic cosine", "arcosh x, for x ≥ 1", "4" + FULL, "3" + FULL),
    "atanh": ("inverse hyperbolic tangent", "artanh x, for −1 < x < 1", "3" + FULL, "2" + FULL),
    "pow": ("power", "aᵇ", "4" + FULL, "2" + FULL),
    "erf": ("error function", "erf x = 2/√π ∫₀ˣ e^(−t²) dt", "2" + FULL, "2" + FULL),
    "erfc": ("complementary error function", "1 − erf x, accurate also where erf x is near 1", "4" + FULL, "5" + FULL),
    "erfinv": ("inverse error function", "the y with erf y = x, for −1 < x < 1", "2" + FULL, "5" + FULL),
    "erfcinv": ("inverse complementary error function", "the y with erfc y = x, for 0 < x < 2", "4" + FULL, "6" + FULL),
    "erfcx": ("scaled complementary error function", "e^(x²)·erfc x, which does not underflow for large x",
              "4" + FULL, "4" + FULL),
    "normcdf": ("standard normal distribution function", "Φ(x), the probability that a standard normal variable is ≤ x",
                "5" + FULL, "5" + FULL),
    "normcdfinv": ("inverse standard normal distribution function", "the x with Φ(x) = p, for 0 < p < 1",
                   "5" + FULL, "8" + FULL),
    "lgamma": ("log gamma", "ln |Γ(x)|",
               "6 ulp outside the interval −10.001 … −2.264; larger inside it",
               "4 ulp outside the interval −23.0001 … −2.2637; larger inside it"),
    "tgamma": ("gamma function", "Γ(x)", "5" + FULL, "10" + FULL),
    "fma": ("fused multiply-add", "x·y + z with a single rounding", "0" + FULL, "0 ulp (IEEE-754 round-to-nearest-even)"),
    "frexp": ("split into mantissa and exponent", "m with x = m·2ᵉ and 0.5 ≤ |m| < 1, storing e through the pointer",
              "0" + FULL, "0" + FULL),
    "ldexp": ("multiply by a power of two", "a·2ᵇ", "0" + FULL, "0" + FULL),
    "scalbn": ("multiply by a power of two", "a·2ᵇ (the same as ldexp)", "0" + FULL, "0" + FULL),
    "logb": ("binary exponent", "the unbiased exponent of x as a floating-point number", "0" + FULL, "0" + FULL),
    "ilogb": ("binary exponent as an integer", "the unbiased exponent of x as an int", "0" + FULL, "0" + FULL),
    "j0": ("Bessel function J₀", "the Bessel function of the first kind of order 0",
           "9 ulp for |x| < 8; otherwise the maximum absolute error is 2.2 × 10⁻⁶",
           "7 ulp for |x| < 8; otherwise the maximum absolute error is 5 × 10⁻¹²"),
    "j1": ("Bessel function J₁", "the Bessel function of the first kind of order 1",
           "9 ulp for |x| < 8; otherwise the maximum absolute error is 2.2 × 10⁻⁶",
           "7 ulp for |x| < 8; otherwise the maximum absolute error is 5 × 10⁻¹²"),
    "jn": ("Bessel function Jₙ", "the Bessel function of the first kind of order n",
           "for n = 128 the maximum absolute error is 2.2 × 10⁻⁶",
           "for n = 128 the maximum absolute error is 5 × 10⁻¹²"),
    "y0": ("Bessel function Y₀", "the Bessel function of the second kind of order 0",
           "9 ulp for |x| < 8; otherwise the maximum absolute error is 2.2 × 10⁻⁶",
           "7 ulp for |x| < 8; otherwise the maximum absolute error is 5 × 10⁻¹²"),
    "y1": ("Bessel function Y₁", "the Bessel function of the second kind of order 1",
           "9 ulp for |x| < 8; otherwise the maximum absolute error is 2.2 × 10⁻⁶",
           "7 ulp for |x| < 8; otherwise the maximum absolute error is 5 × 10⁻¹²"),
    "yn": ("Bessel function Yₙ", "the Bessel function of the second kind of order n",
           "ceil(2 + 2.5n) ulp for |x| < n; otherwise the maximum absolute error is 2.2 × 10⁻⁶",
           "for |x| > 1.5n the maximum absolute error is 5 × 10⁻¹²"),
    "cyl_bessel_i0": ("modified Bessel function I₀", "the regular modified cylindrical Bessel function of order 0",
                      "6" + FULL, "6" + FULL),
    "cyl_bessel_i1": ("modified Bessel function I₁", "the regular modified cylindrical Bessel function of order 1",
                      "6" + FULL, "6" + FULL),
    "fmod": ("floating-point remainder", "x − n·y with n = x/y rounded toward zero (the sign of x)", "0" + FULL, "0" + FULL),
    "remainder": ("IEEE remainder", "x − n·y with n = x/y rounded to the nearest integer", "0" + FULL, "0" + FULL),
    "remquo": ("remainder and quotient bits", "the IEEE remainder, storing the low bits and sign of the quotient through quo",
               "0" + FULL, "0" + FULL),
    "modf": ("split into integer and fraction", "the fractional part of a, storing the integral part through the pointer",
             "0" + FULL, "0" + FULL),
    "fdim": ("positive difference", "a − b when a > b, else +0", "0" + FULL, "0" + FULL),
    "trunc": ("round toward zero", "x with its fraction dropped", "0" + FULL, "0" + FULL),
    "round": ("round half away from zero", "x rounded to the nearest integer, halfway cases away from zero",
              "0" + FULL, "0" + FULL),
    "rint": ("round to nearest even", "x rounded to the nearest integer, halfway cases to even (one instruction)",
             "0" + FULL, "0" + FULL),
    "nearbyint": ("round to nearest even", "x rounded to the nearest integer, halfway cases to even", "0" + FULL, "0" + FULL),
    "ceil": ("round up", "the smallest integer ≥ x", "0" + FULL, "0" + FULL),
    "floor": ("round down", "the largest integer ≤ x", "0" + FULL, "0" + FULL),
    "llrint": ("round to a 64-bit integer", "x rounded to nearest even, as a long long", "0" + FULL, "0" + FULL),
    "llround": ("round to a 64-bit integer", "x rounded half away from zero, as a long long", "0" + FULL, "0" + FULL),
    # Not in Tables 17/18: exact by construction (no rounding can happen).
    "fabs": ("absolute value", "|x|", None, None),
    "fmin": ("minimum", "the smaller of x and y (a NaN operand is ignored)", None, None),
    "fmax": ("maximum", "the larger of x and y (a NaN operand is ignored)", None, None),
    "copysign": ("copy sign", "the magnitude of a with the sign of b", None, None),
    "nextafter": ("next representable value", "the floating-point number next to a in the direction of b", None, None),
    "nan": ("quiet NaN", "a quiet NaN; tagp, a numeric string such as \"0x1\", can set its payload bits", None, None),
}
EXACT_NOT_LISTED = "exact (0 ulp): no rounding happens; NVIDIA's error tables do not list it"

# Classification functions: libdevice name -> (C name, what it tests).
CLASSIFY = {
    "__nv_isnanf": ("isnan", "whether x is a NaN"), "__nv_isnand": ("isnan", "whether x is a NaN"),
    "__nv_isinff": ("isinf", "whether x is ±∞"), "__nv_isinfd": ("isinf", "whether x is ±∞"),
    "__nv_finitef": ("isfinite", "whether x is finite (neither ∞ nor NaN)"),
    "__nv_isfinited": ("isfinite", "whether x is finite (neither ∞ nor NaN)"),
    "__nv_signbitf": ("signbit", "whether the sign bit of x is set (true also for −0 and negative NaNs)"),
    "__nv_signbitd": ("signbit", "whether the sign bit of x is set (true also for −0 and negative NaNs)"),
}

# Integer and bit functions: name -> (title words, what it computes). All exact.
INTEGER = {
    "clz": ("count leading zeros", "the number of zero bits above the highest set bit of a 32-bit integer (32 for 0)"),
    "clzll": ("count leading zeros (64-bit)", "the number of zero bits above the highest set bit of a 64-bit integer (64 for 0)"),
    "popc": ("population count", "the number of set bits of a 32-bit integer"),
    "popcll": ("population count (64-bit)", "the number of set bits of a 64-bit integer"),
    "ffs": ("find first set", "the 1-based position of the lowest set bit of a 32-bit integer, 0 when none is set"),
    "ffsll": ("find first set (64-bit)", "the 1-based position of the lowest set bit of a 64-bit integer, 0 when none is set"),
    "byte_perm": ("byte permute", "four bytes picked from the eight bytes of a and b, by the selector nibbles of c (PTX prmt)"),
    "min": ("minimum (int)", "the smaller of two signed 32-bit integers"),
    "umin": ("minimum (unsigned int)", "the smaller of two unsigned 32-bit integers"),
    "llmin": ("minimum (long long)", "the smaller of two signed 64-bit integers"),
    "ullmin": ("minimum (unsigned long long)", "the smaller of two unsigned 64-bit integers"),
    "max": ("maximum (int)", "the larger of two signed 32-bit integers"),
    "umax": ("maximum (unsigned int)", "the larger of two unsigned 32-bit integers"),
    "llmax": ("maximum (long long)", "the larger of two signed 64-bit integers"),
    "ullmax": ("maximum (unsigned long long)", "the larger of two unsigned 64-bit integers"),
    "mulhi": ("high half of a product (int)", "the upper 32 bits of the 64-bit product of two signed 32-bit integers"),
    "umulhi": ("high half of a product (unsigned int)", "the upper 32 bits of the 64-bit product of two unsigned 32-bit integers"),
    "mul64hi": ("high half of a product (long long)", "the upper 64 bits of the 128-bit product of two signed 64-bit integers"),
    "umul64hi": ("high half of a product (unsigned long long)",
                 "the upper 64 bits of the 128-bit product of two unsigned 64-bit integers"),
    "mul24": ("24-bit multiply (int)", "the low 32 bits of the product of the low 24 bits of two signed integers"),
    "umul24": ("24-bit multiply (unsigned int)", "the low 32 bits of the product of the low 24 bits of two unsigned integers"),
    "brev": ("bit reverse", "a 32-bit integer with its bits in reverse order"),
    "brevll": ("bit reverse (64-bit)", "a 64-bit integer with its bits in reverse order"),
    "sad": ("sum of absolute difference (int)", "|x − y| + z for signed 32-bit integers"),
    "usad": ("sum of absolute difference (unsigned int)", "|x − y| + z for unsigned 32-bit integers"),
    "abs": ("absolute value (int)", "|x| of a signed 32-bit integer (INT_MIN stays INT_MIN)"),
    "llabs": ("absolute value (long long)", "|x| of a signed 64-bit integer"),
    "hadd": ("halving add (int)", "(a + b) >> 1 for signed integers, without overflow in the sum"),
    "rhadd": ("rounding halving add (int)", "(a + b + 1) >> 1 for signed integers, without overflow in the sum"),
    "uhadd": ("halving add (unsigned int)", "(a + b) >> 1 for unsigned integers, without overflow in the sum"),
    "urhadd": ("rounding halving add (unsigned int)", "(a + b + 1) >> 1 for unsigned integers, without overflow in the sum"),
}

# CUDA names these without the __ prefix: min(), umin(), abs(), llabs() ...
PLAIN_CUDA_NAME = {"min", "umin", "llmin", "ullmin", "max", "umax", "llmax", "ullmax", "abs", "llabs"}

ROUND = {"rn": "round to nearest even", "rz": "round toward zero", "ru": "round up (toward +∞)",
         "rd": "round down (toward −∞)"}
IEEE = "0 ulp (IEEE-754 compliant: correctly rounded in the named mode)"

# Fast approximate functions (Table 21): name -> (title words, what, accuracy, PTX it becomes).
FAST = {
    "__nv_fast_fdividef": ("fast divide", "x / y by a reciprocal and a multiply (CUDA's __fdividef)",
                           "2 ulp for |y| in [2⁻¹²⁶, 2¹²⁶]; for 2¹²⁶ < |y| < 2¹²⁸ the result is 0 (NaN when x is ∞)",
                           "div.approx.f32"),
    "__nv_fast_sinf": ("fast sine", "an approximate sine of x in radians (CUDA's __sinf)",
                       "maximum absolute error 2⁻²¹·⁴¹ for x in [−π, π], larger outside", "sin.approx.f32"),
    "__nv_fast_cosf": ("fast cosine", "an approximate cosine of x in radians (CUDA's __cosf)",
                       "maximum absolute error 2⁻²¹·¹⁹ for x in [−π, π], larger outside", "cos.approx.f32"),
    "__nv_fast_sincosf": ("fast sine and cosine", "approximate sine and cosine of x, stored through sptr and cptr (CUDA's __sincosf)",
                          "as __nv_fast_sinf and __nv_fast_cosf: absolute error 2⁻²¹·⁴¹ and 2⁻²¹·¹⁹ for x in [−π, π]",
                          "sin.approx.f32, cos.approx.f32"),
    "__nv_fast_tanf": ("fast tangent", "an approximate tangent: fast sine divided by fast cosine (CUDA's __tanf)",
                       "no separate bound: it follows from __sinf(x) · (1/__cosf(x))",
                       "sin.approx.f32, cos.approx.f32, div.approx.f32"),
    "__nv_fast_log2f": ("fast base-2 logarithm", "an approximate log₂ x (CUDA's __log2f)",
                        "maximum absolute error 2⁻²² for x in [0.5, 2]; otherwise 2 ulp", "lg2.approx.f32"),
    "__nv_fast_logf": ("fast natural logarithm", "an approximate ln x, from lg2.approx (CUDA's __logf)",
                       "maximum absolute error 2⁻²¹·⁴¹ for x in [0.5, 2]; otherwise 3 ulp", "lg2.approx.f32"),
    "__nv_fast_log10f": ("fast base-10 logarithm", "an approximate log₁₀ x, from lg2.approx (CUDA's __log10f)",
                         "maximum absolute error 2⁻²⁴ for x in [0.5, 2]; otherwise 3 ulp", "lg2.approx.f32"),
    "__nv_fast_expf": ("fast exponential", "an approximate eˣ, from ex2.approx (CUDA's __expf)",
                       "2 + floor(|1.173·x|) ulp", "ex2.approx.f32"),
    "__nv_fast_exp10f": ("fast base-10 exponential", "an approximate 10ˣ, from ex2.approx (CUDA's __exp10f)",
                         "2 + floor(|2.97·x|) ulp", "ex2.approx.f32"),
    "__nv_fast_powf": ("fast power", "an approximate aᵇ as 2^(b·log₂ a) (CUDA's __powf)",
                       "no separate bound: it follows from exp2f(y · __log2f(x))", "lg2.approx.f32, ex2.approx.f32"),
    "__nv_fast_tanhf": ("fast hyperbolic tangent", "an approximate tanh x (CUDA's __tanhf)",
                        "maximum relative error 2⁻¹¹ (compute capability 7.5 and newer; older GPUs get tanhf's accuracy)",
                        "tanh.approx.f32"),
}

SOURCE_STD_F = PROG_GUIDE + ", Table 17 (single precision)"
SOURCE_STD_D = PROG_GUIDE + ", Table 18 (double precision)"
SOURCE_INTR_F = PROG_GUIDE + ", Table 21 (single-precision intrinsics)"
SOURCE_INTR_D = PROG_GUIDE + ", Table 22 (double-precision intrinsics)"


def read_table():
    rows = []
    pat = re.compile(r'^\{"([^"]*)", "([^"]*)", "([^"]*)", "([^"]*)"\},$')
    with open(TABLE, encoding="utf-8") as f:
        for line in f:
            m = pat.match(line.strip())
            if m:
                rows.append(m.groups())
    if len(rows) < 300:
        sys.exit(f"{TABLE}: read only {len(rows)} functions; has the table's format changed?")
    return rows


def measure(bc):
    """Per function of libdevice.10.bc: the __nvvm_reflect parameters it reads, whether it has a
    plain f32 fdiv, and the llvm.nvvm.* intrinsics it calls."""
    dis = shutil.which("llvm-dis-14") or shutil.which("llvm-dis")
    if not dis:
        sys.exit("llvm-dis not found: install llvm-14 (apt-get install llvm-14) and rerun")
    text = subprocess.run([dis, bc, "-o", "-"], check=True, capture_output=True, text=True).stdout
    strings = {m.group(1): m.group(2) for m in re.finditer(r'^(@\.str[.\d]*) = .*c"([^"\\]*)\\00"', text, re.M)}
    facts = collections.defaultdict(lambda: {"reflect": set(), "fdiv32": False, "nvvm": set()})
    cur = None
    for line in text.splitlines():
        d = re.match(r"define .*?@([\w.$]+)\(", line)
        if d:
            cur = d.group(1)
            facts[cur]
            continue
        if line.startswith("}"):
            cur = None
        if not cur:
            continue
        if "@__nvvm_reflect(" in line:
            s = re.search(r"(@\.str[.\d]*)\b", line)
            facts[cur]["reflect"].add(strings.get(s.group(1), "?") if s else "?")
        if re.search(r"\bfdiv (?:\w+ )*float\b", line):
            facts[cur]["fdiv32"] = True
        for c in re.findall(r"@llvm\.nvvm\.([\w.]+)\(", line):
            facts[cur]["nvvm"].add(re.sub(r"\.ftz\b", "", c))
    return facts


def option_effect(name, f, signature):
    parts = []
    if name in FAST or name == "__nv_fast_tanhf":
        parts.append("Always approximate: -prec-div and -prec-sqrt do not change it, and -use_fast_math is what "
                     "turns the ordinary function into this one.")
    if "__CUDA_FTZ" in f["reflect"]:
        if name == "__nv_fast_tanhf":
            parts.append("-ftz=1 selects the flush-to-zero code only on the fallback path for GPUs older than "
                         "compute capability 7.5; tanh.approx's subnormal results are not flushed even with -ftz=1.")
        elif "float" not in signature:
            parts.append("-ftz=1 picks the flush-to-zero form of the single-precision steps inside it (libdevice "
                         "reads __nvvm_reflect(\"__CUDA_FTZ\")); its double-precision arithmetic is not affected.")
        else:
            parts.append("-ftz=1 picks its flush-to-zero code (libdevice reads __nvvm_reflect(\"__CUDA_FTZ\")): "
                         "single-precision denormal inputs and results become ±0; -ftz=0, the default, keeps them.")
    if "__CUDA_PREC_SQRT" in f["reflect"]:
        parts.append("-prec-sqrt=0 replaces its correctly rounded square root with sqrt.approx "
                     "(libdevice reads __nvvm_reflect(\"__CUDA_PREC_SQRT\")); -prec-sqrt=1 is the default.")
    if f["fdiv32"]:
        parts.append("It divides with a plain single-precision fdiv, which -prec-div=0 compiles to an approximate "
                     "division; -prec-div=1, the default, keeps it correctly rounded.")
    if "__CUDA_ARCH" in f["reflect"]:
        parts.append("Its code also depends on the target architecture (-arch), which libdevice reads as "
                     "__nvvm_reflect(\"__CUDA_ARCH\").")
    if name.startswith("__nv_fmaf_ieee_"):
        parts.append("Not changed by -ftz: it never flushes denormals (that is what _ieee means).")
    if re.match(r"__nv_(fdiv|frcp|fsqrt|frsqrt|ddiv|drcp|dsqrt)_r", name):
        parts.append("-prec-div / -prec-sqrt do not change it: the rounding is part of its name.")
    return " ".join(parts)


def sig(ret, name, params):
    return f"{ret} {name}({params.replace('%', '')})"


def describe(name, ret, params):
    """(title words, summary, accuracy, accuracy source, details extra)."""
    b = name[len("__nv_"):] if name.startswith("__nv_") else name
    if name.startswith("__internal_"):
        what = {
            "__internal_trig_reduction_slowpathd":
                ("argument reduction for huge angles", "reduces a very large double angle modulo π/2 with enough bits of "
                 "π (Payne–Hanek style) for the double trigonometric and Bessel functions"),
            "__internal_accurate_pow": ("extra-precise power core", "the core of __nv_pow (and __nv_tgamma): aᵇ computed "
                                        "with extra precision in the logarithm"),
            "__internal_lgamma_pos": ("log gamma for positive arguments", "ln Γ(x) for x > 0, the part __nv_lgamma "
                                      "uses on the positive axis"),
        }[name]
        return (what[0], f"An internal helper of libdevice, not meant to be called directly: it computes {what[1]}. "
                "It appears in a program because a libdevice function that calls it was linked.",
                "not documented separately (internal helper); its callers' documented bounds include it",
                "libdevice.10.bc (internal)", "")
    if name in CLASSIFY:
        c, what = CLASSIFY[name]
        prec = "float" if name.endswith("f") else "double"
        return (f"{c} ({prec})", f"Tests {what}; returns a nonzero int when it holds and 0 otherwise. CUDA's {c}() on a "
                f"{prec} becomes this call.", "exact: a test of the bits, no rounding", "", "")
    if b in INTEGER:
        t, what = INTEGER[b]
        cuda = b if b in PLAIN_CUDA_NAME else "__" + b
        return (t, f"Computes {what}. CUDA's {cuda}() becomes this call.", "exact (integer result)", "", "")
    if name in FAST:
        t, what, acc, ptx = FAST[name]
        return (t, f"Computes {what}: fast, lower accuracy. It compiles to a short sequence around PTX {ptx}.",
                acc, SOURCE_INTR_F, "")
    m = re.match(r"(fadd|fsub|fmul|fdiv|dadd|dsub|dmul|ddiv)_(rn|rz|ru|rd)$", b)
    if m:
        op = {"add": ("addition", "x + y"), "sub": ("subtraction", "x − y"), "mul": ("multiplication", "x · y"),
              "div": ("division", "x / y")}[m.group(1)[1:]]
        prec = "float" if m.group(1)[0] == "f" else "double"
        tail = " It is never fused with another operation into an fma." if m.group(1)[1:] in ("add", "sub", "mul") else ""
        return (f"{op[0]}, {ROUND[m.group(2)]} ({prec})",
                f"Computes {op[1]} in {prec} with the rounding mode in its name ({ROUND[m.group(2)]}).{tail}",
                IEEE, SOURCE_INTR_F if prec == "float" else SOURCE_INTR_D, "")
    m = re.match(r"(fmaf|fma|fmaf_ieee)_(rn|rz|ru|rd)$", b)
    if m:
        prec = "double" if m.group(1) == "fma" else "float"
        extra = " The _ieee form keeps denormals whatever -ftz says." if m.group(1) == "fmaf_ieee" else ""
        return (f"fused multiply-add, {ROUND[m.group(2)]} ({prec})",
                f"Computes x·y + z with one rounding, in the mode in its name ({ROUND[m.group(2)]}).{extra}",
                IEEE, SOURCE_INTR_F if prec == "float" else SOURCE_INTR_D, "")
    m = re.match(r"(frcp|drcp|fsqrt|dsqrt)_(rn|rz|ru|rd)$", b)
    if m:
        op = {"rcp": ("reciprocal", "1/x"), "sqrt": ("square root", "√x")}[m.group(1)[1:]]
        prec = "float" if m.group(1)[0] == "f" else "double"
        return (f"{op[0]}, {ROUND[m.group(2)]} ({prec})",
                f"Computes {op[1]} in {prec}, correctly rounded in the mode in its name ({ROUND[m.group(2)]}).",
                IEEE, SOURCE_INTR_F if prec == "float" else SOURCE_INTR_D, "")
    if b == "frsqrt_rn":
        return ("reciprocal square root, round to nearest even (float)",
                "Computes 1/√x correctly rounded to nearest even (CUDA's __frsqrt_rn), unlike the faster __nv_rsqrtf.",
                IEEE, SOURCE_INTR_F, "")
    if b == "rcp64h":
        return ("approximate reciprocal, high word (double)",
                "Computes an approximate 1/x of a double with PTX rcp.approx.ftz.f64, which works on the high 32 bits of "
                "the operand; libdevice uses it as a starting guess for its own division and reciprocal code.",
                "approximate; NVIDIA's tables give no bound (see PTX rcp.approx.ftz.f64)", "", "")
    if b == "saturatef":
        return ("clamp to [0, 1] (float)", "Clamps x to the range [0, 1] (NaN gives 0). CUDA's __saturatef() becomes this call.",
                "exact (0 ulp): no rounding happens", "", "")
    if b in ("powif", "powi"):
        prec = "float" if b == "powif" else "double"
        return (f"power with an integer exponent ({prec})", f"Computes aᵇ for an int exponent b, in {prec}.",
                "not stated by NVIDIA (the function is not in the CUDA error tables)", "", "")
    if b in ("llrintf", "llroundf"):
        c = b[:-1]
        t, what, uf, ud = MATH[c]
        return (f"{t} (float)", f"Computes {what}, from a float. CUDA's {b}() becomes this call.", uf, SOURCE_STD_F, "")
    # Conversions.
    m = re.match(r"(double|float|int|uint|ll|ull)2(double|float|int|uint|ll|ull)_(rn|rz|ru|rd)$", b)
    if m:
        names = {"double": "double", "float": "float", "int": "int", "uint": "unsigned int", "ll": "long long",
                 "ull": "unsigned long long"}
        src, dst, mode = names[m.group(1)], names[m.group(2)], m.group(3)
        exact = (m.group(1) in ("int", "uint") and m.group(2) == "double")
        acc = ("exact: every 32-bit integer is a double" if exact
               else "correctly rounded in the named mode (a conversion; not in the ulp tables)")
        what = f"Converts a {src} to {dst}, {ROUND[mode]}."
        if m.group(2) in ("int", "uint", "ll", "ull"):
            what += " Out-of-range values and NaN give the saturated or special value the PTX cvt instruction defines."
        return (f"{src} to {dst}, {ROUND[mode]}", what, acc, "", "")
    if b == "float2half_rn":
        return ("float to half, round to nearest even", "Converts a float to a 16-bit half, rounded to nearest even, "
                "and returns its bits in the low 16 bits (CUDA's __float2half_rn).",
                "correctly rounded to nearest even (a conversion; not in the ulp tables)", "", "")
    if b == "half2float":
        return ("half to float", "Converts the 16-bit half whose bits are h to a float (CUDA's __half2float).",
                "exact: every half is a float", "", "")
    reinterpret = {
        "int_as_float": ("int bits as float", "the float whose bits are the 32-bit integer x"),
        "uint_as_float": ("unsigned int bits as float", "the float whose bits are the 32-bit unsigned integer x"),
        "float_as_int": ("float bits as int", "the 32 bits of the float x, as an int"),
        "float_as_uint": ("float bits as unsigned int", "the 32 bits of the float x, as an unsigned int"),
        "longlong_as_double": ("long long bits as double", "the double whose bits are the 64-bit integer x"),
        "double_as_longlong": ("double bits as long long", "the 64 bits of the double x, as a long long"),
        "hiloint2double": ("two ints to a double", "the double whose high 32 bits are a and low 32 bits are b"),
        "double2hiint": ("high word of a double", "the high 32 bits of the double d, as an int"),
        "double2loint": ("low word of a double", "the low 32 bits of the double d, as an int"),
    }
    if b in reinterpret:
        t, what = reinterpret[b]
        return (t, f"Returns {what}: a reinterpretation of the bits, no conversion (CUDA's __{b}).",
                "exact: the bits are copied", "", "")
    # Standard math, double or float.
    if b in MATH:
        t, what, uf, ud = MATH[b]
        acc, src = (ud, SOURCE_STD_D) if ud is not None else (EXACT_NOT_LISTED, "")
        return (f"{t} (double)", f"Computes {what}, in double precision. CUDA's {b}() on a double becomes this call.",
                acc, src, "")
    if b.endswith("f") and b[:-1] in MATH:
        c = b[:-1]
        t, what, uf, ud = MATH[c]
        acc, src = (uf, SOURCE_STD_F) if uf is not None else (EXACT_NOT_LISTED, "")
        return (f"{t} (float)", f"Computes {what}, in single precision. CUDA's {b}() becomes this call.", acc, src, "")
    return None


def main():
    bc = sys.argv[1] if len(sys.argv) > 1 else "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc"
    facts = measure(bc)
    entries = []
    missing = []
    for name, ret, params, callees in read_table():
        d = describe(name, ret, params)
        if d is None:
            missing.append(name)
            continue
        title, summary, accuracy, acc_source, _ = d
        f = facts.get(name)
        if f is None:
            sys.exit(f"{bc}: defines no {name}, which {TABLE} lists; regenerate the table from this libdevice")
        details = []
        if f["reflect"]:
            details.append("Reads __nvvm_reflect(" + ", ".join(f'"{r}"' for r in sorted(f["reflect"])) + ").")
        if f["nvvm"]:
            details.append("Calls " + ", ".join("llvm.nvvm." + c for c in sorted(f["nvvm"])[:8])
                           + (" …" if len(f["nvvm"]) > 8 else "") + " (.ftz forms folded in).")
        if callees:
            details.append("Pulls in " + ", ".join(callees.split()) + ".")
        link = GUIDE + ("function-desc.html" if name in NO_PAGE else name + ".html")
        source = "libdevice User's Guide, " + (name if name not in NO_PAGE else "function reference")
        if acc_source:
            source += "; accuracy: " + acc_source
        entries.append({
            "key": name,
            "kind": "function",
            "title": f"{name} — {title}",
            "summary": summary,
            "details": " ".join(details),
            "syntax": sig(ret, name, params),
            "accuracy": accuracy,
            "option_effect": option_effect(name, f, ret + " " + params),
            "link": link,
            "source": source,
        })
    if missing:
        sys.exit("no facts for: " + ", ".join(missing) + " (add them to make_libdevice_docs.py)")
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"domain": "libdevice", "entries": entries}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{OUT}: {len(entries)} entries")


if __name__ == "__main__":
    main()
