#!/usr/bin/env python3
"""Widen a Lazuli network file to more hidden neurons without changing what it computes.

The old neurons keep their weights. Each new neuron gets small random feature-transformer
weights (uniform +-AMP in float, i.e. +-AMP*QA quantised), a zero bias and zero output
weights, so the widened network evaluates every position exactly as the original does, while
the trainer (`lazuli train --init`, in a build of the new width) has a gradient for every new
weight: a new neuron's output weights see its activation, and once they move, its input weights
see theirs.

    scripts/widen_net.py nets/nn-5baf23d4f6bc.nnue 256 wide.nnue [--seed 1] [--amp 0.1]

File layout (src/eval/nnue/mod.rs, `Network::to_bytes`): 32-byte header (8 bytes magic, then
inputs, hidden, QA, QB, scale, output buckets (0 for one) as u32 LE), the feature transformer
weights (inputs x hidden i16, row by input), its biases (hidden i16), the output weights
(2 x hidden i16 per bucket: side to move, then the other side), the output biases (i32 per
bucket), and a 64-bit FNV-1a checksum of everything before it.
"""

import argparse
import random
import struct
import sys

MAGIC = b"LZNNUE\x00\x01"


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("src")
    ap.add_argument("hidden", type=int)
    ap.add_argument("dst")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--amp", type=float, default=0.1, help="new input weights: uniform +-amp (float)")
    a = ap.parse_args()

    try:
        with open(a.src, "rb") as f:
            data = f.read()
    except OSError as e:
        print(f"cannot read {a.src}: {e}", file=sys.stderr)
        return 1
    if len(data) < 40 or data[:8] != MAGIC:
        print(f"{a.src}: not a Lazuli network file", file=sys.stderr)
        return 1
    if fnv1a(data[:-8]) != struct.unpack_from("<Q", data, len(data) - 8)[0]:
        print(f"{a.src}: bad checksum", file=sys.stderr)
        return 1
    inputs, hidden, qa, qb, scale, hb = struct.unpack_from("<6I", data, 8)
    buckets = max(hb, 1)
    expected = 32 + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 8
    if len(data) != expected:
        print(f"{a.src}: {len(data)} bytes, its header says {expected}", file=sys.stderr)
        return 1
    new = a.hidden
    if new <= hidden or new % 32:
        print(f"new width {new} must exceed {hidden} and be a multiple of 32", file=sys.stderr)
        return 1

    rng = random.Random(a.seed)
    amp_q = int(round(a.amp * qa))
    pos = 32
    ft = struct.unpack_from(f"<{inputs * hidden}h", data, pos)
    pos += 2 * inputs * hidden
    bias = struct.unpack_from(f"<{hidden}h", data, pos)
    pos += 2 * hidden
    outw = struct.unpack_from(f"<{buckets * 2 * hidden}h", data, pos)
    pos += 2 * buckets * 2 * hidden
    outb = struct.unpack_from(f"<{buckets}i", data, pos)

    extra = new - hidden
    ft_new = []
    for f in range(inputs):
        ft_new.extend(ft[f * hidden:(f + 1) * hidden])
        ft_new.extend(rng.randint(-amp_q, amp_q) for _ in range(extra))
    bias_new = list(bias) + [0] * extra
    out_new = []
    for b in range(buckets):
        for side in range(2):
            base = (b * 2 + side) * hidden
            out_new.extend(outw[base:base + hidden])
            out_new.extend([0] * extra)

    body = bytearray(MAGIC)
    body += struct.pack("<6I", inputs, new, qa, qb, scale, hb)
    body += struct.pack(f"<{len(ft_new)}h", *ft_new)
    body += struct.pack(f"<{new}h", *bias_new)
    body += struct.pack(f"<{len(out_new)}h", *out_new)
    body += struct.pack(f"<{buckets}i", *outb)
    body += struct.pack("<Q", fnv1a(bytes(body)))
    try:
        with open(a.dst, "wb") as f:
            f.write(body)
    except OSError as e:
        print(f"cannot write {a.dst}: {e}", file=sys.stderr)
        return 1
    print(f"{a.src}: inputs {inputs}, hidden {hidden} -> {new}, {buckets} output buckets; wrote {a.dst} ({len(body)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
