#!/usr/bin/env bash
# Runs the viewer in a real GLFW window under Xvfb (Mesa), renders a few frames, saves the window's
# framebuffer and checks the image is not empty. Exit 77 (skipped) when Xvfb is not installed.
set -u
bin=$1 out=$2
command -v xvfb-run >/dev/null || { echo "SKIP: xvfb-run not installed"; exit 77; }
rm -f "$out"
xvfb-run -a -s "-screen 0 640x480x24" "$bin" --window --backend cpu --resolution 24 --size 160x120 --frames 3 \
  --mode normals --out "$out" || exit 1
[ -s "$out" ] || { echo "FAIL: no screenshot $out"; exit 1; }
# The mesh must cover a good part of the window: decode the PNG (python3's zlib) and count pixels.
if command -v /usr/bin/python3 >/dev/null; then
  /usr/bin/python3 - "$out" <<'PY' || exit 1
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w, h = 8, b'', 0, 0
while pos < len(data):
    n, = struct.unpack('>I', data[pos:pos+4]); kind = data[pos+4:pos+8]; body = data[pos+8:pos+8+n]
    if kind == b'IHDR': w, h = struct.unpack('>II', body[:8])
    if kind == b'IDAT': idat += body
    pos += 12 + n
raw = zlib.decompress(idat); stride = w * 4 + 1
rows, prev = [], bytearray(w * 4)
for y in range(h):
    f = raw[y*stride]; line = bytearray(raw[y*stride+1:(y+1)*stride])
    for i in range(len(line)):
        a = line[i-4] if i >= 4 else 0; b = prev[i]; c = prev[i-4] if i >= 4 else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
    rows.append(bytes(line)); prev = line
# The background is a vertical gradient: constant along a row, so the row's first pixel is background.
covered = sum(1 for r in rows for x in range(w) if r[4*x:4*x+4] != r[0:4])
print(f"viewer screenshot {w}x{h}: {covered} pixels differ from their row's background")
assert (w, h) == (160, 120), (w, h)
assert covered > w * h // 20, "the mesh covers almost nothing"
PY
fi
echo "PASS: viewer rendered and saved $out"
