#!/usr/bin/env python3
"""check_fatbin_archs.py - the CUDA code a built binary holds, per architecture, without the CUDA tools.

    check_fatbin_archs.py ARCHS FILE...

ARCHS is the build's CMAKE_CUDA_ARCHITECTURES ("75-real;80-real;90-real;90-virtual"; a plain "90" is
SASS and PTX; "all" / "native" forms are not checked). Each FILE is an ELF object or executable or an
ar archive of objects (a static library). Every object that holds device code (an .nv_fatbin section
or a __nv_relfatbin one) must hold machine code (an ELF cubin) for each NN-real architecture and PTX for
each NN-virtual one, as `cuobjdump --list-elf` / `--list-ptx` would list them; the test fails otherwise,
and when no object of a FILE holds device code at all.

The fat binary layout (as nvcc and the CUDA runtime write and read it; the same fields as the
cuobjdump clones use): a header of 16 bytes, little-endian: magic 0xBA55ED50 (u32), version (u16),
header size (u16), size of the entries that follow (u64); then entries, each a header of its own:
kind (u16: 1 PTX, 2 ELF cubin), version (u16), header size (u32), payload size (u64), compressed size
(u32), unknown (u32), minor / major version (u16, u16), architecture (u32, e.g. 90), ... ; the
payload follows its header. An .nv_fatbin section of a linked program holds one such fat binary per
translation unit, one after another (8-byte aligned), which is why the whole section is scanned.
"""
import struct
import sys

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_ELF = 1, 2


def parse_archs(text):
    """(set of SASS archs, set of PTX archs) of a CMAKE_CUDA_ARCHITECTURES value."""
    sass, ptx = set(), set()
    for item in text.replace(",", ";").split(";"):
        item = item.strip()
        if not item:
            continue
        num, _, kind = item.partition("-")
        if not num.isdigit():
            raise SystemExit(f"check_fatbin_archs: cannot check architecture '{item}' (not NN, NN-real or NN-virtual)")
        if kind in ("", "real"):
            sass.add(int(num))
        if kind in ("", "virtual"):
            ptx.add(int(num))
        if kind not in ("", "real", "virtual"):
            raise SystemExit(f"check_fatbin_archs: unknown architecture kind in '{item}'")
    return sass, ptx


def elf_sections(data):
    """{name: bytes} of the sections of a 64-bit little-endian ELF image."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return {}
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0 or shnum == 0:
        return {}
    heads = []
    for i in range(shnum):
        name, stype, _flags, _addr, off, size = struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize)
        heads.append((name, stype, off, size))
    _, _, stroff, strsize = heads[shstrndx]
    strtab = data[stroff:stroff + strsize]
    out = {}
    for name, stype, off, size in heads:
        end = strtab.find(b"\0", name)
        sname = strtab[name:end].decode("ascii", "replace")
        if stype == 8:  # SHT_NOBITS
            continue
        out[sname] = data[off:off + size]
    return out


def fatbin_entries(blob):
    """[(kind, arch)] of every fat binary in blob (a section's bytes)."""
    entries = []
    pos = 0
    while pos + 16 <= len(blob):
        magic, = struct.unpack_from("<I", blob, pos)
        if magic != FATBIN_MAGIC:
            pos += 8 if pos % 8 == 0 else 8 - pos % 8
            continue
        _version, hsize, fat_size = struct.unpack_from("<HHQ", blob, pos + 4)
        e = pos + hsize
        end = min(pos + hsize + fat_size, len(blob))
        while e + 32 <= end:
            kind, _ev, ehsize, psize = struct.unpack_from("<HHIQ", blob, e)
            if ehsize < 32 or kind not in (KIND_PTX, KIND_ELF, 4):
                break
            arch, = struct.unpack_from("<I", blob, e + 28)
            entries.append((kind, arch))
            e += ehsize + psize
        pos = max(end, pos + 16)
        pos += (8 - pos % 8) % 8
    return entries


def ar_members(data):
    """[(name, bytes)] of a System V / GNU ar archive."""
    members = []
    pos = 8
    longnames = b""
    while pos + 60 <= len(data):
        head = data[pos:pos + 60]
        name = head[:16].decode("ascii", "replace").strip()
        size = int(head[48:58].decode("ascii").strip() or 0)
        body = data[pos + 60:pos + 60 + size]
        if name == "//":
            longnames = body
        elif name.startswith("/") and name[1:].isdigit():
            off = int(name[1:])
            name = longnames[off:longnames.find(b"\n", off)].decode("ascii", "replace").rstrip("/")
        else:
            name = name.rstrip("/")
        if name not in ("", "/", "//", "/SYM64"):
            members.append((name, body))
        pos += 60 + size + (size & 1)
    return members


def device_code(image):
    """[(kind, arch)] of an ELF image's fat binaries, or None when it holds none."""
    sections = elf_sections(image)
    found = None
    for name in (".nv_fatbin", "__nv_relfatbin"):
        if name in sections:
            found = (found or []) + fatbin_entries(sections[name])
    return found


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    want_sass, want_ptx = parse_archs(argv[1])
    failed = False
    for path in argv[2:]:
        with open(path, "rb") as f:
            data = f.read()
        objects = ar_members(data) if data[:8] == b"!<arch>\n" else [(path, data)]
        with_code = 0
        for name, image in objects:
            entries = device_code(image)
            if entries is None:
                continue
            with_code += 1
            sass = {a for k, a in entries if k == KIND_ELF}
            ptx = {a for k, a in entries if k == KIND_PTX}
            missing = [f"sm_{a}" for a in sorted(want_sass - sass)] + [f"compute_{a} (PTX)" for a in sorted(want_ptx - ptx)]
            if missing:
                failed = True
                print(f"FAIL {path}({name}): no {', '.join(missing)}; holds SASS "
                      f"{sorted(sass)}, PTX {sorted(ptx)}")
        if with_code == 0:
            failed = True
            print(f"FAIL {path}: no object holds device code")
        else:
            print(f"ok   {path}: {with_code} object(s) with device code, each with SASS "
                  f"{', '.join('sm_%d' % a for a in sorted(want_sass))}"
                  + (f" and PTX {', '.join('compute_%d' % a for a in sorted(want_ptx))}" if want_ptx else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
