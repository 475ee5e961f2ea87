/* test_render_nccl_gpu.cu - sort-last through NCCL (sc_nccl.h; gpu, built with SLABCAST_NCCL): one
 * process drives one rank per device (ncclCommInitAll over up to 4 devices; one rank on a machine
 * with one GPU, where the collectives still run), each rank a renderer with a halo share, the two
 * phases bracketed by ncclGroupStart / ncclGroupEnd; the root's image and winners equal one renderer
 * of the whole mesh pixel for pixel (the image, and the keys against its hits). NVLink multicast is
 * not asked for (no cuMulticast call; NCCL_NVLS_ENABLE is left as the machine sets it). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "composite.h"
#include "nccl_loader.h"
#include "sc_nccl.h"
#include "sctest.h"
#include "sctest_cuda.h"

enum { MAX_RANKS = 4 };

typedef struct rank_state {
    int device;
    sc_renderer *r;
    sc_mesh_share share;
    cudaStream_t stream;
    uint64_t *keys;
    uint32_t *image;
} rank_state;

static const sc_nccl_fns *nccl; /* NCCL's entry points, loaded by the test (nccl_loader.h) */

#define NCCL_REQUIRE(call)                                                                                   \
    do {                                                                                                     \
        ncclResult_t res_ = nccl->call;                                                                      \
        if (res_ != ncclSuccess) {                                                                           \
            sct_fail(__FILE__, __LINE__, "nccl %s failed: %s", #call, nccl->get_error_string(res_));         \
            return;                                                                                          \
        }                                                                                                    \
    } while (0)

static sc_renderer_desc desc_of(uint32_t w, uint32_t h, cudaStream_t s)
{
    sc_renderer_desc d;
    memset(&d, 0, sizeof d);
    d.backend = SC_BACKEND_CUDA;
    d.width = w;
    d.height = h;
    d.stream = s;
    return d;
}

static void check_ranks(const sc_mesh_data *m, uint32_t w, uint32_t h, int ranks)
{
    const size_t n = (size_t)w * h;
    int devs[MAX_RANKS] = {0, 1, 2, 3};
    ncclComm_t comms[MAX_RANKS];
    NCCL_REQUIRE(comm_init_all(comms, ranks, devs));
    sc_deform_desc def;
    memset(&def, 0, sizeof def);
    def.twist.amount = 0.6f;
    rank_state rs[MAX_RANKS];
    memset(rs, 0, sizeof rs);
    for (int k = 0; k < ranks; ++k) {
        rs[k].device = k;
        SCT_CUDA(cudaSetDevice(k));
        SCT_CUDA(cudaStreamCreateWithFlags(&rs[k].stream, cudaStreamNonBlocking));
        const sc_renderer_desc d = desc_of(w, h, rs[k].stream);
        SCT_REQUIRE_OK(sc_renderer_create(&d, &rs[k].r));
        SCT_REQUIRE_OK(sc_mesh_share_make_halo(m, (uint32_t)ranks, (uint32_t)k, &rs[k].share));
        SCT_CHECK_OK(sc_renderer_set_mesh_share(rs[k].r, &rs[k].share.mesh, &rs[k].share.share));
        SCT_CHECK_OK(sc_renderer_set_deform(rs[k].r, &def));
        SCT_CUDA(cudaMalloc((void **)&rs[k].keys, n * sizeof(uint64_t)));
        SCT_CUDA(cudaMalloc((void **)&rs[k].image, n * sizeof(uint32_t)));
    }
    SCT_CUDA(cudaSetDevice(0));
    const sc_renderer_desc wd = desc_of(w, h, NULL);
    sc_renderer *whole = NULL;
    SCT_REQUIRE_OK(sc_renderer_create(&wd, &whole));
    SCT_CHECK_OK(sc_renderer_set_mesh(whole, m));
    SCT_CHECK_OK(sc_renderer_set_deform(whole, &def));
    uint8_t *d_want = NULL;
    SCT_CUDA(cudaMalloc((void **)&d_want, n * 4));
    uint32_t *want = (uint32_t *)malloc(n * 4), *got = (uint32_t *)malloc(n * 4);
    uint64_t *keys = (uint64_t *)malloc(n * 8);
    sc_hit *hits = (sc_hit *)malloc(n * sizeof(sc_hit));
    SCT_REQUIRE(want && got && keys && hits);
    for (int frame = 0; frame < 2; ++frame) {
        sc_frame_desc f;
        memset(&f, 0, sizeof f);
        f.time = 0.8f * (float)frame;
        f.rgba = d_want;
        SCT_CHECK_OK(sc_renderer_render(whole, &f));
        SCT_CHECK_OK(sc_renderer_read_hits(whole, hits));
        SCT_CUDA(cudaMemcpy(want, d_want, n * 4, cudaMemcpyDeviceToHost));
        f.rgba = NULL;
        for (int k = 0; k < ranks; ++k) {
            SCT_CUDA(cudaSetDevice(k));
            SCT_CHECK_OK(sc_renderer_render(rs[k].r, &f));
        }
        for (int phase = 0; phase < 2; ++phase) {
            NCCL_REQUIRE(group_start());
            for (int k = 0; k < ranks; ++k) {
                SCT_CUDA(cudaSetDevice(k));
                const sc_nccl_desc nd = {comms[k], k, ranks, 0};
                if (phase == 0) SCT_CHECK_OK(sc_nccl_composite_keys(rs[k].r, &nd, rs[k].keys));
                else SCT_CHECK_OK(sc_nccl_merge_image(rs[k].r, &nd, rs[k].keys, rs[k].image));
            }
            NCCL_REQUIRE(group_end());
        }
        for (int k = 0; k < ranks; ++k) {
            SCT_CUDA(cudaSetDevice(k));
            SCT_CUDA(cudaStreamSynchronize(rs[k].stream));
        }
        SCT_CUDA(cudaSetDevice(0));
        SCT_CUDA(cudaMemcpy(got, rs[0].image, n * 4, cudaMemcpyDeviceToHost));
        SCT_CUDA(cudaMemcpy(keys, rs[0].keys, n * 8, cudaMemcpyDeviceToHost));
        uint64_t wrong_px = 0, wrong_keys = 0, hit = 0;
        for (size_t i = 0; i < n; ++i) {
            hit += hits[i].tri != SC_NO_HIT;
            wrong_px += got[i] != want[i];
            wrong_keys += keys[i] != sc_hit_key(hits[i].tri, hits[i].depth);
        }
        SCT_CHECK_MSG(wrong_px == 0 && wrong_keys == 0 && hit > 0,
                      "%d ranks, %ux%u, frame %d: %llu wrong pixels, %llu wrong keys, %llu hit", ranks, w, h, frame,
                      (unsigned long long)wrong_px, (unsigned long long)wrong_keys, (unsigned long long)hit);
    }
    /* The one-call form on the root alone with rgba NULL: the keys only. */
    if (ranks == 1) {
        const sc_nccl_desc nd = {comms[0], 0, 1, 0};
        SCT_CHECK_OK(sc_renderer_composite_nccl(rs[0].r, &nd, rs[0].keys, rs[0].image, d_want, 0));
        const sc_nccl_desc bad = {comms[0], 1, 1, 0};
        SCT_CHECK(sc_renderer_composite_nccl(rs[0].r, &bad, rs[0].keys, rs[0].image, d_want, 0) ==
                  SC_ERROR_INVALID_ARGUMENT);
        SCT_CUDA(cudaStreamSynchronize(rs[0].stream));
    }
    for (int k = 0; k < ranks; ++k) {
        SCT_CUDA(cudaSetDevice(k));
        sc_renderer_destroy(rs[k].r);
        sc_mesh_share_free(&rs[k].share);
        cudaFree(rs[k].keys);
        cudaFree(rs[k].image);
        cudaStreamDestroy(rs[k].stream);
        nccl->comm_destroy(comms[k]);
    }
    SCT_CUDA(cudaSetDevice(0));
    sc_renderer_destroy(whole);
    cudaFree(d_want);
    free(want);
    free(got);
    free(keys);
    free(hits);
}

static void test_nccl_knot(void)
{
    if (sc_nccl_functions(&nccl) != SC_OK) { /* no NCCL on this machine: nothing of it to test */
        sct_skip(sc_last_error());
        return;
    }
    int count = 0;
    SCT_CUDA(cudaGetDeviceCount(&count));
    const int ranks = count < MAX_RANKS ? count : MAX_RANKS;
    sc_mesh m;
    SCT_REQUIRE(sc_mesh_default(37, &m) == SC_OK);
    const sc_mesh_data md = sc_mesh_view(&m);
    check_ranks(&md, 203, 151, 1);
    if (ranks > 1) check_ranks(&md, 203, 151, ranks);
    if (ranks > 2) check_ranks(&md, 97, 160, 2);
    sc_mesh_free(&m);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "render_nccl_gpu");
    sct_require_cuda();
    SCT_RUN(test_nccl_knot);
    return sct_end();
}
