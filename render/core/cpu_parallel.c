/* cpu_parallel.c - pthreads parallel for (see cpu_parallel.h). */
#include "cpu_parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

#include "render_tuning.h"

typedef struct sc_cpu_job {
    sc_cpu_task_fn fn;
    void *ctx;
    uint32_t count;
    atomic_uint next;
} sc_cpu_job;

typedef struct sc_cpu_worker {
    sc_cpu_job *job;
    uint32_t id;
} sc_cpu_worker;

static void run_items(sc_cpu_job *job, uint32_t worker)
{
    for (;;) {
        uint32_t item = atomic_fetch_add_explicit(&job->next, 1u, memory_order_relaxed);
        if (item >= job->count) return;
        job->fn(job->ctx, item, worker);
    }
}

static void *worker_main(void *arg)
{
    sc_cpu_worker *w = arg;
    run_items(w->job, w->id);
    return NULL;
}

void sc_cpu_parallel_for(uint32_t num_threads, uint32_t count, sc_cpu_task_fn fn, void *ctx)
{
    if (count == 0) return;
    if (num_threads > SC_CPU_MAX_THREADS) num_threads = SC_CPU_MAX_THREADS;
    if (num_threads > count) num_threads = count;
    sc_cpu_job job = {.fn = fn, .ctx = ctx, .count = count};
    atomic_init(&job.next, 0u);
    pthread_t threads[SC_CPU_MAX_THREADS];
    sc_cpu_worker workers[SC_CPU_MAX_THREADS];
    uint32_t started = 0;
    for (uint32_t i = 1; i < num_threads; ++i) {
        workers[started] = (sc_cpu_worker){.job = &job, .id = started + 1};
        if (pthread_create(&threads[started], NULL, worker_main, &workers[started]) != 0) break;
        ++started;
    }
    run_items(&job, 0);
    for (uint32_t i = 0; i < started; ++i) pthread_join(threads[i], NULL);
}

uint32_t sc_cpu_default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) n = 1;
    if (n > SC_CPU_MAX_THREADS) n = SC_CPU_MAX_THREADS;
    return (uint32_t)n;
}
