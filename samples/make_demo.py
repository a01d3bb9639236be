#!/usr/bin/env python3
"""Writes samples/demo/: the yarn sample library as an unpacked backup (format v1).

    python3 samples/make_demo.py            # (re)writes samples/demo/
    python3 samples/make_demo.py --check    # regenerates in memory, compares with samples/demo/
    python3 samples/make_demo.py --out DIR  # writes somewhere else

Python 3.8+ standard library only. Everything is deterministic: IDs are UUIDv5 of fixed keys,
dates are fixed, the JPEG photos are drawn procedurally with integer noise and compressed by the
baseline JPEG encoder below (ITU-T T.81 / JFIF 1.02), and the pattern PDF is written by hand
(PDF 1.4, uncompressed, exact xref offsets). So the output is byte-for-byte the same on every run.

The JSON is written the way YarnCore's `JSONCoding.encoder()` writes it (Swift's JSONEncoder
with .sortedKeys, .prettyPrinted, .withoutEscapingSlashes): `"key" : value`, two-space indent,
keys in code-point order, empty arrays as "[\n\n<indent>]", no final newline, nil optionals left
out, whole doubles without ".0". Tests/YarnCoreTests/SampleLibraryTests.swift checks that
decoding and re-encoding library.json in Swift gives the same bytes.

Times: the crafter lives in America/New_York. Sessions are given in local clock time and turned
into UTC here by the US rule for 2026 (EST = UTC-5 until 2026-03-08 02:00, EDT = UTC-4 until
2026-11-01 02:00, then EST); durations are absolute minutes.
"""

import hashlib
import math
import os
import sys
import uuid

# ---------------------------------------------------------------------------------------------
# JSON the way Swift's JSONEncoder (sorted keys, pretty printed, slashes unescaped) writes it.


def _json_string(text):
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        elif code < 0x20:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _json_number(value):
    if isinstance(value, bool):
        raise TypeError("bool is not a number")
    if isinstance(value, int):
        return str(value)
    if not math.isfinite(value):
        raise ValueError("non-finite number %r" % value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = repr(value)
    # Swift prints exponents differently; keep the sample's numbers plain.
    if "e" in text or "E" in text:
        raise ValueError("number %r would need an exponent" % value)
    return text


def swift_json(value, indent=0):
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, dict):
        items = [(k, v) for k, v in value.items() if v is not None]
        if not items:
            return "{\n\n" + pad + "}"
        parts = [
            inner + _json_string(k) + " : " + swift_json(v, indent + 1)
            for k, v in sorted(items, key=lambda kv: kv[0])
        ]
        return "{\n" + ",\n".join(parts) + "\n" + pad + "}"
    if isinstance(value, list):
        if not value:
            return "[\n\n" + pad + "]"
        parts = [inner + swift_json(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(parts) + "\n" + pad + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _json_string(value)
    return _json_number(value)


# ---------------------------------------------------------------------------------------------
# A baseline JPEG encoder (ITU-T T.81, Annex K tables; JFIF 1.02), 4:2:0, integer colour maths.

ZIGZAG = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
]

LUMA_Q = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
    14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
    18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
    49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
]
CHROMA_Q = [
    17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
    24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
] + [99] * 32

DC_LUMA_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
DC_CHROMA_BITS = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
DC_VALUES = list(range(12))
AC_LUMA_BITS = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
AC_LUMA_VALUES = bytes.fromhex(
    "01020300041105122131410613516107227114328191a1082342b1c11552d1f0"
    "2433627282090a161718191a25262728292a3435363738393a43444546474849"
    "4a535455565758595a636465666768696a737475767778797a83848586878889"
    "8a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5"
    "c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8e9eaf1f2f3f4f5f6f7f8"
    "f9fa"
)
AC_CHROMA_BITS = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77]
AC_CHROMA_VALUES = bytes.fromhex(
    "000102031104052131061241510761711322328108144291a1b1c109233352f0"
    "156272d10a162434e125f11718191a262728292a35363738393a434445464748"
    "494a535455565758595a636465666768696a737475767778797a828384858687"
    "88898a92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3"
    "c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8"
    "f9fa"
)
assert len(AC_LUMA_VALUES) == sum(AC_LUMA_BITS) == 162
assert len(AC_CHROMA_VALUES) == sum(AC_CHROMA_BITS) == 162


def _huffman_codes(bits, values):
    """Code table {symbol: (code, length)} from BITS/HUFFVAL (T.81 Annex C)."""
    codes = {}
    code = 0
    k = 0
    for length in range(1, 17):
        for _ in range(bits[length - 1]):
            codes[values[k]] = (code, length)
            code += 1
            k += 1
        code <<= 1
    return codes


