#!/usr/bin/env python3
"""check_png.py FILE WIDTH HEIGHT: FILE is a valid PNG (signature, every chunk's CRC, IHDR first and
IEND last, the zlib stream and its Adler-32, one filter byte a row) of WIDTH x HEIGHT 8-bit RGBA
pixels, and shows something: more than 1% of the pixels differ from the first pixel of their row (slabcast's
background is a vertical gradient: one colour a row)."""
import struct
import sys
import zlib


def fail(msg):
    sys.exit(f"check_png: {sys.argv[1]}: {msg}")


def main():
    path, want_w, want_h = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    try:
        data = open(path, "rb").read()
    except OSError as e:
        fail(f"cannot read: {e}")
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("no PNG signature")
    pos, chunks = 8, []
    while pos < len(data):
        if pos + 12 > len(data):
            fail(f"truncated chunk at byte {pos}")
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        if len(body) != n or zlib.crc32(kind + body) != crc:
            fail(f"chunk {kind!r} at byte {pos}: bad length or CRC")
        chunks.append((kind, body))
        pos += 12 + n
    if not chunks or chunks[0][0] != b"IHDR" or chunks[-1][0] != b"IEND":
        fail("IHDR must come first and IEND last")
    w, h, depth, colour, comp, filt, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    if (w, h) != (want_w, want_h):
        fail(f"{w}x{h}, expected {want_w}x{want_h}")
    if (depth, colour, comp, filt, interlace) != (8, 6, 0, 0, 0):
        fail(f"not 8-bit RGBA without interlace: {(depth, colour, comp, filt, interlace)}")
    try:
        raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    except zlib.error as e:
        fail(f"bad zlib stream: {e}")
    row = 1 + 4 * w
    if len(raw) != row * h:
        fail(f"{len(raw)} bytes of image data, expected {row * h}")
    if any(raw[y * row] != 0 for y in range(h)):
        fail("a row with a filter other than 0 (the writer under test filters none)")
    differing = 0
    for y in range(h):
        first = raw[y * row + 1:y * row + 5]
        differing += sum(raw[y * row + 1 + 4 * x:y * row + 5 + 4 * x] != first for x in range(w))
    if differing * 100 <= w * h:
        fail(f"only {differing} of {w * h} pixels differ from the first of their row: nothing drawn")
    print(f"check_png: {path}: {w}x{h} RGBA, {differing} pixels unlike the first of their row")


main()
