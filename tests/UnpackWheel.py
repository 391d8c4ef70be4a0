"""Unpacks a wheel into a site-packages folder as pip installs it: every file, with the modes
the wheel gives them (zipfile alone drops them, and ptxas or nvdisasm would not run).
   python3 UnpackWheel.py WHEEL SITE_PACKAGES
Used by the tests' set-up (FetchNvdisasm.sh, FetchCuda12.sh), never by the product."""
import os
import sys
import zipfile

with zipfile.ZipFile(sys.argv[1]) as z:
    for info in z.infolist():
        path = z.extract(info, sys.argv[2])
        mode = (info.external_attr >> 16) & 0o777
        if mode:
            os.chmod(path, mode)
