/* name_lists.c - the libraries' names joined into text (see name_lists.h). */
#include "name_lists.h"

#include <ctype.h>
#include <stdio.h>

#include "sc_mesh.h"
#include "slabcast.h"

/* Appends s to buf at *len (truncating at size - 1). */
static void append(char *buf, size_t size, size_t *len, const char *s)
{
    if (*len >= size) return;
    int n = snprintf(buf + *len, size - *len, "%s", s);
    if (n < 0) return;
    *len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

/* names[0 .. count) joined: sep between them, last_sep before the last. */
static size_t join(char *buf, size_t size, const char *const *names, int count, const char *sep,
                   const char *last_sep)
{
    size_t len = 0;
    if (size == 0) return 0;
    buf[0] = '\0';
    for (int i = 0; i < count; ++i) {
        if (i > 0) append(buf, size, &len, i + 1 == count ? last_sep : sep);
        append(buf, size, &len, names[i]);
    }
    return len;
}

size_t app_deformer_names(char *buf, size_t size, const char *sep)
{
    const char *names[SC_DEFORMER_COUNT];
    for (int d = 0; d < SC_DEFORMER_COUNT; ++d) names[d] = sc_deformer_name((sc_deformer)d);
    return join(buf, size, names, SC_DEFORMER_COUNT, sep, sep);
}

size_t app_deform_set_names(unsigned mask, char *buf, size_t size)
{
    const char *names[SC_DEFORMER_COUNT];
    int n = 0;
    for (int d = 0; d < SC_DEFORMER_COUNT; ++d)
        if (mask & 1u << d) names[n++] = sc_deformer_name((sc_deformer)d);
    if (n == 0) {
        const char *none = "none";
        return join(buf, size, &none, 1, "", "");
    }
    return join(buf, size, names, n, ",", ",");
}

size_t app_view_mode_names(char *buf, size_t size, const char *sep)
{
    const char *names[SC_VIEW_MODE_COUNT];
    for (int m = 0; m < SC_VIEW_MODE_COUNT; ++m) names[m] = sc_view_mode_name((sc_view_mode)m);
    return join(buf, size, names, SC_VIEW_MODE_COUNT, sep, sep);
}

size_t app_backend_names(char *buf, size_t size, const char *sep)
{
    const char *names[SC_BACKEND_COUNT];
    for (int b = 0; b < SC_BACKEND_COUNT; ++b) names[b] = sc_backend_name((sc_backend)b);
    return join(buf, size, names, SC_BACKEND_COUNT, sep, sep);
}

size_t app_mesh_format_names(char *buf, size_t size)
{
    enum { FORMATS = SC_MESH_FORMAT_COUNT - 1, NAME = 16 };
    char upper[FORMATS][NAME];
    const char *names[FORMATS];
    for (int f = 0; f < FORMATS; ++f) {
        const char *ext = sc_mesh_format_extension((sc_mesh_format)(SC_MESH_FORMAT_AUTO + 1 + f));
        int k = 0;
        for (const char *c = ext + 1; *c && k < NAME - 1; ++c) upper[f][k++] = (char)toupper((unsigned char)*c);
        upper[f][k] = '\0';
        names[f] = upper[f];
    }
    return join(buf, size, names, FORMATS, ", ", " or ");
}
