/* test_cuda_runtime.cu - the GPU groundwork: a kernel checked against a CPU reference on awkward sizes,
 * and SC_CUDA_CHECK / SC_CUDA_CHECK_LAUNCH recording the failing call, file and line (gpu). */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "sc_report.h"
#include "sctest.h"
#include "sctest_cuda.h"

__global__ void affine_kernel(const unsigned *in, unsigned *out, unsigned n, unsigned a, unsigned b)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * a + b;
}

static sc_status launch_affine(const unsigned *in, unsigned *out, unsigned n, unsigned threads, cudaStream_t s)
{
    if (n == 0) return SC_OK;
    affine_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(in, out, n, 2654435761u, 12345u);
    SC_CUDA_CHECK_LAUNCH("affine_kernel");
    return SC_OK;
}

static void test_device_is_hopper_or_newer(void)
{
    cudaDeviceProp p;
    SCT_CUDA_REQUIRE(cudaGetDeviceProperties(&p, 0));
    printf("      device: %s, sm_%d%d, %d SMs, %d MB L2, %.1f GB\n", p.name, p.major, p.minor,
           p.multiProcessorCount, p.l2CacheSize >> 20, (double)p.totalGlobalMem / 1e9);
    SCT_CHECK(p.major >= 9);
}

static void test_kernel_matches_cpu_reference(void)
{
    static const unsigned sizes[] = {0, 1, 31, 32, 33, 255, 256, 257, 1000003};
    sct_rng rng;
    sct_rng_seed(&rng, sct_base_seed());
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
        unsigned n = sizes[k];
        size_t bytes = (size_t)n * sizeof(unsigned) + 4;
        unsigned *h_in = (unsigned *)malloc(bytes), *h_out = (unsigned *)malloc(bytes);
        unsigned *d_in = NULL, *d_out = NULL;
        SCT_REQUIRE(h_in && h_out);
        for (unsigned i = 0; i < n; ++i) h_in[i] = sct_rng_u32(&rng);
        SCT_CUDA_REQUIRE(cudaMalloc(&d_in, bytes));
        SCT_CUDA_REQUIRE(cudaMalloc(&d_out, bytes));
        SCT_CUDA(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
        SCT_CUDA(cudaMemset(d_out, 0xAB, bytes)); /* poison: every element must be written */
        SCT_CHECK_OK(launch_affine(d_in, d_out, n, 256, 0));
        SCT_CUDA(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
        unsigned bad = 0;
        for (unsigned i = 0; i < n; ++i) bad += h_out[i] != h_in[i] * 2654435761u + 12345u;
        SCT_CHECK_MSG(bad == 0, "n=%u: %u wrong elements", n, bad);
        SCT_CHECK_MSG(h_out[n] == 0xABABABABu, "n=%u: wrote past the end", n);
        cudaFree(d_in);
        cudaFree(d_out);
        free(h_in);
        free(h_out);
    }
}

static sc_status allocate_absurd(void **p)
{
    SC_CUDA_CHECK(cudaMalloc(p, (size_t)1 << 50));
    return SC_OK;
}

/* Keeps the last debug-level line: the one that carries the failure's source location. */
static char debug_line[1024];
static void keep_debug(sc_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == SC_LOG_DEBUG) snprintf(debug_line, sizeof debug_line, "%s", message);
}

static void test_cuda_check_records_call_file_and_line(void)
{
    sc_set_log_callback(keep_debug, NULL, SC_LOG_DEBUG);
    debug_line[0] = 0;
    void *p = NULL;
    SCT_CHECK(allocate_absurd(&p) == SC_ERROR_OUT_OF_MEMORY);
    SCT_CHECK_MSG(strstr(sc_last_error(), "cudaMalloc(p, (size_t)1 << 50) failed") != NULL, "%s", sc_last_error());
    /* The user's message has no source location; the debug log line has it. */
    SCT_CHECK_MSG(strstr(sc_last_error(), "test_cuda_runtime.cu:") == NULL, "%s", sc_last_error());
    SCT_CHECK_MSG(strstr(debug_line, "tests/foundation/test_cuda_runtime.cu:") != NULL, "%s", debug_line);
    /* A launch with too many threads per block is caught at launch, without synchronising. */
    SCT_CHECK(launch_affine(NULL, NULL, 100, 4096, 0) == SC_ERROR_CUDA);
    SCT_CHECK_MSG(strstr(sc_last_error(), "launch of affine_kernel failed") != NULL, "%s", sc_last_error());
    SCT_CHECK(cudaGetLastError() == cudaSuccess); /* the sticky state is cleared, the context usable */
    sc_set_log_callback(NULL, NULL, SC_LOG_ERROR);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "cuda_runtime");
    sct_require_cuda();
    SCT_RUN(test_device_is_hopper_or_newer);
    SCT_RUN(test_kernel_matches_cpu_reference);
    SCT_RUN(test_cuda_check_records_call_file_and_line);
    return sct_end();
}
