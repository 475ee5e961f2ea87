#!/usr/bin/env python3
"""check_change_table.py - docs/ARCHITECTURE.md's "Where to make the common changes" table is true.

    check_change_table.py [SOURCE_DIR]    exit 0: every checked row is true and within its limit;
                                          1: prints what differs

For each kind of change below (a deformer, a view mode, a backend, a mesh format) one existing
value of that kind stands for all: its marker is a pattern that every place naming it matches
(the PULSE deformer, the shadow-tests view mode, the CPU backend, the PLY format). The files
outside tests/ that match it are the places a person adding another value of that kind edits;
the table's row must name exactly those (every one it names must match, and every match must be
named), so the table cannot drift from the tree. A row's cell names its places as `path`s with a '/'
(a bare file name is prose): files, rooms (`render/<name>/`, a folder of the new value's own files)
and, after the words "Its tests:", its test files: those outside tests/ (fuzz targets, the corpus
writer) must all be named, those in tests/ may be. <name> and <format> in a path stand for the
example value (cpu, ply).

Every mention counts, comments included: a comment that lists every value is a list that must be
kept in step too. A few files name the example value because they use it, not because a new value
would need them (the fuzz build runs the CPU backend only); they are listed in EXEMPT with the
reason, and an exemption that no longer matches is reported, so the list can only shrink.

Each kind has a limit, the most places such a change may take: code files (.c .h .cu .cuh .py) and
rooms, build lists (CMakeLists.txt, *.cmake) counted apart. Every code place counts: a row over its
limit fails, whatever room its places lie in.
"""
import os
import re
import sys

TABLE_HEADING = '## Where to make the common changes'
CODE_EXT = ('.c', '.h', '.cu', '.cuh', '.py')
SCAN = ('status', 'primitives', 'mesh', 'render', 'app', 'fuzz', 'scripts', 'cmake')
SKIP_DIRS = {'build', 'out', 'glad', 'corpus', 'regressions'}
TEST_ROOTS = ('tests/', 'fuzz/')  # where the paths after "Its tests:" may lie

KINDS = {
    'A deformer': {
        'marker': r'(?i)pulse',
        'example': {},
        'limit': 4,
    },
    'A view mode': {
        'marker': r'\bSC_VIEW_SHADOW_TESTS\b|shadow-tests',
        'example': {},
        'limit': 3,
    },
    'A backend': {
        'marker': r'\bSC_BACKEND_CPU\b|&sc_backend_cpu_ops\b|\bcpu/backend_cpu\.c\b',
        'example': {'<name>': 'cpu'},
        'limit': 4,
    },
    'A mesh format': {
        'marker': r'(?i)\bply\b|\bSC_MESH_FORMAT_PLY\b|\bmesh_ply\b|\bfuzz_ply\b|\bsc_mesh_parse_ply\b',
        'example': {'<format>': 'ply'},
        'limit': 3,
    },
}

# (kind, path) -> why the file names the example value without being a place to change
EXEMPT = {
    ('A backend', 'app/slabcast_bench/peer_cpu.c'):
        'the bench\'s "cpu" peer is the CPU backend by definition: the speed-up over it is what it shows',
    ('A backend', 'fuzz/fuzz_common.c'):
        'the fuzz build is C only: the renderer that loaded meshes go through is the CPU backend\'s',
    ('A backend', 'fuzz/fuzz_render_desc.c'):
        'the fuzz build is C only: its renderers are the CPU backend\'s (and it asks for the CUDA one, '
        'which it must refuse)',
    ('A backend', 'fuzz/CMakeLists.txt'):
        'the fuzz build compiles the CPU backend\'s sources, the one backend it runs',
}

PATH = re.compile(r'`([^`\s]+)`')


def scanned_files(root):
    """Code files and build lists outside tests/ and docs/, relative and '/'-separated."""
    found = []
    tops = [os.path.join(root, d) for d in SCAN]
    for top in tops:
        if not os.path.isdir(top):
            continue
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith('.'))
            for name in sorted(filenames):
                if name.endswith(CODE_EXT) or name == 'CMakeLists.txt' or name.endswith('.cmake'):
                    found.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, '/'))
    if os.path.isfile(os.path.join(root, 'CMakeLists.txt')):
        found.append('CMakeLists.txt')
    return found


