/* sc_hd.h - the common subset of C11 and CUDA C used by code shared between the CPU backend (.c)
 * and the CUDA backend (.cu): SC_HD marks functions for both host and device, and the SC_F* macros
 * give correctly rounded float operations that nvcc never contracts into FMAs, so both backends
 * compute bit-identical projections, tile spans and intersections (internal). */
#ifndef SC_HD_H
#define SC_HD_H

#ifdef __CUDACC__
#define SC_HD __host__ __device__
#else
#define SC_HD
#endif

#if defined(__CUDA_ARCH__)
#define SC_FADD(a, b) __fadd_rn((a), (b))
#define SC_FSUB(a, b) __fsub_rn((a), (b))
#define SC_FMUL(a, b) __fmul_rn((a), (b))
#define SC_FDIV(a, b) __fdiv_rn((a), (b))
#define SC_FRCP(a) __frcp_rn(a)
#define SC_DADD(a, b) __dadd_rn((a), (b))
#define SC_DSUB(a, b) __dsub_rn((a), (b))
#define SC_DMUL(a, b) __dmul_rn((a), (b))
#else
/* Host C: strict C11 (no -ffp-contract=fast), so a*b+c is never fused. */
#define SC_FADD(a, b) ((float)(a) + (float)(b))
#define SC_FSUB(a, b) ((float)(a) - (float)(b))
#define SC_FMUL(a, b) ((float)(a) * (float)(b))
#define SC_FDIV(a, b) ((float)(a) / (float)(b))
#define SC_FRCP(a) (1.0f / (float)(a))
#define SC_DADD(a, b) ((double)(a) + (double)(b))
#define SC_DSUB(a, b) ((double)(a) - (double)(b))
#define SC_DMUL(a, b) ((double)(a) * (double)(b))
#endif

/* a*b - c*d, rounded after each operation. */
#define SC_FDIFF_PROD(a, b, c, d) SC_FSUB(SC_FMUL((a), (b)), SC_FMUL((c), (d)))

#endif /* SC_HD_H */
