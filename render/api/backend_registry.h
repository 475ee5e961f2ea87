/* backend_registry.h - the backends built into this library, by kind (internal to api/). */
#ifndef SC_BACKEND_REGISTRY_H
#define SC_BACKEND_REGISTRY_H

#include "sc_backend_ops.h"

/* The table of a kind (CPU or CUDA); SC_BACKEND_DEFAULT: the first built backend available on this
 * machine, in the order CUDA, CPU. UNSUPPORTED (reported, naming `call`) for a kind not built;
 * INVALID_ARGUMENT for an unknown kind. */
sc_status sc_backend_lookup(sc_backend kind, const char *call, const sc_backend_ops **out);
/* The same without a report: NULL for a kind not built, unknown, or (DEFAULT) none available. */
const sc_backend_ops *sc_backend_find(sc_backend kind);

#endif /* SC_BACKEND_REGISTRY_H */
