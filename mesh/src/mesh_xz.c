/* mesh_xz.c - .xz decompression in-process with liblzma (xz-utils' library), in a stream: the data
 * is decompressed as the parser asks for it, so memory does not grow with the file. Errors use xz's
 * own wording and name the file. */
#include <lzma.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "sc_report.h"

struct sc_mesh_xz {
    lzma_stream strm;
    int in_eof;
    int done;
    unsigned char in[SC_XZ_IN];
};

/* xz's message for a decoder status (xz-utils, src/xz/message.c). */
static const char *xz_message(lzma_ret ret)
{
    switch (ret) {
    case LZMA_MEM_ERROR: return "Cannot allocate memory";
    case LZMA_MEMLIMIT_ERROR: return "Memory usage limit reached";
    case LZMA_FORMAT_ERROR: return "File format not recognized";
    case LZMA_OPTIONS_ERROR: return "Unsupported options";
    case LZMA_DATA_ERROR: return "Compressed data is corrupt";
    case LZMA_BUF_ERROR: return "Unexpected end of input";
    default: return "Internal error (bug)";
    }
}

sc_status sc_mesh_source_begin_xz(sc_mesh_source *s, uint64_t max_ratio)
{
    s->max_xz_ratio = max_ratio;
    sc_mesh_xz *xz = malloc(sizeof *xz);
    if (!xz) return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: out of host memory for the xz decoder", s->name);
    memset(xz, 0, sizeof *xz);
    const lzma_stream init = LZMA_STREAM_INIT;
    xz->strm = init;
    lzma_ret ret = lzma_stream_decoder(&xz->strm, SC_XZ_MEMLIMIT, LZMA_CONCATENATED);
    if (ret != LZMA_OK) {
        free(xz);
        return SC_FAIL(ret == LZMA_MEM_ERROR ? SC_ERROR_OUT_OF_MEMORY : SC_ERROR_IO, "%s: xz: %s", s->name,
                       xz_message(ret));
    }
    s->xz = xz;
    return SC_OK;
}

static sc_status xz_fail(const sc_mesh_source *s, lzma_ret ret)
{
    const sc_mesh_xz *xz = s->xz;
    unsigned long long at = (unsigned long long)(s->raw_read - xz->strm.avail_in);
    if (ret == LZMA_MEMLIMIT_ERROR)
        return SC_FAIL(SC_ERROR_IO, "%s: xz: %s: decompressing it needs %llu MiB, more than the %llu MiB allowed",
                       s->name, xz_message(ret), (unsigned long long)(lzma_memusage(&xz->strm) >> 20),
                       (unsigned long long)(SC_XZ_MEMLIMIT >> 20));
    if (ret == LZMA_MEM_ERROR)
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY, "%s: xz: %s", s->name, xz_message(ret));
    return SC_FAIL(SC_ERROR_IO, "%s: xz: %s (at compressed byte %llu)", s->name, xz_message(ret), at);
}

sc_status sc_mesh_xz_read(sc_mesh_source *s, unsigned char *buf, size_t cap, size_t *got)
{
    sc_mesh_xz *xz = s->xz;
    xz->strm.next_out = buf;
    xz->strm.avail_out = cap;
    /* Until some output is made or the data ends: a block may need much input before any output. */
    while (xz->strm.avail_out == cap && !xz->done) {
        if (xz->strm.avail_in == 0 && !xz->in_eof) {
            size_t n;
            SC_TRY(sc_mesh_source_read_raw(s, xz->in, sizeof xz->in, &n));
            xz->in_eof = n == 0;
            xz->strm.next_in = xz->in;
            xz->strm.avail_in = n;
        }
        lzma_ret ret = lzma_code(&xz->strm, xz->in_eof ? LZMA_FINISH : LZMA_RUN);
        if (ret == LZMA_STREAM_END) xz->done = 1;
        else if (ret != LZMA_OK) return xz_fail(s, ret);
    }
    *got = cap - xz->strm.avail_out;
    /* A decompression bomb: far more output per input byte than any mesh compresses to. The grace
     * amount keeps small, highly regular files (and the xz headers' fixed cost) out of the rule. */
    const uint64_t out = xz->strm.total_out, in = xz->strm.total_in;
    if (out > SC_MESH_XZ_RATIO_GRACE && (in == 0 || out / in >= s->max_xz_ratio))
        return SC_FAIL(SC_ERROR_OUT_OF_MEMORY,
                       "%s: xz: %llu MiB decompressed from %llu KiB, more than %llu times the compressed size, the "
                       "loading limit for compressed files (a decompression bomb?; raise it with --max-xz-ratio or "
                       "sc_mesh_limits.max_xz_ratio)",
                       s->name, (unsigned long long)(out >> 20), (unsigned long long)(in >> 10),
                       (unsigned long long)s->max_xz_ratio);
    return SC_OK;
}

void sc_mesh_xz_free(sc_mesh_xz *xz)
{
    if (!xz) return;
    lzma_end(&xz->strm);
    free(xz);
}
