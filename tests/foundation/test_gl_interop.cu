/* test_gl_interop.cu - CUDA writes into OpenGL objects through cudaGraphicsGLRegister*: a kernel fills
 * a GL pixel-unpack buffer that GL reads back, and the buffer is uploaded into a texture through GL and
 * read back, values checked exactly (gl, gpu: needs an NVIDIA EGL device). */
#include <glad/gl.h>
#include <cuda_gl_interop.h>
#include <stdlib.h>

#include "sc_gl.h"
#include "sctest.h"
#include "sctest_gl.h"
#include "sctest_cuda.h"

__device__ unsigned pattern(unsigned i) { return i * 2654435761u ^ 0x9e3779b9u; }

__global__ void fill_pattern(unsigned *out, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = pattern(i);
}

static unsigned pattern_host(unsigned i) { return i * 2654435761u ^ 0x9e3779b9u; }

static void test_kernel_writes_gl_buffer(void)
{
    const int w = 1024, h = 777; /* not a multiple of anything convenient */
    const unsigned n = (unsigned)(w * h);
    GLuint buf = 0, tex = 0, fbo = 0;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buf);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, (GLsizeiptr)n * 4, NULL, GL_DYNAMIC_DRAW);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    SCT_REQUIRE(sc_gl_check("glBufferData", __FILE__, __LINE__) == SC_OK);

    cudaGraphicsResource_t res = NULL;
    SCT_CUDA_REQUIRE(cudaGraphicsGLRegisterBuffer(&res, buf, cudaGraphicsRegisterFlagsWriteDiscard));
    for (int frame = 0; frame < 3; ++frame) { /* map/unmap repeatedly, as a frame loop does */
        unsigned *ptr = NULL;
        size_t size = 0;
        SCT_CUDA_REQUIRE(cudaGraphicsMapResources(1, &res, 0));
        SCT_CUDA_REQUIRE(cudaGraphicsResourceGetMappedPointer((void **)&ptr, &size, res));
        SCT_CHECK_EQ_U64(size, (size_t)n * 4);
        fill_pattern<<<(n + 255) / 256, 256>>>(ptr, n);
        SCT_CUDA(cudaGetLastError());
        SCT_CUDA_REQUIRE(cudaGraphicsUnmapResources(1, &res, 0));
    }

    unsigned *back = (unsigned *)malloc((size_t)n * 4);
    SCT_REQUIRE(back);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buf);
    glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, (GLsizeiptr)n * 4, back);
    SCT_CHECK(sc_gl_check("glGetBufferSubData", __FILE__, __LINE__) == SC_OK);
    unsigned bad = 0;
    for (unsigned i = 0; i < n; ++i) bad += back[i] != pattern_host(i);
    SCT_CHECK_MSG(bad == 0, "buffer: %u of %u words wrong", bad, n);

    /* The display path: unpack buffer -> RGBA8 texture -> framebuffer read-back. */
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w, h);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, (const void *)0);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    SCT_REQUIRE(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE);
    for (unsigned i = 0; i < n; ++i) back[i] = 0;
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, back);
    SCT_CHECK(sc_gl_check("texture upload and read-back", __FILE__, __LINE__) == SC_OK);
    bad = 0;
    for (unsigned i = 0; i < n; ++i) bad += back[i] != pattern_host(i);
    SCT_CHECK_MSG(bad == 0, "texture: %u of %u texels wrong", bad, n);

    SCT_CUDA(cudaGraphicsUnregisterResource(res));
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &tex);
    glDeleteBuffers(1, &buf);
    free(back);
}

int main(int argc, char **argv)
{
    sct_begin(argc, argv, "gl_interop");
    sct_require_cuda();
    sc_gl_context *ctx = sct_require_gl(1);
    SCT_RUN(test_kernel_writes_gl_buffer);
    sc_gl_context_destroy(ctx);
    return sct_end();
}
