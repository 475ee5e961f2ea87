/* mesh_tuning.h - every tuning constant and default of the mesh library, in one place (internal).
 * The loading limits callers may change are public (sc_mesh.h: sc_mesh_limits and its defaults). */
#ifndef MESH_TUNING_H
#define MESH_TUNING_H

#include <stdint.h>

enum {
    SC_DEFAULT_MESH_RESOLUTION = 512, /* built-in mesh: 4 * 512^2 = 1,048,576 triangles */
    SC_DEFAULT_MESH_MAX_RES = 16384,  /* built-in mesh: 4 * 16384^2 = 2^30 triangles at most */
    /* Longest text line (of every text format, and of a binary format's text header) or token a
     * loader accepts: room for a polygon of a million corners, and a bound on the window held for a
     * file with no line breaks. */
    SC_MESH_MAX_LINE = 16 << 20,
    SC_RD_CHUNK = 1 << 20,            /* bytes a reader asks of its source at a time */
    SC_XZ_IN = 1 << 16,               /* compressed bytes fed to liblzma at a time */
    /* Input bytes between two calls of a load's progress callback: often enough for a smooth bar
     * (a 30 MB file gives 30 calls), rare enough to cost nothing next to parsing a MiB. */
    SC_MESH_PROGRESS_STEP = 1 << 20
};

/* The decoder may use this much memory: no xz preset needs more than 65 MiB to decompress, the
 * largest dictionary allowed (1.5 GiB) needs about as much again. */
#define SC_XZ_MEMLIMIT (UINT64_C(1) << 30)

#endif /* MESH_TUNING_H */
