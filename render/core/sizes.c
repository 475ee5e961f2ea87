/* sizes.c - byte counts as text and the monotonic clock (sizes.h). */
#include "sizes.h"

#include <stdio.h>
#include <time.h>

const char *sc_format_bytes(double bytes, char *buf, size_t size)
{
    static const char *const k_units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int u = 0;
    while (bytes >= 1024.0 && u < 6) {
        bytes /= 1024.0;
        ++u;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", bytes, k_units[u]);
    return buf;
}

double sc_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}
