"""Writes the home-screen icons (icon-192.png, icon-512.png) beside this file.

A red dragon tile (中 drawn as a box and a stroke) on the page's green,
inside the middle 80% so a maskable crop keeps it. Plain Python: zlib
and struct only. Run it again after changing the drawing; the PNGs are
committed so the server embeds them with no build step.
"""

import struct
import zlib
from pathlib import Path

GREEN = (0x0F, 0x6E, 0x4F)
IVORY = (0xFB, 0xF8, 0xF0)
RED = (0xB3, 0x26, 0x1E)


def pixel(x, y, n):
    """The colour at (x, y) of an n x n icon, in units of n."""
    u, v = x / n, y / n
    # The tile: 50% wide, 64% high, corners rounded by 4%.
    left, right, top, bottom, r = 0.25, 0.75, 0.18, 0.82, 0.04
    if not (left <= u <= right and top <= v <= bottom):
        return GREEN
    cx = min(max(u, left + r), right - r)
    cy = min(max(v, top + r), bottom - r)
    if (u - cx) ** 2 + (v - cy) ** 2 > r * r:
        return GREEN
    # 中: a box across the middle and one stroke through it, top to bottom.
    box = (0.33, 0.67, 0.40, 0.60)
    w = 0.035
    in_box = box[0] <= u <= box[1] and box[2] <= v <= box[3]
    on_edge = in_box and (u < box[0] + w or u > box[1] - w or v < box[2] + w or v > box[3] - w)
    stroke = abs(u - 0.5) <= w / 2 + 0.005 and 0.28 <= v <= 0.72
    return RED if on_edge or stroke else IVORY


def png(n):
    rows = b"".join(b"\0" + bytes(c for x in range(n) for c in pixel(x + 0.5, y + 0.5, n)) for y in range(n))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", n, n, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


if __name__ == "__main__":
    here = Path(__file__).parent
    for n in (192, 512):
        (here / f"icon-{n}.png").write_bytes(png(n))
