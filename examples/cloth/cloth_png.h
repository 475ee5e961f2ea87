/* cloth_png.h - a minimal PNG writer: 8-bit RGBA, no filtering, stored (uncompressed) deflate blocks; plain C,
 * no library. */
#ifndef CLOTH_PNG_H
#define CLOTH_PNG_H

#include <stdint.h>

/* Writes w x h RGBA8 pixels whose row 0 is the bottom (slabcast's layout); 1 on success (else errno
 * says why). */
int cloth_write_png(const char *path, const uint8_t *rgba, uint32_t w, uint32_t h);

#endif /* CLOTH_PNG_H */
