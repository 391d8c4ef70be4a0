# Two arrays and a scalar: each array is 7 kernel parameters, the scalar one.
from numba import cuda


@cuda.jit
def axpy(r, a, x, y):
    i = cuda.grid(1)
    if i < r.size:
        r[i] = a * x[i] + y[i]
