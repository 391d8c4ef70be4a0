// Two small kernels for clang-14's CUDA device compile without the CUDA headers (-nocudainc).
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() + __nvvm_read_ptx_sreg_tid_x();
    if (i < n) y[i] = a * x[i] + y[i];
}

// Each block sums 256 of `in` through shared memory; out is only written (writeonly).
extern "C" __global__ void block_sum(const float* in, float* out) {
    __shared__ float tile[256];
    unsigned t = __nvvm_read_ptx_sreg_tid_x();
    unsigned b = __nvvm_read_ptx_sreg_ctaid_x();
    tile[t] = in[b * 256 + t];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {
        if (t < s) tile[t] += tile[t + s];
        __syncthreads();
    }
    if (t == 0) out[b] = tile[0];
}
