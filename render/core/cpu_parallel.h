/* cpu_parallel.h - a parallel for over work items with pthreads, for the CPU backend (internal).
 * Items are handed out dynamically; the calling thread works too. If threads cannot be started
 * the loop runs on fewer (down to the caller alone): it never fails. */
#ifndef SC_CPU_PARALLEL_H
#define SC_CPU_PARALLEL_H

#include <stdint.h>

/* fn(ctx, item, worker) for every item in [0, count); worker < num_threads identifies the thread
 * (for per-thread accumulators). */
typedef void (*sc_cpu_task_fn)(void *ctx, uint32_t item, uint32_t worker);

void sc_cpu_parallel_for(uint32_t num_threads, uint32_t count, sc_cpu_task_fn fn, void *ctx);

/* Online cores, at least 1 and at most SC_CPU_MAX_THREADS. */
uint32_t sc_cpu_default_threads(void);

#endif /* SC_CPU_PARALLEL_H */
