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
    app/, fuzz/       public headers, the report macros (status/internal), their own folder
    tests/            public headers, the report macros, render/core (shared math), the test-only
                      header of the front end, test helpers; tests/primitives also primitives/src

Headers are matched by file name (the project has no two headers with one name); a name that is not
a project header (a system or generated header) is not checked.

No include circle: a module is the files of one path stem (x.c, x.h, x.cu, x.cuh); module A uses B
when a file of A includes a header of B; no module may reach itself through uses (a circle means
neither can be read, built or replaced without the other). A stage that its hub calls is declared in
the hub's header (render/cuda/backend_cuda.h), not in a header of its own that includes the hub.
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
    'app': PUBLIC | {'report', 'app'},
    'fuzz': PUBLIC | {'report', 'fuzz', 'testing'},
    'tests': PUBLIC | {'report', 'core', 'testing', 'tests', 'app'},
    'tests_primitives': PUBLIC | {'report', 'split_private', 'tests', 'tests_primitives'},
}

# The front end's test-only interface: a header of render/api that tests may include.
TESTING_HEADERS = {'sc_render_testing.h', 'display_testing.h'}


def room_of(rel):
    for prefix, room in ROOMS:
        if rel == prefix or rel.startswith(prefix + '/'):
            return room
    return None


def module_of(rel):
    return os.path.splitext(rel)[0]


def include_circles(uses):
    """The strongly connected components of more than one module (Tarjan, iterative), each as a
    circle through its modules in use order."""
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = 0
    for start in sorted(uses):
        if start in index:
            continue
        work = [(start, iter(sorted(uses.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(uses.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(circle_through(sorted(comp), uses))
    return comps


def circle_through(comp, uses):
    """A circle from comp[0] back to itself inside the component (breadth first)."""
    members, first = set(comp), comp[0]
    prev, frontier = {first: None}, [first]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(uses.get(v, ())):
                if w == first:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return list(reversed(path))
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = os.path.abspath(sys.argv[1])
    headers, header_module, sources = {}, {}, []
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
                header_module[name] = module_of(rel)
    violations = []
    uses = {}
    for rel, room in sorted(sources):
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            target = headers.get(os.path.basename(inc))
            if target is None:
                continue
            if target not in ALLOWED[room] and target != room:
                violations.append(f'{rel}: includes "{inc}" ({target}), which {room} may not use')
            used = header_module[os.path.basename(inc)]
            if used != module_of(rel):
                uses.setdefault(module_of(rel), set()).add(used)
    for circle in include_circles(uses):
        violations.append('include circle: ' + ' -> '.join(circle + [circle[0]]))
    for v in violations:
        print(v)
    print(f'check_layering: {len(sources)} files, {len(violations)} violation(s)')
    return 1 if violations else 0


if __name__ == '__main__':
    sys.exit(main())
