/* option_limits.h - the ranges of the numeric options, shared by the slabcast programs (slabcast,
 * slabcast-bench), so both accept the same sizes, counts and times. */
#ifndef SLABCAST_APP_OPTION_LIMITS_H
#define SLABCAST_APP_OPTION_LIMITS_H

#include <stdint.h>

/* Valid ranges of the numeric options (printed by --help, enforced by app_parse_options and, for the
 * options slabcast-bench shares, bench_parse_options). */
#define APP_MAX_IMAGE_SIDE 16384u      /* --size: each side 1 .. this */
#define APP_MAX_FRAMES 1000000u        /* --frames: 1 .. this */
#define APP_MAX_THREADS 1024u          /* --threads: 1 .. this */
#define APP_MIN_RESOLUTION 3u          /* --resolution (sc_mesh_default's range) */
#define APP_MAX_RESOLUTION 16384u
#define APP_MAX_SUBDIVIDE 6u           /* --subdivide: 0 .. this */
/* Frame times stay within +-APP_MAX_TIME seconds: float time keeps better than 1/100 s there, so
 * the periodic deformations stay smooth; beyond, frames would repeat or jump. */
#define APP_MAX_TIME 100000.0
#define APP_MIN_DT 1e-6                /* --dt: APP_MIN_DT .. APP_MAX_DT seconds */
#define APP_MAX_DT 3600.0
/* --max-mesh-bytes: 1 .. 2^62 (suffixes K, M, G, T: powers of 1024); counts: 1 .. 2^32 - 1. */
#define APP_MAX_MESH_BYTES (UINT64_C(1) << 62)
#define APP_MAX_MESH_COUNT UINT64_C(0xFFFFFFFF)
#define APP_MAX_MODELS 64u             /* model files on one command line (the viewer's Tab cycles them) */
#define APP_MAX_HEAT 1e9               /* --heat-max: (0, this] */
#define APP_MAX_DEFORM_AMOUNT 10.0     /* --deform-amount: 0 .. this (1: the default motion) */
#define APP_MAX_DEFORM_SPEED 100.0     /* --deform-speed: -this .. this (1: real time) */

#endif
