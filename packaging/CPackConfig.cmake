# The .deb: `cpack --config build/CPackConfig.cmake` (README "Install"). It holds what
# `cmake --install` puts in place (packaging/Install.cmake, the binaries, the man pages).
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "nvvm-playground")
set(CPACK_PACKAGE_VENDOR "NVVM Playground developers")
set(CPACK_PACKAGE_CONTACT "NVVM Playground developers <nvvm-playground@users.noreply.github.com>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/nvvm-playground/nvvm-playground")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "IR playground for NVIDIA's libNVVM (NVVM IR to PTX)")
# Debian's extended description, lines under 80 columns (lintian): paragraphs separated by a blank
# line (CPack writes " ." for it).
set(CPACK_PACKAGE_DESCRIPTION [=[
NVVM Playground edits NVVM IR modules (the LLVM IR that numba, Julia, MLIR
and other GPU compilers hand to libNVVM), compiles them with NVIDIA's
libNVVM in a background engine process, and shows the PTX, the
link-time-optimised result of nvJitLink and, with nvdisasm, the SASS side by
side, with a line map from IR to PTX, hover docs, libdevice's part and hints
for libNVVM's errors. It compares option sets, architectures and CUDA
releases, and runs kernels on the local GPU. The nvpg command does the same
from the command line and in build scripts.

It needs the NVIDIA CUDA toolkit, which this package does not contain:
libNVVM, libdevice and nvJitLink are found at run time in CUDA_PATH,
CUDA_HOME, /usr/local/cuda, the newest /usr/local/cuda-*, a conda
environment, or the nvidia folder of NVIDIA's pip wheels; nvpg info says
which files were used. Running kernels needs the NVIDIA driver.
]=])
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # nvvm-playground_<version>-<release>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
# Library dependencies from the binaries themselves (dpkg-shlibdeps); Qt's platform plugins are
# loaded with dlopen, so no binary names them: the app shows no window without qt6-qpa-plugins.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# llvm-dis-14 shows bitcode modules as text; without it they show as bytes.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "llvm-14")
# The CUDA toolkit is found wherever it is (often not from a .deb), so it is only suggested.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "nvidia-cuda-toolkit")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build.*/;/\\\\.git/")
include(CPack)
