#!/usr/bin/env python3
"""Writes scale-1024.npy: the data of run "scale 1024" after scale (3 * (0, 1, ..., 1023)),
as float32 in the .npy 1.0 format, without numpy. Run it here; make_lessons.py copies the file
beside the built lesson."""
import struct

values = [3.0 * i for i in range(1024)]
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
# Magic, version and header length take 10 bytes; numpy pads the header with spaces and a
# newline so that the data starts at a multiple of 64.
header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
with open("scale-1024.npy", "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
    f.write(struct.pack("<%df" % len(values), *values))
