/* sctest_models.h - where tests find the shared benchmark models (the .obj.xz files in ../shared/models, never
 * copied into the project). Looked for in order: $SLABCAST_MODELS, the shared folder beside the source
 * tree (compiled in), and out/models relative to the working directory (a copy beside a bundle on a GPU machine).
 * Tests that need a model skip cleanly when it is absent. */
#ifndef SCTEST_MODELS_H
#define SCTEST_MODELS_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef SLABCAST_DEFAULT_MODELS_DIR
#define SLABCAST_DEFAULT_MODELS_DIR "../shared/models"
#endif

/* Writes the path of `file` into buf and returns buf when a readable copy exists, else NULL. */
static inline const char *sct_model_path(const char *file, char *buf, size_t size)
{
    const char *dirs[3] = {getenv("SLABCAST_MODELS"), SLABCAST_DEFAULT_MODELS_DIR, "out/models"};
    for (int i = 0; i < 3; ++i) {
        if (!dirs[i] || !*dirs[i]) continue;
        snprintf(buf, size, "%s/%s", dirs[i], file);
        if (access(buf, R_OK) == 0) return buf;
    }
    return NULL;
}

#endif
