#!/usr/bin/env python3
"""Writes resources/docs/arch.json: one entry per -arch value libNVVM lists (CUDA 12 and 13, as
core/nvvm/Options.cpp's supportedArchs has them), in the project's own words.

Each entry says which SASS target (sm_NN) and compute capability the arch means, the PTX ISA
version that introduced the target (PTX ISA release notes, .target directive), and what it adds
over the arch before it that NVVM IR can reach (PTX ISA instruction target requirements, CUDA C++
Programming Guide "Compute Capabilities"). The `a` and `f` variants get their own entries.

Run:  python3 resources/docs/make_arch_docs.py      (then commit resources/docs/arch.json)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "arch.json")
PTX = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#"
GUIDE = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#"

# The section of the programming guide that describes a compute capability.
GUIDE_SECTION = {
    "5": ("compute-capability-5-x", "Compute Capability 5.x"),
    "6": ("compute-capability-6-x", "Compute Capability 6.x"),
    "7": ("compute-capability-7-x", "Compute Capability 7.x"),
    "8": ("compute-capability-8-x", "Compute Capability 8.x"),
    "9": ("compute-capability-9-0", "Compute Capability 9.0"),
    "10": ("compute-capability-10-0", "Compute Capability 10.0"),
    "11": ("compute-capabilities", "Compute Capabilities"),
    "12": ("compute-capability-12-0", "Compute Capability 12.0"),
}

A_MEANS = (
    "The `a` suffix: arch-specific. PTX for it may use the architecture-specific features of exactly "
    "this compute capability, and runs only there: it is not forward compatible, so no later GPU "
    "JIT-compiles it (the plain arch's PTX does). The a feature set includes the f one."
)
F_MEANS = (
    "The `f` suffix (PTX ISA 8.8, CUDA 12.9): family-specific. PTX for it may use the features the "
    "family shares, and runs on GPUs of the same family with the same or a higher minor compute "
    "capability (sm_100f code runs on 10.0 and 10.3), not on other families. It sits between the "
    "plain arch (portable to every later GPU) and the a arch (one GPU only)."
)


def cc_of(num):
    n = int(num)
    return f"{n // 10}.{n % 10}"


# (number, GPUs of that compute capability, PTX ISA version of sm_NN, what the plain arch adds
#  over the arch before it, the release note that says so)
PLAIN = [
    ("50", "Maxwell (GeForce GTX 750, Quadro M-series)", "4.0",
     "the oldest arch libNVVM 12.x takes; CUDA 13 dropped Maxwell, Pascal and Volta. Native shared-memory atomics; no half-precision arithmetic yet."),
    ("52", "Maxwell (GeForce GTX 9xx, Tesla M40)", "4.1",
     "nothing NVVM IR can reach beyond compute_50: more shared memory per SM."),
    ("53", "Maxwell (Jetson TX1, Tegra X1)", "4.2",
     "half-precision arithmetic in PTX (add, sub, mul, fma on .f16 and .f16x2), which IR's `half` operations then use."),
    ("60", "Pascal (Tesla P100)", "5.0",
     "atom.add.f64 (a double-precision atomic add, IR's atomicrmw fadd on double) and scoped atomics (.cta, .gpu, .sys)."),
    ("61", "Pascal (GeForce GTX 10xx, Tesla P4/P40)", "5.0",
     "dp4a and dp2a, the 8- and 16-bit integer dot products (llvm.nvvm.idp4a, llvm.nvvm.idp2a)."),
    ("62", "Pascal (Jetson TX2)", "5.0",
     "nothing over compute_61 that NVVM IR can reach; the Tegra variant of Pascal."),
    ("70", "Volta (Tesla V100)", "6.0",
     "independent thread scheduling: warp-level operations take a member mask (shfl.sync, vote.sync, match.sync, bar.warp.sync); the first tensor cores (wmma on .f16); nanosleep; the acquire/release memory model (ld.acquire, st.release, fence.acq_rel)."),
    ("72", "Volta (Jetson AGX Xavier)", "6.1",
     "integer tensor-core operations: wmma on .s8 and .u8."),
    ("75", "Turing (GeForce RTX 20xx, Tesla T4)", "6.3",
     "sub-byte wmma (.s4, .u4, .b1), mma.sync m16n8k8, ldmatrix, movmatrix, and tanh.approx.f32 and ex2.approx.f16. libNVVM 13.0's default arch."),
    ("80", "Ampere (A100, A30)", "7.0",
     "cp.async (asynchronous copies from global to shared memory, llvm.nvvm.cp.async.*); bf16 and tf32 (cvt.rn.bf16.f32, fma/min/max on .bf16, mma on .bf16, .tf32 and .f64); mbarrier (asynchronous barriers); redux.sync; L2 cache eviction policies (createpolicy)."),
    ("86", "Ampere (GeForce RTX 30xx, A10, A40)", "7.1",
     "the instruction set of compute_80 (on the GPU side: fewer FP64 units and less shared memory per SM than the A100); nothing new that NVVM IR reaches. libNVVM 13.0 takes it though its list leaves it out."),
    ("87", "Ampere (Jetson AGX Orin)", "7.4",
     "the instruction set of compute_86; nothing new that NVVM IR reaches."),
    ("88", "an sm_8x target added in CUDA 13.0", "9.0",
     "no feature that NVVM IR reaches is documented as new in it (PTX ISA 9.0 added the sm_88 target to the sm_8x line). libNVVM 13.0 takes it though its list leaves it out."),
    ("89", "Ada Lovelace (GeForce RTX 40xx, L4, L40)", "7.8",
     "fp8: cvt between f32/f16 pairs and .e4m3x2 / .e5m2x2 (PTX ISA 7.8), and mma.sync on .e4m3 / .e5m2 (PTX ISA 8.4)."),
    ("90", "Hopper (H100, H200, GH200)", "7.8",
     "thread block clusters (%clusterid, %cluster_ctarank, barrier.cluster), distributed shared memory (.shared::cluster, mapa), the tensor memory accelerator (cp.async.bulk and cp.async.bulk.tensor, TMA), mbarrier transaction counts, elect.sync, stmatrix, fence.proxy.async, multimem. wgmma and setmaxnreg need compute_90a."),
    ("100", "Blackwell (B200, GB200)", "8.6",
     "little that the plain arch reaches beyond compute_90: Blackwell's new instructions (tcgen05 and tensor memory, the fp6/fp4 conversions) need compute_100a or compute_100f. From compute_100 on, libNVVM also reads the modern LLVM dialect (opaque pointers, LLVM 16/18 bitcode)."),
    ("101", "Blackwell (Jetson Thor, as CUDA 12.8-12.9 named it)", "8.6",
     "the compute_100 instruction set on Jetson Thor; CUDA 13 renamed this target compute_110."),
    ("103", "Blackwell Ultra (B300, GB300)", "8.8",
     "the compute_100 instruction set (compute capability 10.3, in the 10.x family: compute_100f code runs here)."),
    ("110", "Blackwell (Jetson Thor; compute_101 before CUDA 13)", "9.0",
     "the Blackwell instruction set on Jetson Thor; its own family (11.x)."),
    ("120", "Blackwell (GeForce RTX 50xx, RTX PRO Blackwell)", "8.7",
     "the Blackwell client line: no tcgen05 and no wgmma; block-scaled mma.sync on fp8/fp6/fp4 needs compute_120a or compute_120f."),
    ("121", "Blackwell (DGX Spark, GB10)", "8.8",
     "the compute_120 instruction set (compute capability 12.1, in the 12.x family: compute_120f code runs here)."),
]

# What the a (and f) variant of an arch adds over the plain one, and the PTX ISA version of its target.
SUFFIXED = {
    "90a": ("8.0", "wgmma.mma_async (warpgroup matrix multiply-accumulate, fed from shared memory by TMA) and setmaxnreg (warpgroups hand registers to each other); only on compute capability 9.0."),
    "100a": ("8.6", "tcgen05 (the fifth-generation tensor core: tcgen05.mma, tensor memory with tcgen05.alloc/ld/st/cp), cvt to and from the narrow formats .e2m1x2, .e2m3x2, .e3m2x2, .ue8m0x2, and what 90a had that Blackwell keeps; only on compute capability 10.0."),
    "100f": ("8.8", "the features of compute_100a that the 10.x family shares (tcgen05 and the narrow-format conversions among them), portable to compute capability 10.0 and 10.3."),
    "101a": ("8.6", "the arch-specific features of Jetson Thor (tcgen05 included), as CUDA 12.8-12.9 named it; compute_110a since CUDA 13."),
    "103a": ("8.8", "the arch-specific features of compute capability 10.3 (tcgen05 and the narrow-format conversions, as 100a)."),
    "103f": ("8.8", "the 10.x family's shared features, for compute capability 10.3 and later 10.x GPUs."),
    "110a": ("9.0", "the arch-specific features of compute capability 11.0 (Jetson Thor; tcgen05 included)."),
    "110f": ("9.0", "the 11.x family's shared features, for compute capability 11.0 and later 11.x GPUs."),
    "120a": ("8.7", "block-scaled mma.sync (.kind::mxf8f6f4, .kind::mxf4, .block_scale) and the narrow-format conversions (.e2m1x2, .e2m3x2, .e3m2x2, .ue8m0x2); only on compute capability 12.0. No tcgen05, no wgmma."),
    "120f": ("8.8", "the 12.x family's shared features (block-scaled mma.sync and the narrow-format conversions), portable to compute capability 12.0 and 12.1."),
    "121a": ("8.8", "the arch-specific features of compute capability 12.1 (as 120a)."),
    "121f": ("8.8", "the 12.x family's shared features, for compute capability 12.1 and later 12.x GPUs."),
}


def release_note(version):
    return f"PTX ISA {version} — Release notes / .target directive"


def main():
    entries = []
    plain = {num: (gpus, ptx, adds) for num, gpus, ptx, adds in PLAIN}
    for num, gpus, ptx, adds in PLAIN:
        major = str(int(num) // 10)
        anchor, section = GUIDE_SECTION[major]
        cc = cc_of(num)
        entries.append({
            "key": f"compute_{num}",
            "kind": "arch",
            "title": f"compute_{num} — {gpus.split(' (')[0]}, compute capability {cc} (sm_{num})",
            "summary": (f"The virtual architecture of compute capability {cc} GPUs: {gpus}. libNVVM writes "
                        f"`.target sm_{num}` into the PTX, which ptxas or the driver turns into sm_{num} SASS; "
                        f"the PTX also runs on every later GPU, JIT-compiled by the driver."),
            "sass": f"sm_{num}",
            "compute_capability": cc,
            "ptx_isa": f".target sm_{num}, introduced in PTX ISA {ptx}",
            "adds": adds,
            "link": GUIDE + anchor,
            "source": f"CUDA C++ Programming Guide — {section}; {release_note(ptx)}",
        })
    for suffixed, (ptx, adds) in SUFFIXED.items():
        num, suffix = suffixed[:-1], suffixed[-1]
        gpus = plain[num][0]
        cc = cc_of(num)
        means = A_MEANS if suffix == "a" else F_MEANS
        family = f"compute capability {cc} only" if suffix == "a" else f"the {int(num) // 10}.x family from {cc} on"
        entries.append({
            "key": f"compute_{suffixed}",
            "kind": "arch",
            "title": f"compute_{suffixed} — compute_{num} with its {'arch' if suffix == 'a' else 'family'}-specific features ({family})",
            "summary": (f"compute_{num} ({gpus.split(' (')[0]}) plus the features that are not portable to every later GPU. "
                        f"libNVVM writes `.target sm_{suffixed}`. {means}"),
            "sass": f"sm_{suffixed}",
            "compute_capability": cc,
            "ptx_isa": f".target sm_{suffixed}, introduced in PTX ISA {ptx}",
            "adds": adds,
            "link": GUIDE + "feature-availability",
            "source": (f"CUDA C++ Programming Guide — Compute Capabilities: Feature Availability; "
                       f"{release_note(ptx)}"),
        })
    # In the order of supportedArchs: by number, each plain arch before its a and f variants.
    entries.sort(key=lambda e: (int(e["key"][8:].rstrip("af")), e["key"][-1].isalpha(), e["key"]))
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"domain": "arch", "entries": entries}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"{OUT}: {len(entries)} entries")


if __name__ == "__main__":
    main()
