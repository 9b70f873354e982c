#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus, tests/fuzz/corpus/<target>/ (run again when operators
are added: op_fuzz's seeds name definitions by their index in the registry).

    tests/fuzz/make_corpus.py OPENACLNN_TOOL

OPENACLNN_TOOL is a built `openaclnn` command-line tool; `openaclnn list` gives the number of
operator definitions.

op_fuzz: one seed per definition and sample index, each the plain sample call. libFuzzer's
FuzzedDataProvider takes integers from the end of the input: the last byte picks the definition,
the one before it the sample, the one before that the number of changes (0).
runtime_fuzz: call sequences from fixed pseudo-random bytes.
npy_fuzz: .npy files of every dtype the tool reads, 0-d, empty, format 2.0, and broken ones.
"""

import os
import random
import struct
import subprocess
import sys

SAMPLES_PER_DEFINITION = 4  # taken modulo the definition's sample count
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def write(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def definition_count(tool):
    listing = subprocess.run([tool, "list"], check=True, capture_output=True, text=True).stdout
    return sum(1 for line in listing.splitlines() if line and not line[0].isspace())


def npy(descr, shape, data, version=1, fortran=False):
    shape_text = "(" + "".join(f"{d}, " for d in shape).rstrip(" ")
    shape_text = shape_text.rstrip(",") + ("," if len(shape) == 1 else "") + ")"
    header = f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape_text}, }}"
    length_size = 2 if version == 1 else 4
    unpadded = 6 + 2 + length_size + len(header) + 1
    header += " " * ((64 - unpadded % 64) % 64) + "\n"
    length = struct.pack("<H" if version == 1 else "<I", len(header))
    return b"\x93NUMPY" + bytes([version, 0]) + length + header.encode() + data


def npy_seeds():
    seeds = {
        "f4_2x3": npy("<f4", [2, 3], struct.pack("<6f", *range(6))),
        "f2_4": npy("<f2", [4], bytes(8)),
        "f8_0d": npy("<f8", [], struct.pack("<d", 1.5)),
        "i4_empty": npy("<i4", [0, 3], b""),
        "i8_3": npy("<i8", [3], struct.pack("<3q", -1, 0, 1)),
        "i1_2": npy("|i1", [2], b"\x7f\x80"),
        "b1_3": npy("|b1", [3], b"\x00\x01\x00"),
        "u2_bf16": npy("<u2", [2], b"\x80\x3f\x00\x40"),
        "u1_fp8": npy("|u1", [2, 2], b"\x08\x10\x18\x00"),
        "v2_f4": npy("<f4", [1], bytes(4), version=2),
        "v3_f4": npy("<f4", [1], bytes(4), version=3),
        "fortran_2x2": npy("<f4", [2, 2], bytes(16), fortran=True),
        "big_endian": npy(">f4", [1], bytes(4)),
        "truncated_data": npy("<f4", [4], bytes(7)),
        "extra_data": npy("<f4", [1], bytes(9)),
        "huge_shape": npy("<f4", [2**40, 2**40], b""),
        "negative_dim": npy("<f4", [-1], b""),
        "bad_magic": b"\x93NUMPX\x01\x00" + npy("<f4", [1], bytes(4))[8:],
        "bad_version": b"\x93NUMPY\x04\x00" + npy("<f4", [1], bytes(4))[8:],
        "short": b"\x93NUMPY\x01",
        "long_header_length": b"\x93NUMPY\x02\x00\xff\xff\xff\xff{",
    }
    for name, data in seeds.items():
        write("npy_fuzz", name, data)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for index in range(definition_count(sys.argv[1])):
        for sample in range(SAMPLES_PER_DEFINITION):
            write("op_fuzz", f"def{index:02d}_sample{sample}", bytes([0, sample, index]))
    rng = random.Random(29)
    for length in (0, 16, 64, 256, 1024):
        write("runtime_fuzz", f"random_{length}", bytes(rng.randrange(256) for _ in range(length)))
    npy_seeds()


if __name__ == "__main__":
    main()
