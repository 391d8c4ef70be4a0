# Scalars of other types (bool, int8, uint16, complex64 as two floats, float16 as its u16 bits)
# and a Fortran-ordered 3-D array (strides in bytes, first extent fastest).
from numba import cuda

@cuda.jit
def kinds(out, b, i8, u16, c, h, d, f3):
    i = cuda.grid(1)
    if i < out.size and b:
        out[i] = i8 + u16 + c.real + h + d + f3[0, 0, 0]
