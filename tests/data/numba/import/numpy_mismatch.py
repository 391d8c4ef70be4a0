# A numpy without np.row_stack, as numpy 2.5 is: numba-cuda 0.30 overloads it while it compiles, so
# the compile fails with AttributeError, as it did on a machine with numba-cuda 0.30.4 and numpy
# 2.5.2. nvpg import numba must pass the error on and say what to do.
import numpy

if hasattr(numpy, "row_stack"):
    del numpy.row_stack

from numba import cuda  # noqa: E402


@cuda.jit
def fill(x):
    x[0] = 1.0
