#!/usr/bin/env python3
"""check_cloth.py FIRST.png LAST.png: two frames written by the cloth example (examples/cloth) show the
scene and the simulation moved it. The example colours the model jade, the cloth red and the ground grey
(the renderer's albedo for the model, the others recoloured through the hit buffer); the background is a
blue-grey gradient. Checks: both frames have the same size; the cloth covers at least 1% of each frame;
the model at least 0.5% of the first (the cloth starts above it); and at least 2% of the pixels differ
between the frames (the cloth fell). Reads what check_png.py validates: 8-bit RGBA, filter 0 rows."""
import struct
import sys
import zlib


def fail(msg):
    sys.exit(f"check_cloth: FAIL: {msg}")


def read_png(path):
    try:
        data = open(path, "rb").read()
    except OSError as e:
        fail(f"cannot read {path}: {e}")
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path}: no PNG signature")
    pos, idat, size = 8, b"", None
    while pos + 12 <= len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
            if (depth, colour) != (8, 6):
                fail(f"{path}: not 8-bit RGBA")
            size = (w, h)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if size is None:
        fail(f"{path}: no IHDR")
    w, h = size
    raw = zlib.decompress(idat)
    row = 1 + 4 * w
    if len(raw) != row * h or any(raw[y * row] != 0 for y in range(h)):
        fail(f"{path}: unexpected image data (check_png.py says what)")
    pixels = [tuple(raw[y * row + 1 + 4 * x:y * row + 4 + 4 * x]) for y in range(h) for x in range(w)]
    return w, h, pixels


def is_cloth(p):
    r, g, b = p
    return r >= 24 and r > 2 * g and r > 2 * b


def is_model(p):
    r, g, b = p
    return g >= 20 and g * 4 > r * 5 and g * 5 > b * 6


def main():
    first, last = sys.argv[1], sys.argv[2]
    w, h, a = read_png(first)
    w2, h2, b = read_png(last)
    if (w, h) != (w2, h2):
        fail(f"{first} is {w}x{h}, {last} {w2}x{h2}")
    n = w * h
    cloth_a, cloth_b = sum(map(is_cloth, a)), sum(map(is_cloth, b))
    model_a, model_b = sum(map(is_model, a)), sum(map(is_model, b))
    moved = sum(any(abs(x - y) > 8 for x, y in zip(p, q)) for p, q in zip(a, b))
    print(f"check_cloth: {w}x{h}: cloth {100 * cloth_a / n:.1f}% -> {100 * cloth_b / n:.1f}% of the pixels, "
          f"model {100 * model_a / n:.1f}% -> {100 * model_b / n:.1f}%, {100 * moved / n:.1f}% of the pixels changed")
    if cloth_a * 100 < n or cloth_b * 100 < n:
        fail("the cloth (red) covers less than 1% of a frame")
    if model_a * 200 < n:
        fail("the model (jade) covers less than 0.5% of the first frame")
    if moved * 50 < n:
        fail("the frames differ in less than 2% of the pixels: the cloth did not move")


main()
