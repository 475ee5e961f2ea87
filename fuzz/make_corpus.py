#!/usr/bin/env python3
"""Writes the seed corpora (fuzz/corpus/<target>/) and the hand-written hostile cases
(fuzz/regressions/<target>/) of the libFuzzer targets. Deterministic: running it again rewrites the
same bytes. It only writes the files it names; regression cases added by hand (inputs the fuzzer
found) are left alone. Needs python3 and xz (xz-utils) for the fuzz_xz seeds.

    python3 fuzz/make_corpus.py            # from the repository root

The fuzz_render_desc encoding below mirrors fuzz_render_desc.c (its tables, ops and field order)."""
import os
import random
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.abspath(__file__))


def write(kind, target, name, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(ROOT, kind, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def corpus(target, name, data):
    write("corpus", target, name, data)


def regression(target, name, data):
    write("regressions", target, name, data)


# ---------------------------------------------------------------- OBJ
TRI_OBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"
CUBE_OBJ = ("# unit cube, quads\no cube\n"
            + "".join("v %d %d %d\n" % (x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1))
            + "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n")


def obj_files():
    corpus("fuzz_obj", "tri.obj", TRI_OBJ)
    corpus("fuzz_obj", "cube_quads.obj", CUBE_OBJ)
    corpus("fuzz_obj", "polygons.obj",
           "v 0 0 0\nv 1 0 0\nv 1.5 1 0\nv 0.5 1.7 0\nv -0.5 1 0\nv 0 0 1\nf 1 2 3 4 5\nf 1 2 6\n")
    corpus("fuzz_obj", "negative_indices.obj",
           "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\nv 0 0 1\nf -4 -2 -1\n")
    corpus("fuzz_obj", "slashes.obj",
           "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 1\n"
           "f 1/1 2/2 3/3\nf 2//1 4//1 3//1\nf 1/1/1 2/2/1 4/3/1\n")
    corpus("fuzz_obj", "comments_groups.obj",
           "# comment\nmtllib x.mtl\n\no thing\ng a b\ns 1\nusemtl red\n\tv\t0 0 0\n  v 1 0 0 # tail\n"
           "v 0 1 0\nl 1 2\np 1\nf 1 2 3\n")
    corpus("fuzz_obj", "crlf_w.obj", "v 0 0 0 1\r\nv 1 0 0 1.0\r\nv 0 1 0 0.5\r\nf 1 2 3\r\n")
    corpus("fuzz_obj", "numbers.obj",
           "v 1e-3 -2.5E+2 +1\nv .5 5. -0\nv 0x1p3 1e38 -1e-38\nv 3.4028234e38 1 2\nf 1 2 3\nf 2 3 4\n")
    corpus("fuzz_obj", "no_final_newline.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3")
    corpus("fuzz_obj", "degenerate.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 3\nf 1 1 4\nf 1 2 4\nf 1 2 9\n")
    corpus("fuzz_obj", "empty.obj", "")

    rng = random.Random(0x5C0B)
    regression("fuzz_obj", "bom.obj", b"\xef\xbb\xbf" + TRI_OBJ.encode())
    regression("fuzz_obj", "binary_garbage.obj", bytes(rng.getrandbits(8) for _ in range(16384)))
    regression("fuzz_obj", "comments_only.obj", "# only\n# comments\n\n#\n")
    regression("fuzz_obj", "vt_vn_only.obj", "vt 0 0\nvt 1 0\nvn 0 0 1\nvn 0 1 0\n")
    regression("fuzz_obj", "unused_nan_vertex.obj", "v nan nan nan\n" + "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 2 3 4\n")
    regression("fuzz_obj", "unused_1e39_vertex.obj", TRI_OBJ + "v 1e39 0 0\n")
    regression("fuzz_obj", "used_1e39_vertex.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1e39 0 0\nf 1 2 3\nf 1 2 4\n")
    regression("fuzz_obj", "long_number_1mb.obj", TRI_OBJ + "v 1" + "1" * 999900 + " 0 0\nf 1 2 4\n")
    regression("fuzz_obj", "vertex_3e38.obj", "v 3e38 0 0\nv -3e38 1 0\nv 0 3e38 0\nf 1 2 3\n")
    regression("fuzz_obj", "unused_far_vertex.obj", TRI_OBJ + "v 3.4e38 -3.4e38 3.4e38\n")
    regression("fuzz_obj", "face_index_range.obj",
               TRI_OBJ + "f 1 2 99999999999999999999\n")
    regression("fuzz_obj", "face_index_extremes.obj",
               TRI_OBJ + "f 1 2 9223372036854775807\nf -9223372036854775808 1 2\nf 1 2 4294967296\n")
    regression("fuzz_obj", "zero_area_only.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n")
    regression("fuzz_obj", "nul_bytes.obj", b"v 0 0 0\nv 1\x000 0\nv 0 1 0\nf 1 2 3\n\x00\x00f 1 2 3\n")
    regression("fuzz_obj", "long_fan.obj", TRI_OBJ + "f" + " 1 2 3" * 30000 + "\n")


# ---------------------------------------------------------------- PLY
def ply_header(fmt, elements):
    h = "ply\nformat %s 1.0\n" % fmt
    for name, count, props in elements:
        h += "element %s %s\n" % (name, count)
        for p in props:
            h += "property %s\n" % p
    return h + "end_header\n"


XYZ_F = ["float x", "float y", "float z"]
FACE_UCHAR_INT = ["list uchar int vertex_indices"]


def ply_files():
    tri_ascii = ply_header("ascii", [("vertex", 3, XYZ_F), ("face", 1, FACE_UCHAR_INT)]) + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n"
    corpus("fuzz_ply", "ascii_tri.ply", tri_ascii)
    cube_v = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    h = ("ply\nformat ascii 1.0\ncomment a cube\nobj_info made by make_corpus.py\n"
         "element vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
         "property float nx\nproperty float ny\nproperty float nz\n"
         "property uchar red\nproperty uchar green\nproperty uchar blue\n"
         "element face 6\nproperty list uchar int vertex_indices\nproperty uchar flags\nend_header\n")
    body = "".join("%d %d %d 0 0 1 255 128 0\n" % v for v in cube_v) + "".join("4 %d %d %d %d 7\n" % q for q in quads)
    corpus("fuzz_ply", "ascii_cube_props.ply", h + body)
    corpus("fuzz_ply", "ascii_crlf.ply", tri_ascii.replace("\n", "\r\n"))

    b = ply_header("binary_little_endian", [("vertex", 3, XYZ_F), ("face", 1, FACE_UCHAR_INT)]).encode()
    b += struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<B3i", 3, 0, 1, 2)
    corpus("fuzz_ply", "binary_tri.ply", b)

    b = ply_header("binary_little_endian",
                   [("vertex", 8, ["double x", "double y", "double z"]),
                    ("face", 6, ["list int uint vertex_index"])]).encode()
    b += b"".join(struct.pack("<3d", *v) for v in cube_v)
    b += b"".join(struct.pack("<i4I", 4, *q) for q in quads)
    corpus("fuzz_ply", "binary_double_cube.ply", b)

    # Odd properties: an element before the vertices, every scalar type, a ushort list count,
    # properties after the list, a trailing element.
    b = ply_header("binary_little_endian",
                   [("material", 2, ["char a", "short b", "ushort c", "int d", "uint e"]),
                    ("vertex", 4, ["uchar tag", "float z", "int8 w", "float y", "int16 v", "float x", "float64 q"]),
                    ("face", 2, ["uint8 before", "list ushort ushort vertex_indices", "list uchar float32 texcoord",
                                 "int32 after"]),
                    ("edge", 1, ["int vertex1", "int vertex2"])]).encode()
    b += struct.pack("<bhHiI", -1, -2, 3, -4, 5) * 2
    for i, (x, y, z) in enumerate([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]):
        b += struct.pack("<BfbfhfD".replace("D", "d"), i, z, -i, y, i, x, 0.5)
    b += struct.pack("<BH3HB6fi", 9, 3, 0, 1, 2, 6, 0, 0, 1, 0, 0, 1, -7)
    b += struct.pack("<BH4HB0fi", 9, 4, 0, 1, 3, 2, 0, 7)
    b += struct.pack("<2i", 0, 1)
    corpus("fuzz_ply", "binary_odd_props.ply", b)

    corpus("fuzz_ply", "ascii_uint_indices.ply",
           ply_header("ascii", [("vertex", 4, ["int x", "short y", "uchar z"]),
                                ("face", 2, ["list uint8 uint32 vertex_indices"])])
           + "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n4 0 1 3 2\n")
    corpus("fuzz_ply", "big_endian.ply", ply_header("binary_big_endian", [("vertex", 0, XYZ_F)]))
    corpus("fuzz_ply", "header_only.ply", ply_header("ascii", [("vertex", 0, XYZ_F), ("face", 0, FACE_UCHAR_INT)]))

    R = "fuzz_ply"
    huge = "18446744073709551615"
    regression(R, "element_junk_huge_ascii.ply", "ply\nformat ascii 1.0\nelement junk %s\nend_header\n" % huge)
    regression(R, "element_junk_huge_binary.ply",
               "ply\nformat binary_little_endian 1.0\nelement junk %s\nend_header\n" % huge)
    regression(R, "face_no_props_4e9_ascii.ply",
               ply_header("ascii", [("vertex", 3, XYZ_F), ("face", 4000000000, [])]) + "0 0 0\n1 0 0\n0 1 0\n")
    regression(R, "face_no_props_4e9_binary.ply",
               ply_header("binary_little_endian", [("vertex", 3, XYZ_F), ("face", 4000000000, [])]).encode()
               + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0))
    regression(R, "count_overflow.ply",
               "ply\nformat ascii 1.0\nelement vertex 18446744073709551616\nproperty float x\n"
               "property float y\nproperty float z\nend_header\n0 0 0\n")
    regression(R, "count_trailing_tokens.ply",
               "ply\nformat ascii 1.0\nelement vertex 3 junk\nproperty float x\nproperty float y\n"
               "property float z\nelement face 1 2\nproperty list uchar int vertex_indices\nend_header\n"
               "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    int_xyz = ["int x", "int y", "int z"]
    regression(R, "ascii_int_nan.ply",
               ply_header("ascii", [("vertex", 3, int_xyz), ("face", 1, FACE_UCHAR_INT)]) + "nan 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    regression(R, "ascii_int_1e300.ply",
               ply_header("ascii", [("vertex", 3, int_xyz), ("face", 1, FACE_UCHAR_INT)]) + "1e300 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    regression(R, "ascii_int_inf.ply",
               ply_header("ascii", [("vertex", 3, int_xyz), ("face", 1, FACE_UCHAR_INT)]) + "-inf 0 0\n1 0 0\n0 1 0\n3 0 1 2\n")
    float_list = ["list uchar float vertex_indices"]
    regression(R, "float_index_nan.ply",
               ply_header("ascii", [("vertex", 3, XYZ_F), ("face", 1, float_list)]) + "0 0 0\n1 0 0\n0 1 0\n3 nan 1 2\n")
    regression(R, "float_index_1e300.ply",
               ply_header("ascii", [("vertex", 3, XYZ_F), ("face", 1, ["list uchar double vertex_indices"])])
               + "0 0 0\n1 0 0\n0 1 0\n3 0 1e300 2\n")
    regression(R, "binary_double_index_nan.ply",
               ply_header("binary_little_endian", [("vertex", 3, XYZ_F), ("face", 1, ["list uchar double vertex_indices"])]).encode()
               + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<B", 3)
               + struct.pack("<Q", 0x7FF8000000000001) + struct.pack("<2d", 1, 2))
    regression(R, "binary_float_index_inf.ply",
               ply_header("binary_little_endian", [("vertex", 3, XYZ_F), ("face", 1, float_list)]).encode()
               + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<B3f", 3, 0, float("inf"), -1e30))
    regression(R, "list_count_nan.ply",
               ply_header("ascii", [("vertex", 3, XYZ_F), ("face", 1, ["list int int vertex_indices"])])
               + "0 0 0\n1 0 0\n0 1 0\nnan 0 1 2\n")
    regression(R, "list_count_1e9.ply",
               ply_header("ascii", [("vertex", 3, XYZ_F), ("face", 1, ["list int int vertex_indices"])])
               + "0 0 0\n1 0 0\n0 1 0\n1000000000 0 1 2\n")
    regression(R, "binary_list_count_huge.ply",
               ply_header("binary_little_endian", [("vertex", 3, XYZ_F), ("face", 2, ["list uint int vertex_indices"])]).encode()
               + struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0) + struct.pack("<I3i", 3, 0, 1, 2)
               + struct.pack("<I", 999999999))
    regression(R, "vertex_count_4e9_truncated.ply",
               ply_header("binary_little_endian", [("vertex", 4000000000, XYZ_F)]).encode() + struct.pack("<3f", 0, 0, 0))
    regression(R, "many_empty_elements.ply",
               "ply\nformat ascii 1.0\n" + "".join("element e%d %s\n" % (i, huge) for i in range(16)) + "end_header\n")
    regression(R, "vertex_nan_unused.ply",
               ply_header("ascii", [("vertex", 4, XYZ_F), ("face", 1, FACE_UCHAR_INT)])
               + "nan nan nan\n0 0 0\n1 0 0\n0 1 0\n3 1 2 3\n")
    regression(R, "bom.ply", b"\xef\xbb\xbf" + tri_ascii.encode())


# ---------------------------------------------------------------- STL
def stl_ascii(facets, solid="solid"):
    s = "%s test\n" % solid
    for tri in facets:
        s += " facet normal 0 0 1\n  outer loop\n"
        for v in tri:
            s += "   vertex %s %s %s\n" % tuple(repr(float(c)) if not isinstance(c, str) else c for c in v)
        s += "  endloop\n endfacet\n"
    return s + "endsolid test\n"


def stl_binary(facets, header=b"binary stl"):
    b = header.ljust(80, b"\0")[:80] + struct.pack("<I", len(facets))
    for tri in facets:
        b += struct.pack("<3f", 0, 0, 1) + b"".join(struct.pack("<3f", *v) for v in tri) + b"\0\0"
    return b


CUBE_TRIS = []
for q in [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]:
    cv = [(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
    CUBE_TRIS += [(cv[q[0]], cv[q[1]], cv[q[2]]), (cv[q[0]], cv[q[2]], cv[q[3]])]
TRI = [((0, 0, 0), (1, 0, 0), (0, 1, 0))]


def fnv_weld_hash(w):
    """hash_vertex of the binary STL weld table (mesh_stl.c) on the 32-bit words of a vertex."""
    h = 1469598103934665603
    for x in w:
        h = ((h ^ x) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h ^ (h >> 29)


def weld_flood(facets, bits):
    """Distinct finite vertices whose weld hashes agree in the low `bits` bits: every insertion
    probes past all earlier ones in a linear-probing table of up to 2^bits slots."""
    x, y = struct.unpack("<2I", struct.pack("<2f", 1.0, 2.0))
    want = fnv_weld_hash((x, y, 0x3F800000)) & ((1 << bits) - 1)
    found, z = [], 0x3F800000
    while len(found) < 3 * facets:
        if fnv_weld_hash((x, y, z)) & ((1 << bits) - 1) == want:
            found.append(struct.unpack("<f", struct.pack("<I", z))[0])
        z += 1
    verts = [(1.0, 2.0, zf) for zf in found]
    return stl_binary([tuple(verts[3 * i:3 * i + 3]) for i in range(facets)], b"weld flood")


def stl_files():
    corpus("fuzz_stl", "ascii_tri.stl", stl_ascii(TRI))
    corpus("fuzz_stl", "ascii_cube.stl", stl_ascii(CUBE_TRIS))
    corpus("fuzz_stl", "ascii_exponents.stl",
           stl_ascii([(("1e-3", "-2.5E+2", "+1"), ("1.5e1", "0", "0"), ("0", "3.4e38", "-0"))]))
    corpus("fuzz_stl", "binary_tri.stl", stl_binary(TRI))
    corpus("fuzz_stl", "binary_cube.stl", stl_binary(CUBE_TRIS))
    corpus("fuzz_stl", "binary_solid_header.stl", stl_binary(CUBE_TRIS, b"solid but binary"))
    corpus("fuzz_stl", "binary_empty.stl", stl_binary([]))

    R = "fuzz_stl"
    regression(R, "SOLID_upper.stl", stl_ascii(CUBE_TRIS, "SOLID"))
    regression(R, "bom_ascii.stl", b"\xef\xbb\xbf" + stl_ascii(CUBE_TRIS).encode())
    regression(R, "weld_flood_small.stl", weld_flood(650, 12))
    regression(R, "binary_count_mismatch.stl", stl_binary(CUBE_TRIS)[:84 + 50 * 5])
    regression(R, "binary_count_huge.stl", stl_binary(TRI)[:80] + struct.pack("<I", 0xFFFFFFFF) + stl_binary(TRI)[84:])
    regression(R, "binary_nan_vertices.stl",
               stl_binary([((float("nan"), 0, 0), (1, 0, 0), (0, 1, 0))] + CUBE_TRIS[:2]
                          + [((float("inf"), 0, 0), (1, 3e38, 0), (0, -3e38, 0))]))
    regression(R, "ascii_1e39.stl", stl_ascii([(("1e39", "0", "0"), ("1", "0", "0"), ("0", "1", "0"))] + TRI))
    regression(R, "ascii_no_endsolid.stl", stl_ascii(TRI)[:-len("endsolid test\n")])
    regression(R, "ascii_long_token.stl", "solid x\nfacet normal " + "9" * 100000 + " 0 0\n")


# ---------------------------------------------------------------- .xz
def xz(data, *args):
    return subprocess.run(["xz", "-c", "-q", *args], input=data, stdout=subprocess.PIPE, check=True).stdout


def xz_files():
    tri = TRI_OBJ.encode()
    cube = CUBE_OBJ.encode()
    corpus("fuzz_xz", "tri.obj.xz", xz(tri))
    corpus("fuzz_xz", "cube.obj.xz", xz(cube, "-9e"))
    corpus("fuzz_xz", "cube_crc32_blocks.obj.xz", xz(cube * 3, "--check=crc32", "--block-size=64"))
    corpus("fuzz_xz", "tri_check_none.obj.xz", xz(tri, "--check=none"))
    corpus("fuzz_xz", "two_streams.obj.xz", xz(tri) + xz(b"v 0 0 1\nf 1 2 4\n"))
    corpus("fuzz_xz", "lzma_alone.obj.xz", xz(cube, "--format=lzma"))
    corpus("fuzz_xz", "empty.obj.xz", xz(b""))
    corpus("fuzz_xz", "not_xz.obj.xz", tri)

    R = "fuzz_xz"
    regression(R, "truncated.obj.xz", xz(cube * 20)[:-20])
    regression(R, "bad_crc.obj.xz", (lambda b: b[:40] + bytes([b[40] ^ 1]) + b[41:])(xz(cube)))
    regression(R, "stream_padding.obj.xz", xz(tri) + b"\0" * 8)
    regression(R, "garbage_after.obj.xz", xz(tri) + b"garbage")
    # Expands 8000:1: 1 GiB of NUL bytes from about 150 KB (the memory bound; a 458 KB file grew to 3 GB).
    # Half a minute of xz: made once (the bytes are committed).
    if not os.path.exists(os.path.join(ROOT, "regressions", R, "bomb_1gib_zeros.obj.xz")):
        zeros = subprocess.run("head -c 1073741824 /dev/zero | xz -c -q -9", shell=True, stdout=subprocess.PIPE,
                               check=True).stdout
        regression(R, "bomb_1gib_zeros.obj.xz", zeros)
    # 256 MiB of valid OBJ (comment lines) from about 40 KB: stopped only by the bytes limit.
    if not os.path.exists(os.path.join(ROOT, "regressions", R, "bomb_256mib_comments.obj.xz")):
        comments = subprocess.run("yes '# a comment line' | head -c 268435456 | xz -c -q -9", shell=True,
                                  stdout=subprocess.PIPE, check=True).stdout
        regression(R, "bomb_256mib_comments.obj.xz", comments)
    regression(R, "bomb_vertices.obj.xz", xz(b"v 1 2 3\n" * (1 << 21)))


# ---------------------------------------------------------------- renderer API (fuzz_render_desc)
SPECIAL_FLOATS = [0.0, -0.0, "nan", "-nan", "inf", "-inf", "max", "-max",
                  "min", "denorm", 1e-9, 6e-8, 1e38, 3e38, -3e38, 1e30,
                  -1e30, 1e-30, 1e-6, 3.14159, 3.1416, 1e20, 16777216.0, 2147483648.0,
                  4294967296.0, 1e10, -1e10, 0.5, 1.0, -1.0, 1000.0, 1e-20]
OP_CREATE, OP_MESH, OP_CAMERA, OP_DEFORM, OP_SHADING, OP_RESIZE, OP_RENDER, OP_READ = range(8)
MODE = {"shaded": 0, "triangle_id": 1, "normals": 2, "depth": 3, "tile_heat": 4, "slab": 5, "tests_heat": 6}
REF_HUGE = {1 << 62: 0, (1 << 62) + 1: 1, 1 << 63: 2, 2 ** 64 - 1: 3, 2 ** 64 - 2: 4, (2 ** 64 - 1) // 4 + 1: 5,
            1 << 61: 6, 1 << 32: 7}
DIM_HUGE = {(1 << 27) + 1: 1, 1 << 28: 2, 1 << 30: 3, 0x7FFFFFFF: 4, 0x80000000: 5, 0xFFFFFFFE: 6, 0xFFFFFFFF: 7}


def f32(x):
    """A float field: a special-table tag, a small-value tag, or raw IEEE bits."""
    if isinstance(x, str):
        return bytes([0x80 | SPECIAL_FLOATS.index(x)])
    if x != x or x in (float("inf"), float("-inf")):
        return f32({float("inf"): "inf", float("-inf"): "-inf"}.get(x, "nan"))
    xb = struct.pack("<f", x)
    for i, s in enumerate(SPECIAL_FLOATS):
        if not isinstance(s, str) and struct.pack("<f", s) == xb:
            return bytes([0x80 | i])
    for kind in range(4):
        step = 2.0 ** (2 * kind - 3)
        n = x / step
        if n == int(n) and -16 <= n <= 15:
            return bytes([(kind << 5) | (int(n) + 16)])
    return bytes([0xA0]) + xb


def floats(*xs):
    return b"".join(f32(x) for x in xs)


def dim(v):
    return bytes([0xE0 | DIM_HUGE[v]]) if v in DIM_HUGE else bytes([v])


def create(w=32, h=32, tile=8, slabs=16, cap=0, backend=0, flags=0, threads=0):
    capb = bytes([0xC0 | REF_HUGE[cap]]) if cap in REF_HUGE else bytes([cap // 37])
    return bytes([OP_CREATE, backend]) + dim(w) + dim(h) + bytes([tile, slabs, flags, threads]) + capb


TETRA = ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)])


def mesh(verts, tris):
    b = bytes([OP_MESH, len(verts), len(tris)]) + b"".join(floats(*v) for v in verts)
    for t in tris:
        for i in t:
            b += bytes([i]) if i < 240 and i < len(verts) else bytes([0xF0]) + struct.pack("<I", i)
    return b


def camera(eye=(1.5, 1.25, 2.5), target=(0.25, 0.25, 0.25), up=(0, 0, 0), fovy=0.0, near=0.0, far=0.0):
    return bytes([OP_CAMERA]) + floats(*eye, *target, *up, fovy, near, far)


def deform(twist=(0, (0, 0, 0), 0), bend=(0, (0, 0, 0), (0, 0, 0), 0), wave=(0, (0, 0, 0), (0, 0, 0), 0, 0),
           pulse=(0, 0, 0), noise=(0, 0, 0), seed=0):
    return (bytes([OP_DEFORM, 1]) + floats(twist[0], *twist[1], twist[2]) + floats(bend[0], *bend[1], *bend[2], bend[3])
            + floats(wave[0], *wave[1], *wave[2], wave[3], wave[4]) + floats(*pulse) + floats(*noise)
            + struct.pack("<I", seed))


def shading(mode="shaded", light=(0, 0, 0), ambient=0.0, albedo=(0, 0, 0), bottom=(0, 0, 0), top=(0, 0, 0), heat=0.0):
    m = MODE[mode] if isinstance(mode, str) else mode
    return bytes([OP_SHADING, ((m + 1) << 3) | 1]) + floats(*light, ambient, *albedo, *bottom, *top, heat)


def resize(w, h):
    return bytes([OP_RESIZE]) + dim(w) + dim(h)


def render(time=0.0, rgba=True, pitch=1, positions=None, surface=False, options=None):
    """options: (cull, flat) set with sc_renderer_set_options before the frame."""
    flags = (2 if rgba else 0) | (pitch << 2) | (16 if surface else 0) | (1 if positions is not None else 0)
    if options is not None:
        flags |= 32 | (64 if options[0] else 0) | (128 if options[1] else 0)
    b = bytes([OP_RENDER]) + f32(time) + bytes([flags])
    if positions is not None:
        b += floats(*positions)
    if rgba and pitch == 2:
        b += bytes([7])
    if surface:
        b += bytes([1])
    return b


def lights(ls, shadows=1):
    """Op 0xFF: ls = [(type, position, direction, colour, intensity, no_shadows)], then the shadows option.
    type: 0 point, 1 directional, -1 and 2 invalid."""
    b = bytes([0xFF, len(ls)])
    for t, pos, d, col, inten, nos in ls:
        b += bytes([(t + 1) | (4 if nos else 0)]) + floats(*pos, *d, *col, inten)
    return b + bytes([shadows])


def render_files():
    C, R = corpus, regression
    T = "fuzz_render_desc"
    P0 = (0, 0, 0)
    C(T, "shadows_point", lights([(0, (2, 2, 2), P0, P0, 0, 0)]) + render() + shading(7) + render(0.5)
      + shading(8) + render(1.0) + bytes([OP_READ]))
    C(T, "shadows_mixed", lights([(0, (2, 2, 2), P0, P0, 0, 0), (1, P0, (-1, -1, -1), (1, 0.5, 0.25), 2, 0),
                                  (0, (0.25, 0.25, 0.25), P0, P0, 0, 1)]) + render(0.5, options=(1, 0))
      + lights([], 0) + render(1.0))
    R(T, "lights_invalid", lights([(0, P0, P0, P0, 0, 0)] * 5) + lights([(2, P0, P0, P0, 0, 0)])
      + lights([(-1, P0, P0, P0, 0, 0)]) + lights([(0, ("nan", 0, 0), P0, P0, 0, 0)])
      + lights([(1, P0, P0, P0, 0, 0)]) + lights([(0, P0, P0, P0, -1.0, 0)]) + lights([(0, P0, P0, (-1, 0, 0), 0, 0)])
      + render())
    R(T, "lights_extreme", lights([(0, (3e38, 3e38, 3e38), P0, P0, "max", 0), (1, P0, ("max", "denorm", 0), P0, 0, 0),
                                   (0, (0.25, 0.25, 0.25), P0, P0, 0, 0), (0, ("-max", 0, "max"), P0, P0, 0, 0)])
      + render() + mesh([(3e38, 0, 0), (-3e38, 1, 0), (0, 3e38, 0), (0, 0, "max")], [(0, 1, 2), (1, 2, 3)])
      + render(0.5) + bytes([OP_READ]))
    C(T, "base_render", render())
    C(T, "modes", b"".join(shading(m) + render(0.5) for m in ("shaded", "normals", "depth", "tile_heat", "slab", "tests_heat")))
    C(T, "create_tetra", create(48, 40, 4, 8) + mesh(*TETRA) + render() + bytes([OP_READ]))
    C(T, "deform_all", deform((1.0, (0, 1, 0), 0.25), (0.5, (0, 1, 0), (1, 0, 0), 0.25), (0.125, (1, 0, 0), (0, 1, 0), 0.5, 0.5),
                              (0.125, 0.5, 1.0), (0.125, 4.0, 0.5), 7) + render(0.75) + render(1.5))
    C(T, "camera_inside", camera((0.25, 0.25, 0.25), (1, 1, 1), near=0.001) + render())
    C(T, "resize_pitch", resize(17, 9) + render(pitch=2) + resize(64, 1) + render(pitch=0))
    C(T, "positions", render(0, positions=[0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1.5]))
    # Vertices out of first-use order (vertex 0 unused, NaN): the caller's order kept (create flag 4)
    # and the default first-use order, each with a frame from caller positions read back.
    OUT_OF_ORDER = ([("nan", 0, 0), (0, 1, 0), (1, 0, 0), (0, 0, 1), (0, 0, 0)], [(4, 3, 2), (4, 2, 1), (4, 1, 3), (1, 2, 3)])
    POS = [0.5, "nan", 0, 0, 1, 0, 1, 0, 0, 0, 0, 1.5, 0, 0, 0]
    C(T, "vertex_order", create(40, 32, 8, 16, flags=4) + mesh(*OUT_OF_ORDER) + render(0.5) + render(0, positions=POS)
      + bytes([OP_READ]) + create(40, 32) + mesh(*OUT_OF_ORDER) + render(0, positions=POS) + bytes([OP_READ]))
    C(T, "tiles_slabs", create(64, 64, 1, 64, 0, flags=3) + mesh(*TETRA) + camera() + render())
    C(T, "options_toggle", render(0.5, options=(1, 1)) + render(1.0, options=(0, 1)) + render(1.5, options=(1, 0))
      + render(2.0, options=(0, 0)))

    R(T, "heat_max_1e-9", shading("tile_heat", heat=1e-9) + render() + shading("tests_heat", heat=1e-9) + render())
    R(T, "heat_max_6e-8", shading("tile_heat", heat=6e-8) + render() + shading("tests_heat", heat="denorm") + render())
    R(T, "heat_max_nonfinite", shading("tile_heat", heat="nan") + render() + shading("tests_heat", heat="inf") + render()
      + shading("tests_heat", heat=-1.0) + render())
    for cap in (1 << 62, (1 << 62) + 1, 1 << 63, 2 ** 64 - 1, 1 << 61, 1 << 32):
        R(T, "ref_capacity_2p%d" % (cap.bit_length() - 1) if cap & (cap - 1) == 0 else "ref_capacity_%x" % cap,
          create(32, 32, 8, 16, cap) + mesh(*TETRA) + render())
    R(T, "deform_nonfinite", deform((float("nan"), (0, 1, 0), 0.25), (float("inf"), (0, 0, 0), (0, 0, 0), 0),
                                    ("max", (0, 0, 0), (0, 0, 0), 1e-30, 1e30), ("-inf", 0, 0), ("nan", 0, 0)) + render(1.0))
    R(T, "deform_huge", deform((3e38, (3e38, 3e38, 0), 3e38), (3e38, (1, 0, 0), (1, 0, 0), 1e30),
                               (1e30, (0, 0, 0), (0, 0, 0), "min", 3e38), (1e30, 1e30, 1e30), (1e30, 1e30, 1e30), 1) + render(1e30))
    R(T, "deform_zero_axes", deform((1.0, (1e-30, 0, 0), 0), (1.0, (0, 1, 0), (0, 1, 0), 0), (1.0, (1e-30, 0, 0), (0, 0, 0), 1e-30, 0))
      + render(0.5))
    R(T, "shading_nonfinite", shading("shaded", ("nan", 0, 0), "inf", ("nan", "inf", "-inf"), ("nan", 0, 0), (3e38, 0, 0))
      + render() + shading("normals", ambient="-nan") + render() + shading(-1) + shading(7) + render())
    R(T, "time_nonfinite", render("nan") + render("inf") + render(3e38) + render("max"))
    R(T, "mesh_bad_indices", mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0)], [(0, 1, 3), (0, 1, 0xFFFFFFFF)]) + render())
    R(T, "mesh_nonfinite", mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), ("nan", 0, 0)], [(0, 1, 2)]) + render())
    R(T, "mesh_3e38", mesh([(3e38, 0, 0), (-3e38, 1, 0), (0, 3e38, 0), (0, 0, "max")], [(0, 1, 2), (1, 2, 3)]) + render()
      + bytes([OP_READ]))
    R(T, "mesh_far_unused", mesh([(0, 0, 0), (1, 0, 0), (0, 1, 0), ("max", "-max", "max")], [(0, 1, 2)]) + render())
    R(T, "mesh_empty", mesh([], []) + render() + mesh([(0, 0, 0)], []) + render() + bytes([OP_READ]))
    R(T, "mesh_tiny", mesh([(0, 0, 0), ("denorm", 0, 0), (0, "denorm", 0)], [(0, 1, 2)]) + camera((0, 0, "min"), (0, 0, 0), near="denorm")
      + render())
    R(T, "camera_extremes", camera(fovy=3.14159, near="denorm", far="max") + render() + camera(fovy=3.1416) + render()
      + camera((3e38, 3e38, 3e38), (-3e38, -3e38, -3e38)) + render() + camera((0, 0, 1e-30), (0, 0, 0)) + render()
      + camera((0, 0, 1), (0, 0, 0), (0, 0, 1)) + camera(near=1e-30, far=1e30) + render())
    R(T, "positions_nonfinite", render(0, positions=["nan", 0, 0, "inf", 0, 0, 3e38, -3e38, 0, "max", "max", "max"]))
    R(T, "tile1_slabs1024", create(64, 64, 1, 0xE0, 0) + mesh(*TETRA) + render())
    R(T, "create_invalid", create(0, 32) + create(0xFFFFFFFF, 1) + create(64, 0x80000000) + create(32, 32, 33)
      + create(32, 32, 8, 0xE1) + create(32, 32, 8, 16, backend=4) + create(32, 32, 8, 16, backend=6)
      + create(32, 32, 8, 16, backend=7) + render())
    R(T, "resize_invalid", resize(0, 1) + resize(0xFFFFFFFF, 1) + resize((1 << 27) + 1, 1) + resize(1, 0x80000000) + render())
    R(T, "pitch_and_surface", render(pitch=3) + render(surface=True) + resize(1, 1) + render(pitch=3))


def main():
    obj_files()
    ply_files()
    stl_files()
    xz_files()
    render_files()
    return 0


if __name__ == "__main__":
    sys.exit(main())
