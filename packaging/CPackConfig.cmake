# A .deb of what `cmake --install` puts in place: nvpg and nvvm-playground, nothing else (no
# .desktop file, AppStream metadata, MIME type or icons). Build it with:
# cpack --config build/CPackConfig.cmake
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "nvvm-playground")
set(CPACK_PACKAGE_VENDOR "NVVM Playground")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "IR playground for NVIDIA's libNVVM")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "NVVM Playground developers")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# Library dependencies come from the binaries themselves; the CUDA toolkit is found at run time.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
