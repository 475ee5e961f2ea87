/* render_png.c - slabcast in a program of your own, against the installed package: one mesh (a file,
 * or the built-in torus knot), one 512x512 frame on whatever backend this machine has (the GPU when
 * the package was built with CUDA and a device is present, else the CPU), written to a PNG.
 *
 * It shows: loading a mesh (sc_mesh.h); creating a renderer on SC_BACKEND_DEFAULT and asking
 * sc_backend_get_info which backend runs and where its buffers live (host or device memory); a camera
 * that frames the mesh; one frame and its stats; checking every status (sc_last_error() says why a
 * call failed) and taking the library's warnings through a log callback. The PNG writer at the end is
 * plain C: a zlib stream of stored (uncompressed) blocks.
 *
 *   render_png OUT.png [MESH]      MESH: .obj, .ply or .stl (or .xz of one); none: the built-in mesh
 */
#include <slabcast.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if RENDER_PNG_CUDA /* set by CMakeLists.txt when the package was built with CUDA */
#include <cuda_runtime_api.h>
#endif

enum { WIDTH = 512, HEIGHT = 512 };

static int write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h);

/* A failed slabcast call: the library's message for it. */
#define CHECK(call)                                                                                  \
    do {                                                                                             \
        if ((call) != SC_OK) {                                                                       \
            fprintf(stderr, "render_png: %s failed: %s\n", #call, sc_last_error());                  \
            goto done;                                                                               \
        }                                                                                            \
    } while (0)

/* The library's log: warnings (such as faces dropped from a mesh file) as they come. Errors come back
 * as statuses and the program prints sc_last_error() itself; without a callback of its own, the
 * default one would print them to stderr as well. */
static void log_warnings(sc_log_level level, const char *message, void *user)
{
    (void)user;
    if (level == SC_LOG_WARNING) fprintf(stderr, "render_png: warning: %s\n", message);
}

/* The slabcast program's framing: the sphere around the mesh's bounding box fills a 45-degree view,
 * seen from a little right of and above the +z side. (With no camera set, the renderer frames the
 * mesh head-on from +z.) */
static sc_camera_desc frame_mesh(const sc_mesh *m)
{
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i < (size_t)m->vertex_count * 3; ++i) {
        lo[i % 3] = fminf(lo[i % 3], m->positions[i]);
        hi[i % 3] = fmaxf(hi[i % 3], m->positions[i]);
    }
    sc_camera_desc cam = {0}; /* up (0, 0, 0): +y */
    float radius = 0.0f;
    for (int k = 0; k < 3; ++k) {
        cam.target[k] = 0.5f * (lo[k] + hi[k]);
        radius += 0.25f * (hi[k] - lo[k]) * (hi[k] - lo[k]);
    }
    radius = sqrtf(radius);
    const float fovy = 0.7853982f, yaw = 0.6f, pitch = 0.35f; /* radians */
    const float distance = radius / sinf(0.5f * fovy);
    const float dir[3] = {cosf(pitch) * sinf(yaw), sinf(pitch), cosf(pitch) * cosf(yaw)};
    for (int k = 0; k < 3; ++k) cam.eye[k] = cam.target[k] + distance * dir[k];
    cam.fovy = fovy;
    cam.near_plane = 0.01f * radius;
    cam.far_plane = distance + 2.0f * radius;
    return cam;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: render_png OUT.png [MESH]   (MESH: .obj, .ply, .stl; none: the built-in mesh)\n");
        return 1;
    }
    const char *png_path = argv[1], *mesh_path = argc > 2 ? argv[2] : NULL;
    const size_t bytes = (size_t)WIDTH * HEIGHT * 4;
    int rc = 1;
    sc_mesh mesh = {0};
    sc_renderer *r = NULL;
    sc_backend_info info = {0};
    void *image = NULL;   /* where the renderer writes: host or device memory, as info.buffer_memory says */
    uint8_t *host = NULL; /* the image in host memory, for the PNG */
    sc_set_log_callback(log_warnings, NULL, SC_LOG_WARNING);

    /* The mesh: a file (its format from the extension), or the built-in torus knot (resolution 0:
     * 1M triangles, as the slabcast program shows it). */
    if (mesh_path)
        CHECK(sc_mesh_load_file(mesh_path, NULL, &mesh, NULL));
    else
        CHECK(sc_mesh_default(0, &mesh));

    /* A renderer on the default backend, and what that backend is. Zero fields are defaults. */
    sc_renderer_desc rd = {0};
    rd.backend = SC_BACKEND_DEFAULT; /* CUDA when built and a GPU is present, else the CPU */
    rd.width = WIDTH;
    rd.height = HEIGHT;
    CHECK(sc_renderer_create(&rd, &r));
    CHECK(sc_backend_get_info(sc_renderer_backend(r), &info));
    printf("render_png: backend %s: %s\n", info.name, info.device);
    for (int b = SC_BACKEND_DEFAULT + 1; b < SC_BACKEND_COUNT; ++b) { /* the others: why not them */
        sc_backend_info other;
        CHECK(sc_backend_get_info((sc_backend)b, &other));
        if (!other.available) printf("render_png: (backend %s: %s)\n", other.name, other.unavailable_reason);
    }

    sc_mesh_data view = sc_mesh_view(&mesh); /* the renderer copies the mesh */
    sc_camera_desc cam = frame_mesh(&mesh);
    CHECK(sc_renderer_set_mesh(r, &view));
    CHECK(sc_renderer_set_camera(r, &cam));

    /* The image buffer lives where the backend computes. */
    host = malloc(bytes);
    if (info.buffer_memory == SC_MEMORY_HOST) {
        image = host;
    } else {
#if RENDER_PNG_CUDA
        if (cudaMalloc(&image, bytes) != cudaSuccess) image = NULL;
#else
        fprintf(stderr, "render_png: the backend needs device memory: build against a package with CUDA\n");
        goto done;
#endif
    }
    if (!host || !image) {
        fprintf(stderr, "render_png: no memory for a %dx%d image\n", WIDTH, HEIGHT);
        goto done;
    }

    /* One frame at time 0 (no deformation is set), shaded with the default light. */
    sc_frame_desc frame = {0};
    frame.rgba = image;
    CHECK(sc_renderer_render(r, &frame));
    sc_frame_stats stats;
    CHECK(sc_renderer_stats(r, &stats)); /* on the GPU, this waits for the frame */
