/* mesh_source.c - the loaders' byte sources: memory or an open stream, decompressed through
 * mesh_xz.c when the name says .xz. */
#include <errno.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

void sc_mesh_source_memory(sc_mesh_source *s, const char *name, const void *data, size_t size)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->data = data;
    s->size = size;
}

void sc_mesh_source_stream(sc_mesh_source *s, const char *name, FILE *file)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->file = file;
}

sc_status sc_mesh_source_read_raw(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got)
{
    *got = 0;
    if (s->data || !s->file) {
        size_t n = s->size - s->pos < cap ? s->size - s->pos : cap;
        if (n) memcpy(buf, s->data + s->pos, n);
        s->pos += n;
        s->raw_read += n;
        *got = n;
        return SC_OK;
    }
    errno = 0;
    size_t n = fread(buf, 1, cap, s->file);
    s->raw_read += n;
    *got = n;
    if (n == 0 && ferror(s->file)) {
        int e = errno;
        if (e == EISDIR) return SC_FAIL(SC_ERROR_IO, "%s: is a directory", s->name);
        return SC_FAIL(SC_ERROR_IO, "%s: read error after %llu bytes: %s", s->name, (unsigned long long)s->raw_read,
                       e ? strerror(e) : "unknown error");
    }
    return SC_OK;
}

sc_status sc_mesh_source_read(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got)
{
    if (s->xz) return sc_mesh_xz_read(s, buf, cap, got);
    return sc_mesh_source_read_raw(s, buf, cap, got);
}

void sc_mesh_source_end(sc_mesh_source *s)
{
    if (s->xz) sc_mesh_xz_free(s->xz);
    s->xz = NULL;
}
