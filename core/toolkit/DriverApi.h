#pragma once

#include <cuda.h>

namespace nvpg::toolkit {

// The CUDA driver's entry points, from libcuda.so.1 opened with dlopen when a GPU feature first
// asks for it. Nothing links the driver stub, so the program starts on machines without a GPU.
struct DriverApi {
    CUresult (*init)(unsigned int) = nullptr;
    CUresult (*driverGetVersion)(int*) = nullptr;
    CUresult (*getErrorName)(CUresult, const char**) = nullptr;
    CUresult (*getErrorString)(CUresult, const char**) = nullptr;
    CUresult (*deviceGetCount)(int*) = nullptr;
    CUresult (*deviceGet)(CUdevice*, int) = nullptr;
    CUresult (*deviceGetName)(char*, int, CUdevice) = nullptr;
    CUresult (*deviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
    CUresult (*deviceTotalMem)(size_t*, CUdevice) = nullptr;
};

}  // namespace nvpg::toolkit
