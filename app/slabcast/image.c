/* image.c - RGBA8 images in host or device memory; PNG, JPEG, BMP or TGA output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "image_file.h"

/* Device images only where the CUDA backend is built (SLABCAST_WITH_CUDA): without it every image is host memory. */
#if SLABCAST_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h> /* a SYSTEM include path (slabcast_stb): no warnings from stb */

int app_image_alloc(app_image *img, sc_backend backend, unsigned width, unsigned height)
{
    size_t bytes = (size_t)width * height * 4;
    img->width = width;
    img->height = height;
    sc_backend_info info; /* where the backend wants the caller's buffers */
    img->on_device = sc_backend_get_info(backend, &info) == SC_OK && info.buffer_memory == SC_MEMORY_DEVICE;
    img->pixels = NULL;
    if (img->on_device) {
#if SLABCAST_WITH_CUDA
        cudaError_t e = cudaMalloc(&img->pixels, bytes);
        if (e != cudaSuccess) {
            fprintf(stderr, "slabcast: cudaMalloc of a %ux%u image failed: %s\n", width, height, cudaGetErrorString(e));
            img->pixels = NULL;
            return -1;
        }
        return 0;
#else
        fprintf(stderr, "slabcast: this build has no CUDA backend\n");
        return -1;
#endif
    }
    img->pixels = malloc(bytes);
    if (!img->pixels) {
        fprintf(stderr, "slabcast: out of memory for a %ux%u image\n", width, height);
        return -1;
    }
    return 0;
}

void app_image_free(app_image *img)
{
    if (!img->pixels) return;
#if SLABCAST_WITH_CUDA
    if (img->on_device) cudaFree(img->pixels);
    else
#endif
        free(img->pixels);
    img->pixels = NULL;
}

int app_image_to_host(const app_image *img, void *host)
{
    size_t bytes = (size_t)img->width * img->height * 4;
    if (!img->on_device) {
        memcpy(host, img->pixels, bytes);
        return 0;
    }
#if SLABCAST_WITH_CUDA
    cudaError_t e = cudaMemcpy(host, img->pixels, bytes, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        fprintf(stderr, "slabcast: cudaMemcpy of the image to the host failed: %s\n", cudaGetErrorString(e));
        return -1;
    }
    return 0;
#else
    fprintf(stderr, "slabcast: this build has no CUDA backend\n");
    return -1;
#endif
}

int app_write_image(const char *path, app_image_format format, const void *rgba, unsigned width, unsigned height)
{
    stbi_flip_vertically_on_write(1); /* row 0 is the bottom row */
    int w = (int)width, h = (int)height, ok = 0;
    /* Through a checked file (image_file.h): stb's own file writers ignore failed writes. */
    app_image_file file;
    if (app_image_file_open(&file, path) != 0) {
        fprintf(stderr, "slabcast: %s: writing the image failed: %s\n", path, strerror(errno));
        return -1;
    }
    switch (format) {
    case APP_IMAGE_PNG: ok = stbi_write_png_to_func(app_image_file_write, &file, w, h, 4, rgba, w * 4); break;
    case APP_IMAGE_JPG: ok = stbi_write_jpg_to_func(app_image_file_write, &file, w, h, 4, rgba, 92); break;
    case APP_IMAGE_BMP: ok = stbi_write_bmp_to_func(app_image_file_write, &file, w, h, 4, rgba); break;
    case APP_IMAGE_TGA: ok = stbi_write_tga_to_func(app_image_file_write, &file, w, h, 4, rgba); break;
    default: break;
    }
    if (app_image_file_close(&file, ok) != 0) {
        fprintf(stderr, "slabcast: %s: writing the image failed: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int app_record_path(const char *dir, long n, char *path, size_t size)
{
    int len = snprintf(path, size, "%s/frame-%06ld.png", dir, n);
    if (len > 0 && (size_t)len < size) return 0;
    fprintf(stderr, "slabcast: --record %s: the path is too long\n", dir);
    return -1;
}

int app_check_record_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        fprintf(stderr, "slabcast: --record %s: %s (create the folder first)\n", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "slabcast: --record %s: not a folder\n", dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "slabcast: --record %s: cannot write in it: %s\n", dir, strerror(errno));
        return -1;
    }
    return 0;
}
