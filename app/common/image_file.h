/* image_file.h - an image file that stb_image_write's *_to_func encoders write into, every write and
 * the close checked. stbi_write_png and its kin ignore fwrite's result and never check fclose, so a
 * full disk or a failing device gave a truncated image and success; through this file the failure
 * comes back with its errno. */
#ifndef APP_IMAGE_FILE_H
#define APP_IMAGE_FILE_H

#include <stdio.h>

typedef struct app_image_file {
    FILE *f;
    int error;                   /* errno of the first failed write (EIO when it set none); 0: none */
} app_image_file;

/* Opens path for writing ("wb"). 0, or -1 with errno set. */
int app_image_file_open(app_image_file *file, const char *path);
/* stbi_write_func: appends size bytes; after a failed write, the later ones are skipped. */
void app_image_file_write(void *context, void *data, int size);
/* Closes the file: 0 when every write and the close succeeded, else -1 with errno that of the first
 * failure. encoded: the encoder's own result (nonzero: it produced the whole image); 0 fails too,
 * with errno ENOMEM unless a write failed first (stb fails only for want of memory). */
int app_image_file_close(app_image_file *file, int encoded);

#endif /* APP_IMAGE_FILE_H */
