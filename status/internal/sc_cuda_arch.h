/* sc_cuda_arch.h - what the CUDA architecture being compiled allows, for the project's kernels
 * (internal; nvcc compiles a file once per architecture of SLABCAST_CUDA_ARCHITECTURES, with
 * __CUDA_ARCH__ set to it, and once for the host without it).
 *
 * SC_MIN_BLOCKS(threads, blocks): the second argument of __launch_bounds__ (resident blocks per SM
 * the register allocation must allow), clamped to what an SM of the architecture holds: ptxas
 * rejects a bound above it (sm_75 holds 1024 threads per SM; sm_86 / 87 / 89 and sm_120 1536;
 * sm_80 and sm_90 2048, where the tuned values apply unchanged). */
#ifndef SC_CUDA_ARCH_H
#define SC_CUDA_ARCH_H

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define SC_ARCH_SM_THREADS 1024
#elif defined(__CUDA_ARCH__) && ((__CUDA_ARCH__ >= 860 && __CUDA_ARCH__ < 900) || __CUDA_ARCH__ >= 1200)
#define SC_ARCH_SM_THREADS 1536
#else
#define SC_ARCH_SM_THREADS 2048
#endif

#define SC_MIN_BLOCKS(threads, blocks)                                                                      \
    ((threads) * (blocks) > SC_ARCH_SM_THREADS ? SC_ARCH_SM_THREADS / (threads) : (blocks))

#endif /* SC_CUDA_ARCH_H */
