# A 2-D kernel: each 2-D array is 9 kernel parameters (two shapes, two strides).
from numba import cuda


@cuda.jit
def matadd(c, a, b):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        c[i, j] = a[i, j] + b[i, j]