def _scaled_table(base, quality):
    scale = 5000 // quality if quality < 50 else 200 - 2 * quality
    return [min(255, max(1, (q * scale + 50) // 100)) for q in base]


# DCT-II basis: C[u][x] = a(u)/2 * cos((2x+1) u pi / 16).
_DCT = [
    [(math.sqrt(0.5) if u == 0 else 1.0) / 2.0 * math.cos((2 * x + 1) * u * math.pi / 16.0)
     for x in range(8)]
    for u in range(8)
]


def _fdct_quantize(block, qtable):
    """Forward DCT of 64 level-shifted samples, quantized, in zigzag order."""
    rows = []
    for y in range(8):
        r = block[y * 8:y * 8 + 8]
        rows.append([sum(c * s for c, s in zip(basis, r)) for basis in _DCT])
    coeffs = [0.0] * 64
    for u in range(8):
        column = [rows[y][u] for y in range(8)]
        for v in range(8):
            coeffs[v * 8 + u] = sum(c * s for c, s in zip(_DCT[v], column))
    out = []
    for k in range(64):
        n = ZIGZAG[k]
        value = coeffs[n] / qtable[n]
        out.append(int(value + 0.5) if value >= 0 else -int(-value + 0.5))
    return out


class _BitWriter:
    def __init__(self):
        self.out = bytearray()
        self.acc = 0
        self.count = 0

    def write(self, code, length):
        self.acc = (self.acc << length) | code
        self.count += length
        while self.count >= 8:
            self.count -= 8
            byte = (self.acc >> self.count) & 0xFF
            self.out.append(byte)
            if byte == 0xFF:
                self.out.append(0)  # byte stuffing (T.81 F.1.2.3)
        self.acc &= (1 << self.count) - 1

    def flush(self):
        if self.count:
            self.write((1 << (8 - self.count)) - 1, 8 - self.count)  # pad with 1-bits


def _encode_block(writer, coeffs, previous_dc, dc_codes, ac_codes):
    diff = coeffs[0] - previous_dc
    size = abs(diff).bit_length()
    writer.write(*dc_codes[size])
    if size:
        writer.write(diff if diff > 0 else diff + (1 << size) - 1, size)
    run = 0
    for k in range(1, 64):
        value = coeffs[k]
        if value == 0:
            run += 1
            continue
        while run > 15:
            writer.write(*ac_codes[0xF0])  # ZRL
            run -= 16
        size = abs(value).bit_length()
        writer.write(*ac_codes[(run << 4) | size])
        writer.write(value if value > 0 else value + (1 << size) - 1, size)
        run = 0
    if run:
        writer.write(*ac_codes[0x00])  # EOB
    return coeffs[0]


def _segment(marker, payload):
    return bytes([0xFF, marker]) + (len(payload) + 2).to_bytes(2, "big") + payload


def encode_jpeg(width, height, pixels, quality=82, comment=None):
    """Baseline JFIF of `pixels` (a list of (r, g, b) ints 0-255, row by row)."""
    lq = _scaled_table(LUMA_Q, quality)
    cq = _scaled_table(CHROMA_Q, quality)
    # Colour conversion (JFIF 1.02 §7) in 16-bit fixed point.
    ys, cbs, crs = [], [], []
    for r, g, b in pixels:
        ys.append((19595 * r + 38470 * g + 7471 * b + 32768) >> 16)
        cbs.append(((-11059 * r - 21709 * g + 32768 * b + 32768) >> 16) + 128)
        crs.append(((32768 * r - 27439 * g - 5329 * b + 32768) >> 16) + 128)

    mcu_w = (width + 15) // 16
    mcu_h = (height + 15) // 16

    def sample(plane, x, y):
        return plane[min(y, height - 1) * width + min(x, width - 1)]

    def luma_block(x0, y0):
        return [sample(ys, x0 + i, y0 + j) - 128 for j in range(8) for i in range(8)]

    def chroma_block(plane, x0, y0):
        # 2x2 average (the centre of each chroma sample sits between four luma samples).
        block = []
        for j in range(8):
            for i in range(8):
                x = x0 + 2 * i
                y = y0 + 2 * j
                total = (sample(plane, x, y) + sample(plane, x + 1, y)
                         + sample(plane, x, y + 1) + sample(plane, x + 1, y + 1))
                block.append(((total + 2) >> 2) - 128)
        return block

    dc_l = _huffman_codes(DC_LUMA_BITS, DC_VALUES)
    ac_l = _huffman_codes(AC_LUMA_BITS, AC_LUMA_VALUES)
    dc_c = _huffman_codes(DC_CHROMA_BITS, DC_VALUES)
    ac_c = _huffman_codes(AC_CHROMA_BITS, AC_CHROMA_VALUES)
    writer = _BitWriter()
    pred = [0, 0, 0]
    for my in range(mcu_h):
        for mx in range(mcu_w):
            x0, y0 = mx * 16, my * 16
            for dy in (0, 8):
                for dx in (0, 8):
                    q = _fdct_quantize(luma_block(x0 + dx, y0 + dy), lq)
                    pred[0] = _encode_block(writer, q, pred[0], dc_l, ac_l)
            q = _fdct_quantize(chroma_block(cbs, x0, y0), cq)
            pred[1] = _encode_block(writer, q, pred[1], dc_c, ac_c)
            q = _fdct_quantize(chroma_block(crs, x0, y0), cq)
            pred[2] = _encode_block(writer, q, pred[2], dc_c, ac_c)
    writer.flush()

    out = bytearray(b"\xFF\xD8")  # SOI
    out += _segment(0xE0, b"JFIF\x00" + bytes([1, 2, 0, 0, 1, 0, 1, 0, 0]))
    if comment:
        out += _segment(0xFE, comment.encode("ascii"))
    out += _segment(0xDB, bytes([0]) + bytes(lq[ZIGZAG[k]] for k in range(64))
                    + bytes([1]) + bytes(cq[ZIGZAG[k]] for k in range(64)))
    out += _segment(0xC0, bytes([8]) + height.to_bytes(2, "big") + width.to_bytes(2, "big")
                    + bytes([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]))
    for table_class_id, bits, values in (
        (0x00, DC_LUMA_BITS, DC_VALUES), (0x10, AC_LUMA_BITS, AC_LUMA_VALUES),
        (0x01, DC_CHROMA_BITS, DC_VALUES), (0x11, AC_CHROMA_BITS, AC_CHROMA_VALUES),
    ):
        out += _segment(0xC4, bytes([table_class_id]) + bytes(bits) + bytes(values))
    out += _segment(0xDA, bytes([3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0]))
    out += writer.out
    out += b"\xFF\xD9"  # EOI
    return bytes(out)


# ---------------------------------------------------------------------------------------------
# Procedural "photos": integer hash noise, a sine table, simple shading.

SIN = [round(math.sin(2 * math.pi * i / 1024) * 4096) for i in range(1024)]  # 12-bit fixed


def _hash(x, y, seed):
    n = (x * 374761393 + y * 668265263 + seed * 1442695041) & 0xFFFFFFFF
    n = ((n ^ (n >> 13)) * 1274126177) & 0xFFFFFFFF
    return (n ^ (n >> 16)) & 0xFF


def _smooth(x, y, cell, seed):
    """Value noise 0-255, bilinear between lattice points `cell` pixels apart."""
    gx, fx = divmod(x, cell)
    gy, fy = divmod(y, cell)
    a = _hash(gx, gy, seed)
    b = _hash(gx + 1, gy, seed)
    c = _hash(gx, gy + 1, seed)
    d = _hash(gx + 1, gy + 1, seed)
    top = a * (cell - fx) + b * fx
    bottom = c * (cell - fx) + d * fx
    return (top * (cell - fy) + bottom * fy) // (cell * cell)


def _clamp(v):
    return 0 if v < 0 else 255 if v > 255 else int(v)


def _vignette(x, y, w, h):
    """Light fall-off towards the corners, 0.72-1.0."""
    dx = (2 * x - w) / w
    dy = (2 * y - h) / h
    return 1.0 - 0.14 * (dx * dx + dy * dy)


def _wood(x, y):
    grain = _smooth(x, y // 6, 48, 7)
    ring = SIN[(y * 9 + grain * 3 + (_smooth(x, y, 90, 8) >> 1)) & 1023]
    plank_gap = (x + (y >> 5)) % 133
    tone = 1.0 + ring / 4096 * 0.10 + (_hash(x, y, 9) - 128) / 128 * 0.04
    if plank_gap < 2:
        tone *= 0.55
    return (168 * tone, 118 * tone, 74 * tone)


def photo_yarn_balls(w=400, h=300):
    """Three balls of red worsted on a wooden table, lit from the upper left."""
    balls = [(118, 150, 84, 0), (262, 132, 78, 1), (322, 222, 62, 2)]  # cx, cy, r, seed
    light = (-0.45, -0.55, 0.70)
    norm = math.sqrt(sum(v * v for v in light))
    lx, ly, lz = (v / norm for v in light)
    pixels = []
    for y in range(h):
        for x in range(w):
            colour = None
            for cx, cy, r, seed in reversed(balls):
                dx, dy = x - cx, y - cy
                d2 = dx * dx + dy * dy
                if d2 < r * r:
                    nx, ny = dx / r, dy / r
                    nz = math.sqrt(max(0.0, 1.0 - nx * nx - ny * ny))
                    shade = max(0.18, nx * lx + ny * ly + nz * lz)
                    # Strands wound in bands whose direction changes across the ball.
                    band = _smooth(x + 40 * seed, y, 38, 20 + seed) // 43  # 0-5
                    angle = (band * 171 + seed * 97) & 1023
                    ca, sa = SIN[(angle + 256) & 1023], SIN[angle]
                    along = (dx * sa - dy * ca) >> 12
                    across = (dx * ca + dy * sa) >> 12
                    strand = SIN[(across * 150 + (_smooth(along, across, 9, 30 + seed) >> 2)) & 1023]
                    ply = SIN[(along * 60 + across * 35) & 1023]
                    tex = 0.80 + strand / 4096 * 0.16 + ply / 4096 * 0.05
                    fuzz = (_hash(x, y, 40 + seed) - 128) / 128 * 0.05
                    k = shade * (tex + fuzz)
                    colour = (176 * k + 14, 22 * k + 4, 38 * k + 6)
                    break
            if colour is None:
                colour = _wood(x, y)
                # Soft shadows to the lower right of each ball.
                for cx, cy, r, _ in balls:
                    sx, sy = x - (cx + r * 0.35), (y - (cy + r * 0.55)) * 1.7
                    d = math.sqrt(sx * sx + sy * sy) / r
                    if d < 1.25:
                        colour = tuple(c * (0.55 + 0.45 * min(1.0, max(0.0, (d - 0.7) / 0.55)))
                                       for c in colour)
            v = _vignette(x, y, w, h)
            pixels.append(tuple(_clamp(c * v) for c in colour))
    return pixels


def _stitch_brightness(fx, fy, purl):
    """Brightness 0-1 of a point in a stitch cell (fx, fy in 0-1)."""
    if purl:
        # A purl bump: a horizontal arc, offset by half a cell on alternate rows.
        dy = (fy - 0.5) / 0.42
        hump = 1.0 - dy * dy
        dip = 0.65 + 0.35 * abs(SIN[int(fx * 512) & 1023]) / 4096
        return max(0.22, hump * dip) if hump > 0 else 0.22
    best = 0.0
    for top, slope in ((0.08, 0.40), (0.92, -0.40)):
        centre = top + slope * fy
        d = (fx - centre) / 0.23
        if abs(d) < 1.0:
            along = 0.62 + 0.38 * SIN[int(fy * 512) & 1023] / 4096
            best = max(best, (1.0 - d * d) * along)
    return max(0.20, best)


def photo_knitting(chart, colours, w, h, cell_w, cell_h, seed, purl_columns=()):
    """Knitted fabric seen close up: `chart[row][col]` picks a colour from `colours`."""
    rows, cols = len(chart), len(chart[0])
    pixels = []
    for y in range(h):
        row = y // cell_h
        fy = (y % cell_h) / cell_h
        for x in range(w):
            # Fabric drapes a little: columns wander with a slow wave.
            wave = SIN[(y * 3 + seed * 50) & 1023] * 3 // 4096
            xx = x + wave
            col = xx // cell_w
            fx = (xx % cell_w) / cell_w
            purl = (col % cols) in purl_columns
            if purl and row % 2:
                fx = (fx + 0.5) % 1.0
            b = _stitch_brightness(fx, fy, purl)
            base = colours[chart[row % rows][col % cols]]
            heather = (_smooth(x, y, 5, seed) - 128) / 128 * 0.07
            fuzz = (_hash(x, y, seed + 1) - 128) / 128 * 0.06
            k = (0.30 + 0.78 * b) * (1.0 + heather + fuzz) * _vignette(x, y, w, h)
            pixels.append(tuple(_clamp(c * k) for c in base))
    return pixels


def flax_chart():
    """Stockinette with a garter panel two stitches wide (Flax's sleeve panel), one colour."""
    return [[0] * 24]


def selbu_chart():
    """An eight-pointed Selbu star on a black ground (0 black, 1 light), 26 x 26 repeat.

    The star is eight rhombic petals around the centre, one along each axis and diagonal,
    sampled at the stitch centres; a dotted border frames each star."""
    size, centre, reach, half_width = 26, 12.5, 11.0, 1.9
    directions = [(1, 0), (0, 1), (-1, 0), (0, -1)]
    r = math.sqrt(0.5)
    directions += [(r, r), (-r, r), (-r, -r), (r, -r)]
    chart = []
    for row in range(size):
        line = []
        for col in range(size):
            x, y = col - centre, row - centre
            star = False
            for dx, dy in directions:
                along = x * dx + y * dy
                across = abs(-x * dy + y * dx)
                if along > 0 and abs(along - reach / 2) / (reach / 2) + across / half_width <= 1.0:
                    star = True
            frame = (row == 0 or col == 0) and (row + col) % 2 == 0
            line.append(1 if star or frame else 0)
        chart.append(line)
    return chart


def photo_granny(w=400, h=300, square=100):
    """A corner of a granny square blanket: mustard rounds 1-2, cream rounds 3-4 and joins.

    Round k has k clusters of three posts on each side, chain spaces between them and at the
    corners, as in the pattern."""
    mustard = (206, 158, 40)
    cream = (226, 214, 186)
    table = (58, 50, 44)
    pixels = []
    for y in range(h):
        for x in range(w):
            sx, sy = (x + 38) % square, (y + 22) % square
            cx, cy = sx - square / 2 + 0.5, sy - square / 2 + 0.5
            half = square / 2
            cheb = max(abs(cx), abs(cy))
            ring = cheb / half
            k = min(4, int(ring * 4.0) + 1)
            in_ring = (ring * 4.0) % 1.0
            t = (cy / cheb if abs(cx) >= abs(cy) else cx / cheb) if cheb else 0.0
            u = (t + 1.0) / 2.0 * k
            slot = u % 1.0
            base = mustard if k <= 2 else cream
            if ring < 0.07:
                base, k_light = table, 0.9  # the centre ring's hole
            elif in_ring < 0.10 or in_ring > 0.95:
                k_light = 0.55  # the chain and the top of the round below
            elif slot < 0.13 or slot > 0.87:
                # chain spaces between clusters and at the corners: holes in the middle.
                if 0.22 < in_ring < 0.80:
                    base, k_light = table, 0.9
                else:
                    k_light = 0.62
            else:
                post = ((slot - 0.13) / 0.74 * 3.0) % 1.0  # three posts per cluster
                k_light = 0.62 + 0.38 * (1.0 - abs(post - 0.5) * 2.0)
                k_light *= 0.86 + 0.14 * SIN[int(in_ring * 512) & 1023] / 4096
            fuzz = (_hash(x, y, 77) - 128) / 128 * 0.06 + (_smooth(x, y, 6, 78) - 128) / 128 * 0.05
            k_light *= (1.0 + fuzz) * _vignette(x, y, w, h)
            pixels.append(tuple(_clamp(c * k_light) for c in base))
    return pixels


# ---------------------------------------------------------------------------------------------
# A one- or two-page pattern PDF, written by hand.


def _pdf_text(s):
    return "(" + s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"


def _wrap(text, width):
    words, lines, line = text.split(" "), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = word if not line else line + " " + word
    if line:
        lines.append(line)
    return lines


def make_pdf(title, blocks, info_title, author, created):
    """`blocks`: list of (style, text): 'h1', 'h2', 'p', 'li'. Returns the PDF bytes."""
    pages = [[]]
    y = 738
    styles = {
        "h1": (20, "F2", 28, 60, 0),
        "h2": (12.5, "F2", 20, 80, 0),
        "p": (10.5, "F1", 14, 96, 0),
        "li": (10.5, "F1", 14, 92, 14),
    }
    for index, (style, text) in enumerate(blocks):
        size, font, lead, width, indent = styles[style]
        lines = _wrap(text, width)
        if style == "h2":
            y -= 6
        keep = lead * len(lines)
        if style == "h2" and index + 1 < len(blocks):  # a heading stays with what follows
            _, _, next_lead, next_width, _ = styles[blocks[index + 1][0]]
            keep += 4 + next_lead * len(_wrap(blocks[index + 1][1], next_width))
        if y - keep < 60:
            pages.append([])
            y = 738
        for i, line in enumerate(lines):
            x = 72 + (indent if (style != "li" or i > 0) else 0)
            shown = ("- " + line) if (style == "li" and i == 0) else line
            pages[-1].append("BT /%s %s Tf %d %d Td %s Tj ET" % (font, size, x, y, _pdf_text(shown)))
            y -= lead
        y -= 4
    objects = []  # (number, bytes)
    n_pages = len(pages)
    page_numbers = [5 + 2 * i for i in range(n_pages)]
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(("<< /Type /Pages /Kids [%s] /Count %d >>"
                    % (" ".join("%d 0 R" % n for n in page_numbers), n_pages)).encode())
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    for i, ops in enumerate(pages):
        footer = "BT /F1 8 Tf 72 40 Td %s Tj ET" % _pdf_text(
            "%s - page %d of %d" % (title, i + 1, n_pages))
        stream = ("\n".join(ops + [footer]) + "\n").encode("latin-1")
        objects.append(("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                        "/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>"
                        % (page_numbers[i] + 1)).encode())
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"endstream")
    objects.append(("<< /Title %s /Author %s /Producer (yarn-samples make_demo.py) "
                    "/CreationDate (D:%s) >>" % (_pdf_text(info_title), _pdf_text(author), created)
                    ).encode("latin-1"))
    info_number = len(objects)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += (b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
            % (len(objects) + 1, info_number, xref))
    return bytes(out)


GRANNY_PATTERN = [
    ("h1", "Classic Granny Square Blanket"),
    ("p", "A traditional granny square, joined as you go, with a three-round border. Written up "
          "for the yarn sample library (samples/demo); the granny square itself is a folk "
          "pattern that belongs to no one designer."),
    ("h2", "Materials"),
    ("li", "Red Heart Super Saver (worsted; 364 yd / 7 oz, 333 m / 198 g per skein), colour 0313 "
           "Aran: 3 skeins."),
    ("li", "Lion Brand Vanna's Choice (worsted), Mustard: about 150 g."),
    ("li", "5.0 mm (US H-8) crochet hook; a tapestry needle."),
    ("h2", "Size and gauge"),
    ("p", "168 squares, 12 across and 14 down: about 110 x 130 cm after the border. One square "
          "measures 9 cm across after round 4; gauge is not critical for a blanket."),
    ("h2", "Abbreviations (US terms)"),
    ("p", "ch chain; sl st slip stitch; dc double crochet; sp space; rnd round; "
          "cluster = 3 dc worked into the same space; rep repeat."),
    ("h2", "Square"),
    ("li", "Rnd 1 (Mustard): ch 4, sl st to the first ch to form a ring. Ch 3 (counts as a dc), "
           "2 dc in the ring, ch 2, [3 dc in the ring, ch 2] 3 times; sl st to the top of the "
           "ch-3. 4 clusters."),
    ("li", "Rnd 2 (Mustard): sl st into the next ch-2 corner sp; ch 3, (2 dc, ch 2, 3 dc) in "
           "the same sp, ch 1, *(3 dc, ch 2, 3 dc) in the next corner sp, ch 1; rep from * "
           "twice more; sl st to the top of the ch-3. Fasten off. 8 clusters."),
    ("li", "Rnd 3 (Aran): join in any corner sp; ch 3, (2 dc, ch 2, 3 dc) in the same sp, ch 1, "
           "3 dc in the next ch-1 sp, ch 1, *(3 dc, ch 2, 3 dc) in the next corner sp, ch 1, "
           "3 dc in the next ch-1 sp, ch 1; rep from * twice more; sl st to the top of the "
           "ch-3. 12 clusters."),
    ("li", "Rnd 4 (Aran, joining round): as rnd 3, with one more cluster on each side. 16 "
           "clusters. On every square but the first, join along the sides that touch a "
           "finished square: at a corner work ch 1, sl st in the neighbour's corner sp, ch 1 "
           "in place of the ch 2; between clusters work a sl st in the neighbour's ch-1 sp in "
           "place of the ch 1."),
    ("h2", "Border"),
    ("li", "Rnds 1 and 2 (Aran): ch 3, dc in every st and ch-sp around, (2 dc, ch 2, 2 dc) in "
           "each corner sp; sl st to the top of the ch-3."),
    ("li", "Rnd 3 (Aran): ch 1, reverse single crochet (crab stitch) in every st around. "
           "Fasten off and weave in the ends."),
    ("h2", "Notes"),
    ("p", "168 squares leave 672 ends: weave them in as you go, a few squares at a time. "
          "Three skeins of Aran were just enough; buy a fourth if your rnd 4 runs large. "
          "Care: machine wash warm, tumble dry low."),
]


# ---------------------------------------------------------------------------------------------
# The library.

NAMESPACE = uuid.UUID("5d2c3a9e-7b41-4f6e-9a0c-3e8f1b2d4c6a")


def uid(key):
    """A fixed lower-case UUID for `key` (UUIDv5, RFC 9562 §5.5, in the sample's namespace)."""
    return str(uuid.uuid5(NAMESPACE, key))


def amount(value, unit):
    return {"value": value, "unit": unit}


def attachment(file_name, media_type, data):
    return {
        "fileName": file_name,
        "mediaType": media_type,
        "byteCount": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
    }


def ny_utc(local):
    """'YYYY-MM-DD HH:MM' on the clock in America/New_York (2026) -> seconds since 1970 UTC."""
    date, time = local.split(" ")
    y, mo, d = (int(p) for p in date.split("-"))
    hh, mm = (int(p) for p in time.split(":"))
    assert y == 2026
    minutes = hh * 60 + mm
    # US DST 2026: from Sun 8 March 02:00 EST to Sun 1 November 02:00 EDT (15 U.S.C. §260a).
    if (mo, d) == (3, 8):
        assert not (120 <= minutes < 180), "02:00-02:59 on 8 March does not exist in New York"
        dst = minutes >= 180
    elif (mo, d) == (11, 1):
        assert not (60 <= minutes < 120), "01:00-01:59 on 1 November happens twice in New York"
        dst = minutes < 60
    else:
        dst = (3, 8) < (mo, d) < (11, 1)
    offset = -4 if dst else -5
    days = _days_from_civil(y, mo, d)
    return days * 86400 + minutes * 60 - offset * 3600


def _days_from_civil(y, m, d):
    # H. Hinnant's days_from_civil, as in JSONCoding.formatInstant's inverse.
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def instant(seconds):
    days, rest = divmod(seconds, 86400)
    z = days + 719468
    era = z // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = mp + 3 if mp < 10 else mp - 9
    year = yoe + era * 400 + (1 if month <= 2 else 0)
    return "%04d-%02d-%02dT%02d:%02d:%02dZ" % (
        year, month, day, rest // 3600, rest // 60 % 60, rest % 60)


def utc(text):
    """'YYYY-MM-DD HH:MM' in UTC -> the JSON instant."""
    date, time = text.split(" ")
    y, mo, d = (int(p) for p in date.split("-"))
    hh, mm = (int(p) for p in time.split(":"))
    return instant(_days_from_civil(y, mo, d) * 86400 + hh * 3600 + mm * 60)


def build():
    """Returns (library dict, {sha256: bytes}) ."""
    photo_balls = encode_jpeg(400, 300, photo_yarn_balls(), comment="Cascade 220, Ruby")
    photo_flax = encode_jpeg(
        400, 300,
        photo_knitting(flax_chart(), [(168, 24, 40)], 400, 300, 20, 16, seed=3,
                       purl_columns=(10, 11)),
        comment="Flax for Leo, garter panel")
    photo_selbu = encode_jpeg(
        400, 300,
        photo_knitting(selbu_chart(), [(34, 32, 36), (205, 196, 178)], 400, 300, 12, 10, seed=5),
        comment="Selbuvotter, star chart")
    jpeg_granny = encode_jpeg(400, 300, photo_granny(), comment="Granny square blanket")
    pattern_pdf = make_pdf(
        "Classic Granny Square Blanket", GRANNY_PATTERN, "Classic Granny Square Blanket",
        "yarn sample library", "20260201090000Z")

    blobs = {}

    def attach(name, media, data):
        a = attachment(name, media, data)
        blobs[a["sha256"]] = data
        return a

    a_balls = attach("cascade-220-ruby.jpg", "image/jpeg", photo_balls)
    a_flax = attach("flax-finished.jpg", "image/jpeg", photo_flax)
    a_selbu = attach("selbuvotter-wip.jpg", "image/jpeg", photo_selbu)
    a_granny = attach("granny-blanket.jpg", "image/jpeg", jpeg_granny)
    a_pdf = attach("granny-square-blanket.pdf", "application/pdf", pattern_pdf)

    Y = {k: uid("yarn/" + k) for k in (
        "cascade-220", "rios", "drops-alpaca", "palette", "thick-quick", "felted-tweed",
        "catona", "shelter", "lang-merino-120", "peer-gynt", "cashmerino", "super-saver",
        "tosh-merino-light", "kureyon", "vannas-choice")}
    P = {k: uid("project/" + k) for k in (
        "flax", "hermione", "granny", "selbu", "sophie", "cobblestone", "hitchhiker", "cowl")}

    def yarn(key, name, brand, colorway, family, lot, weight, fiber, length, net, quantity,
             location, added, override=None, stashed=True, photos=()):
        return {
            "id": Y[key], "name": name, "brand": brand, "colorway": colorway,
            "colorFamily": family, "dyeLot": lot, "weight": weight, "fiber": fiber,
            "lengthPerSkein": length, "netWeightPerSkein": net, "quantity": quantity,
            "remainingOverride": override, "purchaseLocation": location, "dateAdded": added,
            # The stash status ("in-stash" or "used-up", as the golden v1 backup's isStashed
            # flag reads), the flag itself (still written, for older readers of format 1),
            # and no tags yet.
            "isStashed": stashed, "status": "in-stash" if stashed else "used-up", "tags": [],
            "photos": list(photos),
        }

    yarns = [
        yarn("cashmerino", "Cashmerino Aran, Grandma's stash", "Debbie Bliss", "Duck Egg", "blue",
             None, 4, "55% merino wool, 33% acrylic microfibre, 12% cashmere",
             amount(90, "m"), amount(50, "g"), None,
             "Grandma's stash, Providence, RI", "2025-09-07"),
        yarn("lang-merino-120", "Merino 120", "Lang Yarns", None, "gray", "24817", 3,
             "100% merino wool (extrafine, superwash)", amount(120, "m"), amount(50, "g"),
             amount(300, "g"), "Wollgeschäft in Zürich, Niederdorf", "2025-10-11"),
        yarn("cascade-220", "Cascade 220", "Cascade Yarns", "Ruby", "red", "6183", 4,
             "100% Peruvian Highland Wool", amount(220, "yd"), amount(100, "g"),
             amount(5, "skein"), "WEBS, Northampton, MA", "2025-12-28", photos=[a_balls]),
        yarn("rios", "Rios", "Malabrigo", "Azul Profundo", "blue", None, 4,
             "100% superwash merino wool", amount(210, "yd"), amount(100, "g"),
             amount(4, "skein"), "Knitty City, New York", "2026-01-05",
             override=amount(230, "g")),
        yarn("super-saver", "Super Saver", "Red Heart", "0313 Aran", "cream", "3056", 4,
             "100% acrylic", amount(364, "yd"), amount(7, "oz"), amount(14, "oz"),
             "Michaels, Queens, NY", "2026-01-30", stashed=False),
        yarn("vannas-choice", "Vanna's Choice", "Lion Brand Yarn", "Mustard", "yellow", None, 4,
             "100% acrylic", amount(170, "yd"), None, amount(3, "skein"),
             "thrift store, Astoria, NY", "2026-02-02"),
        yarn("tosh-merino-light", "Tosh Merino Light", "Madelinetosh", "Tart", "red", None, 1,
             "100% superwash merino wool", amount(420, "yd"), amount(100, "g"),
             amount(420, "yd"), "Knitty City, New York", "2026-02-20"),
        yarn("shelter", 'Shelter "Almanac"', "Brooklyn Tweed", "Almanac", "brown", "A1142", 4,
             "100% American Targhee-Columbia wool", amount(140, "yd"), amount(50, "g"),
             amount(700, "yd"), "brooklyntweed.com", "2026-04-02"),
        yarn("catona", "Catona", "Scheepjes", "130 Old Lace", "cream", "2207", 1,
             "100% mercerised cotton", amount(125, "m"), amount(50, "g"), amount(1250, "m"),
             "Wool Warehouse (online)", "2026-05-12"),
        yarn("palette", "Palette", "Knit Picks", "Marine Heather", "blue", "M2045", 1,
             "100% Peruvian Highland Wool", amount(231, "yd"), amount(50, "g"),
             amount(200, "g"), "knitpicks.com", "2026-06-20"),
        yarn("drops-alpaca", "DROPS Alpaca", "Garnstudio – DROPS", "0100 Off White", "white",
             "648291", 1, "100% alpaca", amount(167, "m"), amount(50, "g"), amount(835, "m"),
             "garnbutikk på Grünerløkka, Oslo", "2026-07-14"),
        yarn("peer-gynt", "Peer Gynt", "Sandnes Garn", "1099 Svart", "black", "2081", 3,
             "100% Norwegian wool", None, amount(50, "g"), amount(6, "skein"),
             "Husfliden, Bergen", "2026-07-18", photos=[a_selbu]),
        yarn("felted-tweed", "Felted Tweed DK", "Rowan", "Pebble", "gray", "1320", 3,
             "50% merino wool, 25% alpaca, 25% viscose", amount(175, "m"), amount(50, "g"),
             amount(250, "g"), "Purl Soho, New York", "2026-08-30"),
        yarn("kureyon", "Kureyon", "Noro", "No. 40", "multi", "B0712", 4, "100% wool",
             amount(100, "m"), amount(50, "g"), amount(4, "skein"),
             "京都の手芸店 (a craft shop in Kyoto)", "2026-09-12"),
        yarn("thick-quick", "Wool-Ease Thick & Quick", "Lion Brand Yarn", "Fisherman", "white",
             "640117", 6, "80% acrylic, 20% wool", amount(106, "yd"), amount(6, "oz"),
             amount(18, "oz"), "Michaels, Queens, NY", "2026-09-26"),
    ]

    def usage(key, value, unit):
        return {"yarnID": Y[key], "amount": amount(value, unit)}

    def pattern(name, url=None, pdf=None):
        return {"name": name, "url": url, "pdf": pdf}

    projects = [
        {"id": P["flax"], "name": "Flax for Leo", "craft": "knitting", "status": "finished",
         "pattern": pattern("Flax by Tin Can Knits",
                            "https://www.ravelry.com/patterns/library/flax"),
         "started": "2026-01-10", "finished": "2026-02-22",
         "usages": [usage("cascade-220", 550, "yd")], "photos": [a_flax]},
        {"id": P["granny"], "name": "Granny Square Blanket, for Mum", "craft": "crochet",
         "status": "finished",
         "pattern": pattern("Classic Granny Square Blanket (traditional)", None, a_pdf),
         "started": "2026-02-01", "finished": "2026-06-28",
         "usages": [usage("super-saver", 3, "skein"), usage("vannas-choice", 150, "g")],
         "photos": [a_granny]},
        {"id": P["hermione"], "name": "Hermione's Everyday Socks", "craft": "knitting",
         "status": "finished",
         "pattern": pattern("Hermione's Everyday Socks by Erica Lueder",
                            "https://www.ravelry.com/patterns/library/hermiones-everyday-socks"),
         "started": "2026-03-01", "finished": "2026-04-12",
         "usages": [usage("tosh-merino-light", 80, "g")], "photos": []},
        {"id": P["cobblestone"], "name": "Cobblestone", "craft": "knitting", "status": "frogged",
         "pattern": pattern("Cobblestone by Jared Flood",
                            "https://www.ravelry.com/patterns/library/cobblestone"),
         "started": "2026-04-20", "finished": "2026-05-20",
         "usages": [usage("shelter", 420, "yd")], "photos": []},
        {"id": P["hitchhiker"], "name": "Hitchhiker", "craft": "knitting",
         "status": "hibernating",
         "pattern": pattern("Hitchhiker by Martina Behm",
                            "https://www.ravelry.com/patterns/library/hitchhiker"),
         "started": "2026-07-03", "finished": None,
         "usages": [usage("palette", 1.5, "oz")], "photos": []},
        {"id": P["selbu"], "name": "Selbuvotter", "craft": "knitting", "status": "in-progress",
         "pattern": pattern("Selbu star mittens (traditional)"),
         "started": "2026-09-05", "finished": None,
         "usages": [usage("peer-gynt", 100, "g"), usage("felted-tweed", 40, "m")],
         "photos": [a_selbu]},
        {"id": P["cowl"], "name": "Chunky Cowl", "craft": "crochet", "status": "finished",
         "pattern": None, "started": "2026-10-03", "finished": "2026-10-04",
         "usages": [usage("thick-quick", 106, "yd")], "photos": []},
        {"id": P["sophie"], "name": "Sophie's Universe", "craft": "crochet", "status": "planned",
         "pattern": pattern("Sophie's Universe by Dedri Uys",
                            "https://www.ravelry.com/patterns/library/sophies-universe"),
         "started": None, "finished": None,
         "usages": [usage("catona", 1000, "m")], "photos": []},
    ]
    # No project details (gauge, size made, made for) yet, and no tags (schema v5).
    for project in projects:
        project["tags"] = []

    def note(key, subject, text, created, modified=None):
        kind, ref = subject
        return {
            "id": uid("note/" + key),
            "yarnID": Y[ref] if kind == "yarn" else None,
            "projectID": P[ref] if kind == "project" else None,
            "text": text, "created": utc(created), "modified": utc(modified or created),
        }

    notes = [
        note("cashmerino", ("yarn", "cashmerino"),
             "From Grandma's cupboard: a bag of it, never counted.\n"
             "Ball bands say 90 m / 50 g, but how many balls? Weigh them, someday.",
             "2025-09-07 21:10"),
        note("cascade", ("yarn", "cascade-220"),
             "Bought 5 skeins, all dye lot 6183.\n"
             'Wash test: blooms a little, no bleeding, and "Ruby" stays ruby.',
             "2025-12-28 23:40"),
        note("rios", ("yarn", "rios"),
             "Weighed what is left: 230 g, counting the yarn from the frogged \"Rios hat\" "
             "swatch,\nso the remaining figure is my own, not an estimate.",
             "2026-01-20 02:05", "2026-06-02 00:30"),
        note("flax", ("project", "flax"),
             'Size 4-6 for Leo, 4.5 mm needles, 18 sts / 10 cm.\n'
             'He calls the garter panels his "racing stripes".',
             "2026-02-23 01:15"),
        note("granny-midnight", ("project", "granny"),
             "Valentine's night marathon: the session on 14 February ran from 22:40 to 00:35, "
             "past midnight in New York.",
             "2026-02-15 05:40"),
        note("vanna", ("yarn", "vannas-choice"),
             "Thrift store bag, no ball bands, except one torn one saying 170 yds.\n"
             "Weight per ball unknown, so the blanket's 150 g can't be counted in skeins.",
             "2026-02-02 22:00"),
        note("socks-dst", ("project", "hermione"),
             "Times in this sample are logged in America/New_York.\n"
             "The session on 8 March 2026 crosses the US DST change (02:00 EST became "
             "03:00 EDT): 01:20 to 03:50 on the clock, but 1 h 30 min of knitting.",
             "2026-03-08 08:00"),
        note("super-saver", ("yarn", "super-saver"),
             "Ran out at square 150, bought a third skein, didn't log it.\n"
             "So the stash is overdrawn by a skein (7 oz), which is right.",
             "2026-06-28 23:30"),
        note("granny", ("project", "granny"),
             "Join-as-you-go, 12 x 14 squares; border: 2 rounds of dc, 1 round of crab stitch.\n"
             'Needed a 3rd skein of "Aran", not 2.',
             "2026-06-29 01:00"),
        note("cobblestone", ("project", "cobblestone"),
             "Frogged: gauge 18 sts / 10 cm, the pattern wants 16.\n"
             'The yarn is back in the stash, "good as new" after a soak.',
             "2026-05-21 00:45"),
        note("shelter", ("yarn", "shelter"),
             'Woolen-spun and "sticky": it snaps if you tug, so spit-splice, don\'t knot.\n'
             "Still the right yarn for Cobblestone, at a smaller needle.",
             "2026-05-21 00:50"),
        note("peer-gynt", ("yarn", "peer-gynt"),
             "Kjøpt på Husfliden i Bergen, juli 2026.\n"
             "Lengden står ikke på banderolen jeg tok vare på – sjekk neste gang.",
             "2026-07-18 20:00"),
        note("kureyon", ("yarn", "kureyon"),
             "京都の手芸店で購入。色の変化がとてもきれい。\n1玉に結び目が2つあった。",
             "2026-09-12 09:30"),
        note("selbu", ("project", "selbu"),
             "Første vott er nesten ferdig, stjernen sitter.\n"
             "Contrast is Felted Tweed \"Pebble\", DK like the Peer Gynt.",
             "2026-10-25 01:00"),
    ]

    notes.sort(key=lambda n: n["created"])

    # (project, local start in New York, minutes, note)
    plan = [
        ("flax", "2026-01-10 19:30", 95, "cast on, yoke increases"),
        ("flax", "2026-01-11 14:00", 120, None),
        ("flax", "2026-01-14 20:15", 70, None),
        ("flax", "2026-01-18 15:30", 135, "body, garter panel"),
        ("flax", "2026-01-24 10:00", 110, None),
        ("flax", "2026-01-31 19:45", 90, "first sleeve"),
        ("granny", "2026-02-01 16:00", 60, "squares 1-6"),
        ("flax", "2026-02-07 20:00", 105, "second sleeve"),
        ("granny", "2026-02-08 19:00", 120, None),
        ("granny", "2026-02-14 22:40", 115, "Valentine's night, past midnight"),
        ("flax", "2026-02-21 13:00", 80, "weaving in ends, blocking"),
        ("granny", "2026-02-28 14:30", 150, None),
        ("hermione", "2026-03-01 20:00", 75, "cuff"),
        ("hermione", "2026-03-04 20:30", 60, None),
        ("hermione", "2026-03-08 01:20", 90, "couldn't sleep; the clocks sprang forward mid-leg"),
        ("granny", "2026-03-15 15:00", 140, None),
        ("hermione", "2026-03-21 19:00", 100, "heel turn, gusset"),
        ("hermione", "2026-03-28 20:00", 90, None),
        ("granny", "2026-04-05 13:30", 165, None),
        ("hermione", "2026-04-11 18:30", 120, "Kitchener toes, both socks"),
        ("cobblestone", "2026-04-20 19:00", 100, "swatch and cast on"),
        ("granny", "2026-04-26 14:00", 120, None),
        ("cobblestone", "2026-05-02 14:00", 125, None),
        ("granny", "2026-05-10 16:00", 95, None),
        ("cobblestone", "2026-05-16 20:00", 70, "gauge is off: 18 sts, not 16"),
        ("granny", "2026-05-31 15:30", 130, "joining, join-as-you-go"),
        ("granny", "2026-06-14 14:00", 110, "border"),
        ("granny", "2026-06-27 19:30", 85, "crab stitch edge"),
        ("hitchhiker", "2026-07-03 18:00", 90, None),
        ("hitchhiker", "2026-07-12 10:30", 75, None),
        ("hitchhiker", "2026-07-26 21:00", 60, "tooth 22; putting it away for the summer"),
        ("selbu", "2026-09-05 19:00", 110, "cuff, corrugated rib"),
        ("selbu", "2026-09-19 15:00", 140, None),
        ("cowl", "2026-10-03 19:00", 95, None),
        ("cowl", "2026-10-04 15:00", 70, "Thick & Quick works up fast"),
        ("selbu", "2026-10-10 20:00", 95, "thumb gusset, star chart"),
        ("selbu", "2026-10-24 14:30", 120, None),
        ("selbu", "2026-11-01 19:30", 80, None),
        ("selbu", "2026-11-15 20:00", 105, None),
        ("selbu", "2026-11-28 16:00", 90, "second mitten, cuff"),
    ]
    sessions = []
    previous_end = None
    for index, (project, local, minutes, text) in enumerate(plan):
        start = ny_utc(local)
        end = start + minutes * 60
        assert previous_end is None or start >= previous_end, "sessions overlap at " + local
        previous_end = end
        sessions.append({
            "id": uid("session/%02d" % index), "projectID": P[project],
            "start": instant(start), "end": instant(end), "note": text,
        })
    assert previous_end <= ny_utc("2026-11-29 00:00"), "a session ends after 2026-11-29"

    return {"yarns": yarns, "projects": projects, "notes": notes, "sessions": sessions}, blobs


def attachments_in_order(library):
    """Distinct attachments in document order (as Library.attachments)."""
    seen, out = set(), []
    for y in library["yarns"]:
        for a in y["photos"]:
            if a["sha256"] not in seen:
                seen.add(a["sha256"])
                out.append(a)
    for p in library["projects"]:
        candidates = ([p["pattern"]["pdf"]] if p["pattern"] and p["pattern"].get("pdf") else [])
        for a in candidates + p["photos"]:
            if a["sha256"] not in seen:
                seen.add(a["sha256"])
                out.append(a)
    return out


def render():
    """Returns {relative path: bytes} of the whole demo directory."""
    library, blobs = build()
    files = {}
    library_json = swift_json(library).encode("utf-8")
    files["library.json"] = library_json
    entries = [{"path": "library.json", "size": len(library_json),
                "sha256": hashlib.sha256(library_json).hexdigest()}]
    for a in attachments_in_order(library):
        data = blobs[a["sha256"]]
        path = "attachments/" + a["sha256"]
        files[path] = data
        entries.append({"path": path, "size": len(data), "sha256": a["sha256"]})
    manifest = {
        "format": "yarn-backup",
        "formatVersion": 1,
        "createdAt": "2026-11-29T12:00:00Z",
        "generator": "yarn-samples",
        "counts": {
            "yarns": len(library["yarns"]), "projects": len(library["projects"]),
            "notes": len(library["notes"]), "sessions": len(library["sessions"]),
            "attachments": len(entries) - 1,
        },
        "files": entries,
    }
    files["manifest.json"] = swift_json(manifest).encode("utf-8")
    return files


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    out = os.path.join(here, "demo")
    check = False
    args = list(argv[1:])
    while args:
        arg = args.pop(0)
        if arg == "--check":
            check = True
        elif arg == "--out" and args:
            out = args.pop(0)
        else:
            sys.stderr.write("usage: make_demo.py [--check] [--out DIR]\n")
            return 64
    files = render()
    if check:
        problems = []
        for path, data in sorted(files.items()):
            full = os.path.join(out, path)
            try:
                with open(full, "rb") as f:
                    if f.read() != data:
                        problems.append("differs: " + path)
            except OSError:
                problems.append("missing: " + path)
        existing = set()
        for root, _, names in os.walk(out):
            for name in names:
                existing.add(os.path.relpath(os.path.join(root, name), out).replace(os.sep, "/"))
        problems += ["extra: " + p for p in sorted(existing - set(files))]
        for p in problems:
            sys.stderr.write(p + "\n")
        if not problems:
            print("samples/demo is up to date (%d files)" % len(files))
        return 1 if problems else 0
    os.makedirs(os.path.join(out, "attachments"), exist_ok=True)
    for name in os.listdir(os.path.join(out, "attachments")):
        if "attachments/" + name not in files:
            os.remove(os.path.join(out, "attachments", name))
    for path, data in sorted(files.items()):
        with open(os.path.join(out, path), "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(files), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
