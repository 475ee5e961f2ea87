#!/usr/bin/env python3
"""check_app_backends.py - the programs ask the renderer what its backend is instead of knowing it.

    check_app_backends.py SOURCE_DIR    exit 0: no program names a backend it may not; 1: prints each

A program in app/ learns what matters of its backend from sc_backend_get_info (slabcast.h): where the
caller's buffers live (buffer_memory), whether frames overlap back to back (asynchronous), whose clock
times them (device_timed), which backend sorts its grid by radix (radix_binning), the device's name.
So a backend added to the library needs no program changed. SC_BACKEND_CUDA may be named only by the
files of ALLOWED: CUDA programs by nature, which drive the CUDA runtime beside the renderer (streams,
cudaMalloc, CUDA-GL interop) and so must have that very backend, not whichever has device memory.
Every mention counts, comments included. An entry of ALLOWED that no longer names it (or is gone) is
reported too, so the list can only shrink.
"""
import os
import re
import sys

NAME = 'SC_BACKEND_CUDA'
PATTERN = re.compile(r'\b' + NAME + r'\b')
SOURCE_EXT = ('.c', '.h', '.cu', '.cuh')

# path under the source tree -> why it must name the CUDA backend
ALLOWED = {
    'app/slabcast_bench/peer_gl_interop.c':
        'the GL peers\' CUDA-GL interop: hands the renderer a cudaStream_t and maps its device positions '
        'into a GL buffer registered with CUDA',
    'app/display_bench/display_bench.c':
        'times the display\'s CUDA-GL interop and copy paths: frames from the CUDA backend, a cudaMalloc\'d '
        'reference image, CUDA stream and device syncs',
    'app/split_demo/demo_grid_levels.cu':
        'a CUDA program (.cu): renders into its own cudaMalloc\'d image and compares with its own kernels',
}


def app_sources(root):
    for dirpath, dirnames, filenames in os.walk(os.path.join(root, 'app')):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(SOURCE_EXT):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    violations, named = [], set()
    for rel in app_sources(root):
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
        hits = [n for n, line in enumerate(lines, 1) if PATTERN.search(line)]
        if hits:
            named.add(rel)
        if rel not in ALLOWED:
            violations += [f'{rel}:{n}: names {NAME}; ask sc_backend_get_info (sc_backend_info) instead'
                           for n in hits]
    for rel in sorted(set(ALLOWED) - named):
        violations.append(f'{rel}: allowed to name {NAME} but does not (or is gone): remove it from ALLOWED')
    for v in violations:
        print(v)
    print(f'check_app_backends: {len(named)} file(s) of app/ name {NAME}, {len(ALLOWED)} allowed, '
          f'{len(violations)} violation(s)')
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
