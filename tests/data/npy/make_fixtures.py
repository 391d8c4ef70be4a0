#!/usr/bin/env python3
"""Writes the .npy fixtures that tst_npy reads, with NumPy itself (run from this folder).

The files are checked in; rerun this only to change them. Written with NumPy 2.4.
"""
import io

import numpy as np


def save(name, a, version=None):
    with open(name, "wb") as f:
        np.lib.format.write_array(f, a, version=version, allow_pickle=False)


save("f32_4.npy", np.array([1.5, -2.0, 0.1, 3e38], dtype="<f4"))
save("i64_2x3.npy", np.arange(-3, 3, dtype="<i8").reshape(2, 3))
save("u8_5.npy", np.array([0, 1, 127, 128, 255], dtype="|u1"))
save("f64_0d.npy", np.array(3.25, dtype="<f8"))
save("i16_v2.npy", np.array([-1, 2, -3], dtype="<i2"), version=(2, 0))
save("f16_v3.npy", np.array([1.0, 65504.0, 0.1], dtype="<f2"), version=(3, 0))
save("be_f4.npy", np.array([1.0, 2.0, 3.0], dtype=">f4"))
save("fortran_2x3.npy", np.asfortranarray(np.arange(6, dtype="<i4").reshape(2, 3)))
save("bool_3.npy", np.array([True, False, True]))

# The f32 file less its last 3 bytes.
buf = io.BytesIO()
np.lib.format.write_array(buf, np.array([1.5, -2.0, 0.1, 3e38], dtype="<f4"))
with open("truncated_f32.npy", "wb") as f:
    f.write(buf.getvalue()[:-3])
