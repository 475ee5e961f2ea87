/* test_render_limits_gpu.cu - sc_backend_measure_limits on the CUDA backend: the copy bandwidth and the
 * ray-triangle test rate of the GPU, positive and finite, with the sizes the call says it used (a launch
 * of whole blocks on every SM, about a millisecond a run, about one hit in eight, as ray_rate.h's body
 * gives on the host); SC_BACKEND_DEFAULT measures the GPU; the call leaves the device's free memory as
 * it found it (its buffers freed) and no CUDA error behind. Exits 77 without a CUDA device. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_tuning.h"
#include "slabcast.h"
#include "sctest_cuda.h"

static void check_limits(const sc_device_limits &l)
{
    printf("      copy %.1f GB/s (%.3f ms for %llu bytes), %.4g ray tests/s (%llu tests in %.3f ms over %u threads, "
           "%.4f hit)\n",
           l.copy_gbs, l.copy_ms, (unsigned long long)l.copy_bytes, l.ray_tests_per_s, (unsigned long long)l.ray_tests,
           l.ray_ms, l.threads, l.ray_hit_fraction);
    SCT_CHECK_MSG(isfinite(l.copy_gbs) && l.copy_gbs > 10.0, "copy %g GB/s", l.copy_gbs);
    SCT_CHECK_MSG(isfinite(l.ray_tests_per_s) && l.ray_tests_per_s > 1e9, "%g tests/s", l.ray_tests_per_s);
    SCT_CHECK_EQ_U64(l.copy_bytes, (uint64_t)SC_LIMITS_COPY_MIB << 20);
    SCT_CHECK_EQ_U64(l.runs, SC_LIMITS_RUNS);
    int dev = 0, sms = 0;
    SCT_CUDA(cudaGetDevice(&dev));
    SCT_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    SCT_CHECK_EQ_U64(l.threads, (uint64_t)sms * SC_LIMITS_CUDA_BLOCKS_PER_SM * SC_LIMITS_CUDA_THREADS);
    SCT_CHECK(l.threads > 0 && l.ray_tests % l.threads == 0);
    SCT_CHECK_MSG(l.ray_ms > 0.2 * SC_LIMITS_CUDA_RATE_MS && l.ray_ms < 20.0 * SC_LIMITS_CUDA_RATE_MS,
                  "a run of tests took %g ms", l.ray_ms);
    SCT_CHECK_MSG(l.ray_hit_fraction > 0.08 && l.ray_hit_fraction < 0.17, "hit fraction %g", l.ray_hit_fraction);
    SCT_CHECK(fabs(l.copy_gbs - 2.0 * (double)l.copy_bytes / (l.copy_ms * 1e6)) <= 1e-9 * l.copy_gbs);
    SCT_CHECK(fabs(l.ray_tests_per_s - (double)l.ray_tests / (l.ray_ms * 1e-3)) <= 1e-9 * l.ray_tests_per_s);
}

static void test_limits_cuda(void)
{
    size_t free0 = 0, free1 = 0, total = 0;
    SCT_CUDA_REQUIRE(cudaFree(0)); /* the context first, so its memory is not counted below */
    SCT_CUDA_REQUIRE(cudaMemGetInfo(&free0, &total));
    sc_device_limits l;
    SCT_REQUIRE_OK(sc_backend_measure_limits(SC_BACKEND_CUDA, 0, &l));
    check_limits(l);
    SCT_CUDA_REQUIRE(cudaMemGetInfo(&free1, &total));
    /* Its two 256 MiB buffers and the hit counts are freed (a little slack for the driver's own). */
    SCT_CHECK_MSG(free1 + ((size_t)16 << 20) >= free0, "free device memory %zu before, %zu after", free0, free1);
    SCT_CUDA(cudaGetLastError());
}

static void test_default_is_the_gpu(void)
{
    sc_backend_info info;
    SCT_REQUIRE_OK(sc_backend_get_info(SC_BACKEND_DEFAULT, &info));
    SCT_REQUIRE(info.backend == SC_BACKEND_CUDA);
    sc_device_limits l;
    SCT_REQUIRE_OK(sc_backend_measure_limits(SC_BACKEND_DEFAULT, 3, &l)); /* threads: the host's, unused */
    SCT_CHECK(l.threads > 3 && l.copy_gbs > 0.0 && l.ray_tests_per_s > 0.0);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_limits_gpu");
    sct_require_cuda();
    SCT_RUN(test_limits_cuda);
    SCT_RUN(test_default_is_the_gpu);
    return sct_end();
}