#if RENDER_PNG_CUDA
    if (image != host && cudaMemcpy(host, image, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) {
        fprintf(stderr, "render_png: copying the image from the GPU failed\n");
        goto done;
    }
#endif
    printf("render_png: %u triangles, %llu of %d pixels hit, frame %.2f ms\n", mesh.triangle_count,
           (unsigned long long)stats.hit_pixels, WIDTH * HEIGHT, stats.frame_ms);

    if (!write_png(png_path, host, WIDTH, HEIGHT)) {
        fprintf(stderr, "render_png: cannot write %s: %s\n", png_path, strerror(errno));
        goto done;
    }
    printf("render_png: wrote %s\n", png_path);
    rc = 0;

done:
#if RENDER_PNG_CUDA
    if (image && image != host) cudaFree(image);
#endif
    free(host);
    sc_renderer_destroy(r);
    sc_mesh_free(&mesh);
    return rc;
}

/* ---- A minimal PNG writer: 8-bit RGBA, no filtering, stored deflate blocks ---------------------- */

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
{
    crc = ~crc;
    while (n--) {
        crc ^= *p++;
        for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

static void put_u32(uint8_t *p, uint32_t v) /* big-endian, as PNG stores numbers */
{
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* A chunk: its data's length, its type, the data, the CRC of type and data. */
static int write_chunk(FILE *f, const char *type, const uint8_t *data, size_t n)
{
    uint8_t len[4], crc[4];
    put_u32(len, (uint32_t)n);
    put_u32(crc, crc32_update(crc32_update(0, (const uint8_t *)type, 4), data, n));
    return fwrite(len, 1, 4, f) == 4 && fwrite(type, 1, 4, f) == 4 && fwrite(data, 1, n, f) == n &&
           fwrite(crc, 1, 4, f) == 4;
}

/* Writes w x h RGBA8 pixels whose row 0 is the bottom (slabcast's layout); 1 on success. */
static int write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h)
{
    const size_t row = 1 + (size_t)w * 4, raw_size = row * h; /* each row: filter byte 0, pixels */
    const size_t blocks = (raw_size + 65534) / 65535;         /* a stored block holds <= 65535 bytes */
    const size_t zlib_size = 2 + raw_size + 5 * blocks + 4;
    uint8_t *raw = malloc(raw_size), *zlib = malloc(zlib_size), *q = zlib;
    int ok = 0;
    if (!raw || !zlib) goto out;
    for (uint32_t y = 0; y < h; ++y) { /* PNG rows run top down */
        raw[y * row] = 0;
        memcpy(raw + y * row + 1, rgba + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4);
    }
    *q++ = 0x78, *q++ = 0x01; /* zlib header: deflate, 32 KiB window */
    for (size_t done = 0; done < raw_size;) {
        const size_t n = raw_size - done < 65535 ? raw_size - done : 65535;
        *q++ = done + n == raw_size; /* BFINAL on the last block; BTYPE 00: stored */
        *q++ = (uint8_t)n, *q++ = (uint8_t)(n >> 8), *q++ = (uint8_t)~n, *q++ = (uint8_t)(~n >> 8);
        memcpy(q, raw + done, n);
        q += n, done += n;
    }
    uint32_t a = 1, b = 0; /* Adler-32 of the uncompressed data closes the zlib stream */
    for (size_t i = 0; i < raw_size; ++i) a = (a + raw[i]) % 65521u, b = (b + a) % 65521u;
    put_u32(q, b << 16 | a);

    uint8_t ihdr[13] = {0}; /* width, height, bit depth 8, colour type 6 (RGBA), deflate, no interlace */
    put_u32(ihdr, w), put_u32(ihdr + 4, h), ihdr[8] = 8, ihdr[9] = 6;
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    FILE *f = fopen(path, "wb");
    if (!f) goto out;
    ok = fwrite(signature, 1, 8, f) == 8 && write_chunk(f, "IHDR", ihdr, sizeof ihdr) &&
         write_chunk(f, "IDAT", zlib, zlib_size) && write_chunk(f, "IEND", ihdr, 0);
    ok = fclose(f) == 0 && ok;
out:
    free(raw);
    free(zlib);
    return ok;
}
