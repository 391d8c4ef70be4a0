# @cuda.jit(fastmath=True): numba passes -ftz=1 -fma=1 -prec-div=0 -prec-sqrt=0 and calls
# libdevice's fast variants; the import keeps the dispatcher's options.
import math

from numba import cuda


@cuda.jit(fastmath=True)
def fast_math(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i]) / math.sqrt(x[i] + 1.0)
