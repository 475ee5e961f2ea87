/* sctest_png.h - stb_image's PNG reader for tests that read back the images the programs write
 * (stbi_load, stbi_image_free). It holds the implementation: include it in one file of a test
 * program only. stb_image's own warnings are silenced here, not in the tests. */
#ifndef SCTEST_PNG_H
#define SCTEST_PNG_H

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-compare"
#endif
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#endif /* SCTEST_PNG_H */
