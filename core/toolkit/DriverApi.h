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

    // Running kernels (core/gpu).
    CUresult (*primaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
    CUresult (*primaryCtxRelease)(CUdevice) = nullptr;
    CUresult (*primaryCtxReset)(CUdevice) = nullptr;
    CUresult (*ctxSetCurrent)(CUcontext) = nullptr;
    CUresult (*ctxSynchronize)() = nullptr;
    CUresult (*moduleLoadDataEx)(CUmodule*, const void*, unsigned int, CUjit_option*, void**) = nullptr;
    CUresult (*moduleUnload)(CUmodule) = nullptr;
    CUresult (*moduleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
    CUresult (*memAlloc)(CUdeviceptr*, size_t) = nullptr;
    CUresult (*memFree)(CUdeviceptr) = nullptr;
    CUresult (*memcpyHtoD)(CUdeviceptr, const void*, size_t) = nullptr;
    CUresult (*memcpyDtoH)(void*, CUdeviceptr, size_t) = nullptr;
    CUresult (*launchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**) = nullptr;
    CUresult (*streamCreate)(CUstream*, unsigned int) = nullptr;
    CUresult (*streamDestroy)(CUstream) = nullptr;
    CUresult (*eventCreate)(CUevent*, unsigned int) = nullptr;
    CUresult (*eventDestroy)(CUevent) = nullptr;
    CUresult (*eventRecord)(CUevent, CUstream) = nullptr;
    CUresult (*eventQuery)(CUevent) = nullptr;
    CUresult (*eventElapsedTime)(float*, CUevent, CUevent) = nullptr;
    CUresult (*funcGetAttribute)(int*, CUfunction_attribute, CUfunction) = nullptr;
    // The driver's theoretical occupancy, beside core's own (gpu/Occupancy.h).
    CUresult (*occupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, size_t) = nullptr;
};

}  // namespace nvpg::toolkit
