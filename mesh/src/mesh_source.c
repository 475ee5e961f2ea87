/* mesh_source.c - the loaders' byte sources: memory or an open stream, decompressed through
 * mesh_xz.c when the name says .xz; the raw bytes read are counted here for progress calls, so
 * every format (and the xz decoder, which reads through sc_mesh_source_read_raw) reports alike. */
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

void sc_mesh_source_watch(sc_mesh_source *s, sc_mesh_progress_fn fn, void *user, uint64_t total)
{
    s->progress = fn;
    s->progress_user = user;
    s->progress_total = total;
    s->progress_next = SC_MESH_PROGRESS_STEP;
}

/* One progress call with done bytes (clamped to a known total: a file that grew while read still
 * reports at most its size); nonzero from the callback cancels the load. */
static sc_status call_progress(sc_mesh_source *s, uint64_t done)
{
    if (s->progress_total && done > s->progress_total) done = s->progress_total;
    if (s->progress(s->progress_user, done, s->progress_total) != 0)
        return SC_FAIL(SC_ERROR_CANCELLED, "%s: loading cancelled", s->name);
    return SC_OK;
}

/* After each raw read: a call once another SC_MESH_PROGRESS_STEP bytes are in (one compare per
 * read of up to a MiB, nothing per byte). */
static sc_status count_raw(sc_mesh_source *s, size_t n)
{
    s->raw_read += n;
    if (!s->progress || s->raw_read < s->progress_next) return SC_OK;
    s->progress_next = s->raw_read - s->raw_read % SC_MESH_PROGRESS_STEP + SC_MESH_PROGRESS_STEP;
    return call_progress(s, s->raw_read);
}

sc_status sc_mesh_source_progress_end(sc_mesh_source *s)
{
    if (!s->progress) return SC_OK;
    return call_progress(s, s->progress_total ? s->progress_total : s->raw_read);
}

sc_status sc_mesh_source_read_raw(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got)
{
    *got = 0;
    if (s->data || !s->file) {
        size_t n = s->size - s->pos < cap ? s->size - s->pos : cap;
        if (n) memcpy(buf, s->data + s->pos, n);
        s->pos += n;
        *got = n;
        return count_raw(s, n);
    }
    errno = 0;
    size_t n = fread(buf, 1, cap, s->file);
    *got = n;
    if (n == 0 && ferror(s->file)) {
        int e = errno;
        if (e == EISDIR) return SC_FAIL(SC_ERROR_IO, "%s: is a directory", s->name);
        return SC_FAIL(SC_ERROR_IO, "%s: read error after %llu bytes: %s", s->name, (unsigned long long)s->raw_read,
                       e ? strerror(e) : "unknown error");
    }
    return count_raw(s, n);
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
