/* mesh_reader.c - a window over a byte source for the parsers: refills in chunks, holds only the
 * unconsumed part (at most a line or a token longer than a chunk), and enforces the byte limit as
 * the data comes in, so a file that never ends (a link to /dev/zero, an xz bomb) stops at the limit
 * instead of growing memory. */
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"


sc_status sc_mesh_fail_byte_limit(const char *name, uint64_t max_bytes)
{
    return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                   "%s: more than %llu bytes of data (after decompression), the loading limit "
                   "(raise it with --max-mesh-bytes or sc_mesh_limits.max_bytes)",
                   name, (unsigned long long)max_bytes);
}

sc_status sc_rd_init(sc_mesh_reader *r, sc_mesh_source *src, uint64_t max_bytes, uint64_t size_hint)
{
    memset(r, 0, sizeof *r);
    r->src = src;
    r->name = src->name;
    r->max_bytes = max_bytes;
    r->size_hint = size_hint;
    r->line = r->next_line = 1;
    r->buf = malloc(SC_RD_CHUNK + 1);
    if (!r->buf) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the read buffer", r->name);
    r->cap = SC_RD_CHUNK;
    r->buf[0] = 0;
    return SC_OK;
}

void sc_rd_free(sc_mesh_reader *r)
{
    free(r->buf);
    r->buf = NULL;
    r->cap = r->pos = r->len = 0;
}

/* Room for want unconsumed bytes plus a chunk: moves them to the front and grows the buffer. */
static sc_status make_room(sc_mesh_reader *r, size_t want)
{
    if (r->pos) {
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->base += r->pos;
        r->len -= r->pos;
        r->pos = 0;
        r->buf[r->len] = 0;
    }
    if (want > SIZE_MAX / 2 - SC_RD_CHUNK)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: a read of %zu bytes is too large", r->name, want);
    if (r->cap - r->len >= SC_RD_CHUNK / 4 && r->cap >= want) return SC_OK;
    size_t cap = r->cap;
    while (cap < want + SC_RD_CHUNK) cap *= 2;
    char *p = realloc(r->buf, cap + 1);
    if (!p) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for a %zu-byte read buffer", r->name, cap);
    r->buf = p;
    r->cap = cap;
    return SC_OK;
}

sc_status sc_rd_fill(sc_mesh_reader *r, size_t want)
{
    if (r->len - r->pos >= want || r->eof) return SC_OK;
    SC_TRY(make_room(r, want));
    while (r->len - r->pos < want && !r->eof) {
        uint64_t total = r->base + r->len;
        if (total > r->max_bytes) return sc_mesh_fail_byte_limit(r->name, r->max_bytes);
        size_t room = r->cap - r->len;
        /* One byte past the limit is enough to know it is exceeded (a limit of UINT64_MAX has no byte
         * past it: the sum would wrap to a read of 0 bytes, the end of the data). */
        uint64_t allowed = r->max_bytes - total;
        if (allowed < UINT64_MAX) ++allowed;
        if (room > allowed) room = (size_t)allowed;
        size_t got = 0;
        SC_TRY(sc_mesh_source_read(r->src, (unsigned char *)r->buf + r->len, room, &got));
        r->len += got;
        r->buf[r->len] = 0;
        if (got == 0) r->eof = 1;
    }
    if (r->base + r->len > r->max_bytes) return sc_mesh_fail_byte_limit(r->name, r->max_bytes);
    return SC_OK;
}

sc_status sc_rd_skip_bom(sc_mesh_reader *r)
{
    SC_TRY(sc_rd_fill(r, 3));
    if (sc_rd_offset(r) == 0 && sc_rd_avail(r) >= 3 && memcmp(sc_rd_peek(r), "\xEF\xBB\xBF", 3) == 0)
        sc_rd_consume(r, 3);
    return SC_OK;
}

sc_status sc_rd_line(sc_mesh_reader *r, size_t max_len, const char **line, size_t *len, int *got)
{
    size_t scanned = 0;
    *got = 0;
    for (;;) {
        /* buf[len] == 0, so the scan stops at the end of the window at the latest. */
        const char *p = r->buf + r->pos;
        size_t n = scanned + strcspn(p + scanned, "\n");
        if (r->pos + n < r->len) {
            /* A '\n' (not part of the line) or a NUL inside the data (kept in it). */
            int newline = p[n] == '\n';
            *line = p;
            *len = newline ? n : n + 1;
            r->pos += n + 1;
            r->line = r->next_line;
            r->next_line += newline;
            *got = 1;
            return SC_OK;
        }
        if (n > max_len)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a line longer than %zu bytes", r->name,
                           (unsigned long long)r->next_line, max_len);
        if (r->eof) {
            if (n == 0) return SC_OK;
            *line = p;
            *len = n;
            r->pos += n;
            r->line = r->next_line;
            *got = 1;
            return SC_OK;
        }
        scanned = n;
        SC_TRY(sc_rd_fill(r, n + 1));
    }
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

sc_status sc_rd_token(sc_mesh_reader *r, size_t max_len, const char **tok, size_t *len, int *got)
{
    *got = 0;
    /* White space, counting lines. */
    for (;;) {
        while (r->pos < r->len && is_space(r->buf[r->pos])) r->next_line += r->buf[r->pos++] == '\n';
        if (r->pos < r->len) break;
        if (r->eof) return SC_OK;
        SC_TRY(sc_rd_fill(r, 1));
    }
    size_t n = 0;
    for (;;) {
        const char *p = r->buf + r->pos;
        size_t avail = r->len - r->pos;
        while (n < avail && !is_space(p[n])) ++n;
        if (n < avail || r->eof) break;
        if (n > max_len)
            return SC_FAIL(SC_ERROR_PARSE, "%s:%llu: a token longer than %zu bytes", r->name,
                           (unsigned long long)r->next_line, max_len);
        SC_TRY(sc_rd_fill(r, n + 1));
    }
    *tok = r->buf + r->pos;
    *len = n;
    r->pos += n;
    r->line = r->next_line;
    *got = 1;
    return SC_OK;
}
