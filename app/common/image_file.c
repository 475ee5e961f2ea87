/* image_file.c - a checked image file for stb_image_write's *_to_func encoders. */
#include "image_file.h"

#include <errno.h>

int app_image_file_open(app_image_file *file, const char *path)
{
    file->error = 0;
    file->f = fopen(path, "wb");
    return file->f ? 0 : -1;
}

void app_image_file_write(void *context, void *data, int size)
{
    app_image_file *file = context;
    if (file->error || size <= 0) return;
    errno = 0;
    if (fwrite(data, 1, (size_t)size, file->f) != (size_t)size) file->error = errno ? errno : EIO;
}

int app_image_file_close(app_image_file *file, int encoded)
{
    int error = file->error;
    errno = 0;
    /* fflush first: a buffered write that fails at the close is reported with its own errno. */
    if (fflush(file->f) != 0 && !error) error = errno ? errno : EIO;
    if (fclose(file->f) != 0 && !error) error = errno ? errno : EIO;
    file->f = NULL;
    if (!encoded && !error) error = ENOMEM;
    if (!error) return 0;
    errno = error;
    return -1;
}
