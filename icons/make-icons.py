#!/usr/bin/env python3
"""Draws the Minne app icon as RGBA PNGs with the standard library only (zlib, no PIL).

The PNGs are committed; run this again only to change the design:
    python3 icons/make-icons.py
Design: a rounded indigo square with a dot, a ring and a fainter outer ring: memories fading.
"""
import math
import struct
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
SIZES = {"32x32.png": 32, "64x64.png": 64, "128x128.png": 128, "128x128@2x.png": 256, "icon.png": 512}
SUPERSAMPLE = 4


def coverage(size: int, x: int, y: int) -> tuple[float, float]:
    """Fractions of a pixel covered by the rounded square and by the white mark."""
    bg = mark = 0
    radius = 0.22 * size
    for sy in range(SUPERSAMPLE):
        for sx in range(SUPERSAMPLE):
            px = x + (sx + 0.5) / SUPERSAMPLE
            py = y + (sy + 0.5) / SUPERSAMPLE
            # Rounded square with a small margin.
            m = 0.04 * size
            cx = min(max(px, m + radius), size - m - radius)
            cy = min(max(py, m + radius), size - m - radius)
            if math.hypot(px - cx, py - cy) <= radius:
                bg += 1
                d = math.hypot(px - size / 2, py - size / 2)
                ring = abs(d - 0.23 * size) <= 0.045 * size
                dot = d <= 0.085 * size
                faded = abs(d - 0.37 * size) <= 0.03 * size  # an older memory, fading
                if ring or dot:
                    mark += 1
                elif faded:
                    mark += 0.45
    n = SUPERSAMPLE * SUPERSAMPLE
    return bg / n, mark / n


def pixel(size: int, x: int, y: int) -> bytes:
    bg, mark = coverage(size, x, y)
    if bg == 0:
        return bytes((0, 0, 0, 0))
    t = (x + y) / (2 * size)  # diagonal gradient, indigo to violet
    base = (int(67 + 40 * t), int(56 + 10 * t), int(202 - 10 * t))
    share = mark / bg
    rgb = tuple(int(c * (1 - share) + 255 * share) for c in base)
    return bytes((*rgb, int(round(255 * bg))))


def png(size: int) -> bytes:
    rows = b"".join(b"\x00" + b"".join(pixel(size, x, y) for x in range(size)) for y in range(size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    for name, size in SIZES.items():
        (HERE / name).write_bytes(png(size))
        print(f"wrote icons/{name} ({size}x{size} RGBA)")
