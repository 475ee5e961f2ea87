/* nccl_loader.h - NCCL's entry points, loaded at the first use (internal to slabcast_nccl and its
 * tests). slabcast_nccl does not link libnccl: a program built with it starts where no NCCL is
 * installed, and its calls answer SC_ERROR_UNSUPPORTED saying why. The library is the process's
 * libnccl.so.2 (the one the caller's communicator comes from, when the caller links NCCL itself), or
 * the file SLABCAST_NCCL_LIBRARY names when that variable is set. */
#ifndef SC_NCCL_LOADER_H
#define SC_NCCL_LOADER_H

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "sc_status.h"

typedef struct sc_nccl_fns {
    ncclResult_t (*all_reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, ncclComm_t, cudaStream_t);
    ncclResult_t (*reduce)(const void *, void *, size_t, ncclDataType_t, ncclRedOp_t, int, ncclComm_t, cudaStream_t);
    const char *(*get_error_string)(ncclResult_t);
    ncclResult_t (*comm_init_all)(ncclComm_t *, int, const int *);
    ncclResult_t (*comm_destroy)(ncclComm_t);
    ncclResult_t (*group_start)(void);
    ncclResult_t (*group_end)(void);
} sc_nccl_fns;

#ifdef __cplusplus
extern "C" {
#endif

/* *out = NCCL's entry points, loaded once (thread-safe; a failed load is tried again at the next
 * call). UNSUPPORTED with the loader's reason when the library or one of its symbols is missing. */
sc_status sc_nccl_functions(const sc_nccl_fns **out);

#ifdef __cplusplus
}
#endif
#endif /* SC_NCCL_LOADER_H */
