#pragma once

#include <cstdint>
#include <string>

#define NVJITLINK_NO_INLINE 1
#include <nvJitLink.h>

namespace nvpg::toolkit {

// nvJitLink's entry points, looked up by their plain names (present in 12.x and 13.x) and else
// by the versioned names the headers' inline wrappers call.
struct NvJitLinkApi {
    nvJitLinkResult (*create)(nvJitLinkHandle*, uint32_t, const char**) = nullptr;
    nvJitLinkResult (*destroy)(nvJitLinkHandle*) = nullptr;
    nvJitLinkResult (*addData)(nvJitLinkHandle, nvJitLinkInputType, const void*, size_t, const char*) = nullptr;
    nvJitLinkResult (*complete)(nvJitLinkHandle) = nullptr;
    nvJitLinkResult (*getLinkedCubinSize)(nvJitLinkHandle, size_t*) = nullptr;
    nvJitLinkResult (*getLinkedCubin)(nvJitLinkHandle, void*) = nullptr;
    nvJitLinkResult (*getLinkedPtxSize)(nvJitLinkHandle, size_t*) = nullptr;
    nvJitLinkResult (*getLinkedPtx)(nvJitLinkHandle, char*) = nullptr;
    nvJitLinkResult (*getErrorLogSize)(nvJitLinkHandle, size_t*) = nullptr;
    nvJitLinkResult (*getErrorLog)(nvJitLinkHandle, char*) = nullptr;
    nvJitLinkResult (*getInfoLogSize)(nvJitLinkHandle, size_t*) = nullptr;
    nvJitLinkResult (*getInfoLog)(nvJitLinkHandle, char*) = nullptr;
    // Only from CUDA 12.3 on; null before.
    nvJitLinkResult (*version)(unsigned int*, unsigned int*) = nullptr;
};

std::string nvJitLinkResultName(nvJitLinkResult r);

}  // namespace nvpg::toolkit
