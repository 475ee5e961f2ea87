#!/usr/bin/env python3
"""check_layering.py - the layering of docs/ARCHITECTURE.md, checked on every #include "..." of the tree.

    check_layering.py SOURCE_DIR        exit 0: every include is allowed; 1: prints each violation

Each header of the project belongs to a room (the folder it lives in). A source file may include
headers of the rooms its own room may use, and no others:

    status/           the ground floor: uses nothing
    primitives/       status; its own src/ (the split library's private rooms)
    mesh/             status; its own src/ (knows no renderer)
    render/core       status, the split and mesh APIs, the renderer's public headers, core
    render/cpu        ... and cpu          (a backend never includes the front end or the other backend)
    render/cuda       ... and cuda
    render/api        the front end: every room of render/
    render/gl, display  status, the renderer's public headers, their own room
    app/, fuzz/       public headers, the report macros (status/internal), their own folder; in app/,
                      app/common (what slabcast and slabcast-bench share) uses no program's folder,
                      slabcast (app/slabcast and its rooms) and slabcast-bench (app/slabcast_bench) use
                      app/common and not each other, the other programs may use both
    tests/            public headers, the report macros, render/core (shared math), the test-only
                      header of the front end, test helpers; tests/primitives also primitives/src

Headers are matched by file name (the project has no two headers with one name); a name that is not
a project header (a system or generated header) is not checked. Include circles are
check_include_cycles.py's.
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
SOURCE_EXT = ('.c', '.h', '.cu', '.cuh')
SKIP_DIRS = {'.git', 'build', 'out', '.gl', 'glad'}

# Rooms, most specific prefix first.
ROOMS = [
    ('status/include', 'status'), ('status/internal', 'report'), ('status', 'status'),
    ('primitives/include', 'split'), ('primitives', 'split_private'),
    ('mesh/include', 'mesh'), ('mesh', 'mesh_private'),
    ('render/include', 'render'), ('render/api', 'api'), ('render/core', 'core'),
    ('render/cpu', 'cpu'), ('render/cuda', 'cuda'), ('render/gl', 'gl'), ('render/display', 'display'),
    ('app/common', 'app_common'), ('app/slabcast', 'app_slabcast'), ('app/slabcast_bench', 'app_bench'),
    ('app', 'app'), ('fuzz', 'fuzz'),
    ('tests/primitives', 'tests_primitives'), ('tests', 'tests'),
]

PUBLIC = {'status', 'split', 'mesh', 'render'}
RENDER_SHARED = {'status', 'report', 'split', 'mesh', 'render', 'core'}
ALLOWED = {
    'status': {'status', 'report'},
    'report': {'status', 'report'},
    'split': {'status', 'split'},
    'split_private': {'status', 'report', 'split', 'split_private'},
    'mesh': {'status', 'mesh'},
    'mesh_private': {'status', 'report', 'mesh', 'mesh_private'},
    'render': {'status', 'mesh', 'render'},
    'core': RENDER_SHARED,
    'cpu': RENDER_SHARED | {'cpu'},
    'cuda': RENDER_SHARED | {'cuda'},
    'api': RENDER_SHARED | {'api', 'cpu', 'cuda', 'testing'},
    'gl': {'status', 'report', 'render', 'gl'},
    'display': {'status', 'report', 'render', 'gl', 'display', 'testing'},
    'app_common': PUBLIC | {'report', 'app_common'},
    'app_slabcast': PUBLIC | {'report', 'app_common', 'app_slabcast'},
    'app_bench': PUBLIC | {'report', 'app_common', 'app_bench'},
    'app': PUBLIC | {'report', 'app', 'app_common', 'app_slabcast'},
    'fuzz': PUBLIC | {'report', 'fuzz', 'testing'},
    'tests': PUBLIC | {'report', 'core', 'testing', 'tests', 'app', 'app_common', 'app_slabcast', 'app_bench'},
    'tests_primitives': PUBLIC | {'report', 'split_private', 'tests', 'tests_primitives'},
}

# The front end's test-only interface: a header of render/api that tests may include.
TESTING_HEADERS = {'sc_render_testing.h', 'display_testing.h'}


def room_of(rel):
    for prefix, room in ROOMS:
        if rel == prefix or rel.startswith(prefix + '/'):
            return room
    return None


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    headers, sources = {}, []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        for name in filenames:
            if not name.endswith(SOURCE_EXT):
                continue
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            room = room_of(rel)
            if room is None:
                continue
            sources.append((rel, room))
            if name.endswith(('.h', '.cuh')):
                headers[name] = 'testing' if name in TESTING_HEADERS else room
    violations = []
    for rel, room in sorted(sources):
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            target = headers.get(os.path.basename(inc))
            if target is None:
                continue
            if target not in ALLOWED[room] and target != room:
                violations.append(f'{rel}: includes "{inc}" ({target}), which {room} may not use')
    for v in violations:
        print(v)
    print(f'check_layering: {len(sources)} files, {len(violations)} violation(s)')
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
