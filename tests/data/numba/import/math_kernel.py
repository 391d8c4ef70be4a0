# libdevice math: numba calls __nv_sinf, __nv_expf and __nv_powf, so libdevice is linked.
import math

from numba import cuda


@cuda.jit
def math_kernel(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i]) + math.exp(x[i]) + math.pow(x[i], 2.5)
