/* display_testing.h - test-only control of the display's CUDA side, for tests/display. Not part of the
 * public API: not installed, no stability promise. */
#ifndef SC_DISPLAY_TESTING_H
#define SC_DISPLAY_TESTING_H

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the next registration of a display's pixel buffer with CUDA on the calling thread fail with
 * `cuda_error` (a cudaError_t value) instead of calling cudaGraphicsGLRegisterBuffer, as it fails where
 * the GL context is not on the NVIDIA GPU; 0 clears it. One registration only. No effect without CUDA. */
void sc_display_testing_fail_next_register(int cuda_error);

#ifdef __cplusplus
}
#endif
#endif
