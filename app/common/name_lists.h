/* name_lists.h - the libraries' names joined into text for help texts, messages and logs, shared by
 * the slabcast programs (slabcast, slabcast-bench): the deformers, view modes, backends and mesh
 * formats are listed by counting their enums (slabcast.h, sc_mesh.h), never written out here, so one
 * added to a library shows up in every program with no change to it. Each function writes at most
 * size - 1 characters and a NUL (size > 0), and returns the length written. */
#ifndef SLABCAST_APP_NAME_LISTS_H
#define SLABCAST_APP_NAME_LISTS_H

#include <stddef.h>

/* Every deformer's name, sep between them ("a,b,c" with sep ","). */
size_t app_deformer_names(char *buf, size_t size, const char *sep);
/* The names of the deformers in mask (bit d: sc_deformer d) joined by ",", or "none". */
size_t app_deform_set_names(unsigned mask, char *buf, size_t size);
/* Every view mode's name, sep between them. */
size_t app_view_mode_names(char *buf, size_t size, const char *sep);
/* Every backend's name, SC_BACKEND_DEFAULT's ("auto") first, sep between them. */
size_t app_backend_names(char *buf, size_t size, const char *sep);
/* The mesh formats' names, upper-cased from their extensions: "A, B or C". */
size_t app_mesh_format_names(char *buf, size_t size);

#endif