def is_code(path):
    return path.endswith(CODE_EXT)


def table_rows(root):
    """{change: cell} of the table under TABLE_HEADING."""
    with open(os.path.join(root, 'docs', 'ARCHITECTURE.md'), encoding='utf-8') as f:
        text = f.read()
    if TABLE_HEADING not in text:
        raise ValueError(f'docs/ARCHITECTURE.md has no "{TABLE_HEADING}" section')
    section = text.split(TABLE_HEADING, 1)[1].split('\n## ', 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        if len(cells) >= 2 and line.lstrip().startswith('|') and not set(cells[0]) <= set('-: '):
            rows[cells[0]] = '|'.join(cells[1:])
    return rows


def named_places(cell, example):
    """(places, test places) named in a row's cell, with <name>/<format> replaced by the example."""
    parts = cell.split('Its tests:', 1)

    def paths(text):
        out = []
        for p in PATH.findall(text):
            if '/' not in p:  # a bare file name, a symbol or an option is prose, not a place
                continue
            for k, v in example.items():
                p = p.replace(k, v)
            out.append(p)
        return out
    return paths(parts[0]), paths(parts[1]) if len(parts) > 1 else []


def under(path, room):
    return room.endswith('/') and path.startswith(room)


def names_example(root, rel, marker):
    with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
        return marker.search(f.read()) is not None


def check_kind(root, kind, spec, cell, files):
    problems = []
    marker = re.compile(spec['marker'])
    matching = {rel for rel in files if names_example(root, rel, marker)}
    for (k, rel), why in sorted(EXEMPT.items()):
        if k == kind and rel not in matching:
            problems.append(f'{kind}: {rel} is exempt but no longer names the example: remove it from EXEMPT')
    matching -= {rel for (k, rel) in EXEMPT if k == kind}
    places, test_places = named_places(cell, spec['example'])
    for rel in test_places:
        if not rel.startswith(TEST_ROOTS):
            problems.append(f'{kind}: {rel} is listed among its tests but lies outside {", ".join(TEST_ROOTS)}')
    named = places + test_places
    for rel in named:
        full = os.path.join(root, rel)
        if rel.endswith('/'):
            if not os.path.isdir(full):
                problems.append(f'{kind}: the table names the room {rel}, which is not a folder of the tree')
            elif not any(under(m, rel) for m in matching):
                problems.append(f'{kind}: the table names the room {rel}, but nothing in it names the example')
        elif not os.path.isfile(full):
            problems.append(f'{kind}: the table names {rel}, which is not a file of the tree')
        elif not names_example(root, rel, marker):
            problems.append(f'{kind}: the table names {rel}, which does not name the example ({spec["marker"]})')
    for rel in sorted(matching):
        if rel not in named and not any(under(rel, room) for room in named):
            problems.append(f'{kind}: {rel} names the example ({spec["marker"]}) but the table does not name it')
    code = [p for p in places if p.endswith('/') or is_code(p)]
    build = [p for p in places if not (p.endswith('/') or is_code(p))]
    if len(code) > spec['limit']:
        problems.append(f'{kind}: {len(code)} code places ({", ".join(code)}); the limit is {spec["limit"]}')
    print(f'{kind}: {len(code)} code places, {len(build)} build lists (limit {spec["limit"]} code places); '
          f'{len(test_places)} test files named')
    for p in places:
        print(f'    {p}')
    return problems


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..'))
    rows = table_rows(root)
    files = scanned_files(root)
    problems = []
    for kind, spec in KINDS.items():
        if kind not in rows:
            problems.append(f'docs/ARCHITECTURE.md: the change table has no row "{kind}"')
            continue
        problems += check_kind(root, kind, spec, rows[kind], files)
    for p in problems:
        print(p)
    print(f'check_change_table: {len(KINDS)} rows checked, {len(problems)} problem(s)')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
