#!/usr/bin/env python3
"""check_include_cycles.py - no include circle: no module reaches itself through the headers it includes.

    check_include_cycles.py [SOURCE_DIR] [--scope DIR]...   exit 0: no circle; 1: prints each circle

A module is the files of one path stem (dir/x.c, dir/x.h, dir/x.cu, dir/x.cuh). Module A uses module
B when a file of A has #include "h" and h is a header of B. A circle (A uses B, ..., which uses A)
means none of its modules can be read, built, tested or replaced without the others: a declaration
two modules share belongs in a module of its own that both include, and a stage that its hub calls
is declared in the hub's header (render/cuda/backend_cuda.h), not in a header of its own that
includes the hub.

Every .c, .h, .cu and .cuh file under the scope's folders is read (SCOPE below, or each --scope DIR
given, relative to SOURCE_DIR; SOURCE_DIR defaults to the tree this script lives in). Only quoted
includes count. An include is resolved by file name among the scope's headers: the one beside the
including file first, else the one whose path ends with the include's text (the project has no two
headers with one name); a name that is no header of the scope (a system, generated or outside
header) is not followed. Each circle is printed with the include that makes each of its steps; the
modules of one strongly connected set are reported together, as one circle through the first of them
and the others that also lie on circles with it.
"""
import argparse
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCE_EXT = ('.c', '.h', '.cu', '.cuh')
HEADER_EXT = ('.h', '.cuh')
SKIP_DIRS = {'build', 'out', 'glad'}

# The folders read when no --scope is given: the libraries, the programs, the fuzz targets and the
# tests with their shared helpers (tests/framework, tests/render/*.h, ...).
SCOPE = ('status', 'primitives', 'mesh', 'render', 'app', 'fuzz', 'tests')


def module_of(rel):
    return os.path.splitext(rel)[0]


def scope_sources(root, scope):
    """Paths (relative to root, '/'-separated) of the source files under the scope's folders."""
    found = set()
    for folder in scope:
        top = os.path.join(root, folder)
        if not os.path.isdir(top):
            raise FileNotFoundError(f'scope folder {folder} is not a folder of {root}')
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('.'))
            for name in filenames:
                if name.endswith(SOURCE_EXT):
                    found.add(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, '/'))
    return sorted(found)


def resolve(inc, includer, headers_by_name):
    """The scope header that #include "inc" in includer names, or None."""
    candidates = headers_by_name.get(inc.rsplit('/', 1)[-1], [])
    if len(candidates) <= 1:
        return candidates[0] if candidates else None
    beside = os.path.dirname(includer) + '/' + inc if os.path.dirname(includer) else inc
    if beside in candidates:
        return beside
    suffix = [c for c in candidates if c == inc or c.endswith('/' + inc)]
    return suffix[0] if len(suffix) == 1 else sorted(candidates)[0]


def include_graph(root, sources):
    """uses: module -> set of modules it uses; why: (module, module) -> first 'file:line includes "h"'."""
    headers_by_name = {}
    for rel in sources:
        if rel.endswith(HEADER_EXT):
            headers_by_name.setdefault(rel.rsplit('/', 1)[-1], []).append(rel)
    uses, why = {}, {}
    for rel in sources:
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            lines = f.read().splitlines()
        for n, line in enumerate(lines, 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            header = resolve(m.group(1), rel, headers_by_name)
            if header is None:
                continue
            a, b = module_of(rel), module_of(header)
            if a == b:
                continue
            uses.setdefault(a, set()).add(b)
            why.setdefault((a, b), f'{rel}:{n} includes "{m.group(1)}"')
    return uses, why


def strongly_connected(uses):
    """The strongly connected sets of more than one module (Tarjan, iterative), each sorted."""
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
                    comps.append(sorted(comp))
    return sorted(comps)


def circle_through(comp, uses):
    """A shortest circle from comp[0] back to itself inside the set (breadth first)."""
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


def include_circles(root, scope):
    """One entry per strongly connected set: (circle, other modules of the set, includes of the circle)."""
    uses, why = include_graph(root, scope_sources(root, scope))
    circles = []
    for comp in strongly_connected(uses):
        circle = circle_through(comp, uses)
        steps = list(zip(circle, circle[1:] + circle[:1]))
        circles.append((circle, [m for m in comp if m not in circle], [why[s] for s in steps]))
    return circles


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument('source_dir', nargs='?', default=os.path.dirname(os.path.dirname(here)),
                        help='the source tree (default: the one this script lives in)')
    parser.add_argument('--scope', action='append', metavar='DIR',
                        help='a folder to read, relative to SOURCE_DIR; repeatable (default: ' +
                             ' '.join(SCOPE) + ')')
    args = parser.parse_args()
    root = os.path.abspath(args.source_dir)
    scope = tuple(s.strip('/') for s in args.scope) if args.scope else SCOPE
    try:
        circles = include_circles(root, scope)
    except FileNotFoundError as e:
        print(f'check_include_cycles: {e}', file=sys.stderr)
        return 2
    for circle, others, includes in circles:
        print('include circle: ' + ' -> '.join(circle + circle[:1]))
        for line in includes:
            print('    ' + line)
        if others:
            print('    also on circles with these: ' + ', '.join(others))
    print(f'check_include_cycles: {len(scope_sources(root, scope))} files under {" ".join(scope)}, '
          f'{len(circles)} include circle(s)')
    if circles:
        print('a declaration that modules share belongs in a module of its own that each includes')
    return 1 if circles else 0


if __name__ == '__main__':
    sys.exit(main())
