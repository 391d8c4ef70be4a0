# Finds the CUDA headers the engine is compiled against (nvvm.h, nvJitLink.h, cuda.h).
# No CUDA library is linked: libNVVM, nvJitLink and the driver are loaded at run time.
#
# Looks, in this order, in: CUDA_PATH (CMake variable, then environment), CUDA_HOME, CONDA_PREFIX,
# /usr/local/cuda, the newest /usr/local/cuda-X.Y, /opt/cuda. Sets CudaHeaders_INCLUDE_DIR and
# the imported target Cuda::Headers.
set(_nvpg_cuda_roots)
foreach(_var CUDA_PATH CUDA_HOME CONDA_PREFIX)
    if(DEFINED ${_var} AND NOT "${${_var}}" STREQUAL "")
        list(APPEND _nvpg_cuda_roots "${${_var}}")
    elseif(DEFINED ENV{${_var}} AND NOT "$ENV{${_var}}" STREQUAL "")
        list(APPEND _nvpg_cuda_roots "$ENV{${_var}}")
    endif()
endforeach()
list(APPEND _nvpg_cuda_roots /usr/local/cuda)
file(GLOB _nvpg_versioned LIST_DIRECTORIES true /usr/local/cuda-*)
list(SORT _nvpg_versioned COMPARE NATURAL ORDER DESCENDING)
list(APPEND _nvpg_cuda_roots ${_nvpg_versioned} /opt/cuda)

set(_nvpg_cuda_tried)
foreach(_root IN LISTS _nvpg_cuda_roots)
    foreach(_inc "${_root}/include" "${_root}/targets/x86_64-linux/include")
        list(APPEND _nvpg_cuda_tried "${_inc}")
        if(EXISTS "${_inc}/nvvm.h" AND EXISTS "${_inc}/nvJitLink.h" AND EXISTS "${_inc}/cuda.h")
            set(CudaHeaders_INCLUDE_DIR "${_inc}" CACHE PATH "Directory with nvvm.h, nvJitLink.h and cuda.h")
            break()
        endif()
        # Standard toolkits keep nvvm.h under nvvm/include.
        if(EXISTS "${_root}/nvvm/include/nvvm.h" AND EXISTS "${_inc}/nvJitLink.h" AND EXISTS "${_inc}/cuda.h")
            set(CudaHeaders_INCLUDE_DIR "${_inc}" CACHE PATH "Directory with nvJitLink.h and cuda.h")
            set(CudaHeaders_NVVM_INCLUDE_DIR "${_root}/nvvm/include" CACHE PATH "Directory with nvvm.h")
            break()
        endif()
    endforeach()
    if(CudaHeaders_INCLUDE_DIR)
        break()
    endif()
endforeach()

if(NOT CudaHeaders_INCLUDE_DIR)
    list(JOIN _nvpg_cuda_tried "\n    " _nvpg_tried_text)
    message(FATAL_ERROR
        "No CUDA toolkit found: nvvm.h, nvJitLink.h and cuda.h were not in any of\n"
        "    ${_nvpg_tried_text}\n"
        "Install the CUDA toolkit, or point at one with CUDA_PATH, e.g.\n"
        "    CUDA_PATH=/usr/local/cuda-13.0 ./quickstart test")
endif()
set(CudaHeaders_FOUND TRUE)
message(STATUS "CUDA headers: ${CudaHeaders_INCLUDE_DIR} ${CudaHeaders_NVVM_INCLUDE_DIR}")
if(NOT TARGET Cuda::Headers)
    add_library(Cuda::Headers INTERFACE IMPORTED)
    set_target_properties(Cuda::Headers PROPERTIES
        INTERFACE_INCLUDE_DIRECTORIES "${CudaHeaders_INCLUDE_DIR};${CudaHeaders_NVVM_INCLUDE_DIR}")
endif()
