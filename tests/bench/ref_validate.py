#!/usr/bin/env python3
# ref_validate.py
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A plain Python validator, the yardstick of bench-validate.

    ref_validate.py PATH...

It does what a modder's script would do: walk the folders (sorted, recursively), read every
file whose first four bytes are "NRes", parse the NRes directory with struct, and run the
checks of the reference validator (docs/msh.md section 9.3, rows 1-38, with the container issues
of docs/nres.md section 7.2 as row 3) on every model: a loose model file (its own directory holds
types 1, 2, 3, 6 and 13) as one model, an archive as a container and each "*.msh" entry in it
as a nested model. One line per finding, then a summary; exit status 1 when there are errors.

It is written to be straightforward and correct, not slow: precompiled struct.Struct objects,
one unpack per record, the index buffer unpacked once per model.
"""

import math
import os
import struct
import sys

MAGIC = b"NRes"
HEADER = struct.Struct("<4sIiI")
RECORD = struct.Struct("<IIIII36sII")
BATCH = struct.Struct("<8xHIxxI")          # indexCount, indexStart, baseVertex
SLOT = struct.Struct("<4H10f")             # triStart, triCount, batchStart, batchCount, bounds
LINKS = struct.Struct("<2x3H8x")           # Res7: linkTri0..2
NODE = struct.Struct("<19H")               # Res1 Node38
U32 = struct.Struct("<I")

REQUIRED = (1, 2, 3, 6, 13)
LOOKED_AT = (1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 15, 16, 18, 19)
# type: (stride, attr3 must equal stride, attr2 must be 0), docs/msh.md 9.3 rows 15-18
STRIDES = {3: (12, True, True), 4: (4, True, True), 5: (4, True, True), 6: (2, True, True),
           7: (16, True, True), 8: (24, False, True), 13: (20, True, True),
           15: (8, True, True), 16: (8, True, True), 18: (4, True, True), 19: (2, False, False)}


class FormatError(Exception):
    pass


class Report:
    def __init__(self):
        self.files = 0
        self.models = 0
        self.errors = 0
        self.warnings = 0
        self.lines = []

    def add(self, where, severity, category, message):
        if severity == "error":
            self.errors += 1
        else:
            self.warnings += 1
        self.lines.append(f"{where}: {severity}: {message} [{category}]")


def parse_nres(blob):
    """Returns (entries, issues); entries are (type, attr1, attr2, size, attr3, name, offset)."""
    if len(blob) < 16:
        raise FormatError(f"{len(blob)} bytes, shorter than the 16-byte header")
    magic, version, count, total_size = HEADER.unpack_from(blob, 0)
    if magic != MAGIC:
        raise FormatError("no NRes magic")
    issues = []
    if total_size != len(blob):
        issues.append(f"total_size {total_size} != length {len(blob)}")
    if version != 0x100:
        issues.append(f"version 0x{version:X} != 0x100")
    dir_offset = total_size - count * 64
    if count < 0 or dir_offset < 16 or dir_offset > len(blob):
        raise FormatError(f"directory offset {dir_offset} for {count} entries is outside")
    if dir_offset + count * 64 != len(blob):
        issues.append("the directory does not end the file")

    entries = []
    sort_indices = []
    for i in range(count):
        at = dir_offset + i * 64
        if at + 64 > len(blob):
            raise FormatError(f"directory record {i} runs past the end")
        type_id, attr1, attr2, size, attr3, name, offset, sort_index = RECORD.unpack_from(blob, at)
        name = name.split(b"\0", 1)[0]
        entries.append((type_id, attr1, attr2, size, attr3, name, offset))
        sort_indices.append(sort_index)

    if sort_indices != sorted(range(count), key=lambda k: entries[k][5].lower()):
        issues.append("sort_index table is not the case-insensitive name order")
    for i, e in enumerate(entries):
        offset, size = e[6], e[3]
        if offset % 8:
            issues.append(f"entry {i}: data_offset {offset} is not a multiple of 8")
        if offset < 16 or offset + size > dir_offset:
            issues.append(f"entry {i}: data [{offset}, {offset + size}) outside the data area")
    for i in range(count - 1):
        end, next_start = entries[i][6] + entries[i][3], entries[i + 1][6]
        if end > next_start:
            issues.append(f"entry {i} overlaps entry {i + 1}")
        elif any(blob[end:next_start]):
            issues.append(f"non-zero padding after entry {i}")
    return entries, issues


def payload(blob, e):
    return blob[e[6]:e[6] + e[3]]


def check_stride(report, where, label, e, stride, check_attr3, check_attr2):
    """docs/msh.md 9.3 rows 15-18; returns the record count or -1."""
    _, attr1, attr2, size, attr3, _, _ = e
    count = -1
    if size % stride:
        report.add(where, "error", "model-stride", f"{label}: size {size} % {stride} != 0")
    else:
        count = size // stride
        if attr1 != count:
            report.add(where, "error", "model-attr", f"{label}: attr1 {attr1} != {count}")
    if check_attr3 and attr3 != stride:
        report.add(where, "error", "model-attr", f"{label}: attr3 {attr3} != {stride}")
    if check_attr2 and attr2 != 0:
        report.add(where, "warning", "model-attr", f"{label}: attr2 {attr2} != 0")
    return count


def check_names(report, where, data, node_count):
    """docs/msh.md 9.3 rows 23-26."""
    at = 0
    for i in range(node_count):
        if at + 4 > len(data):
            report.add(where, "error", "res10", f"Res10 record {i}: length missing")
            return
        (length,) = U32.unpack_from(data, at)
        at += 4
        need = length + 1 if length else 0
        if at + need > len(data):
            report.add(where, "error", "res10", f"Res10 record {i}: text runs past the end")
            return
        if length and data[at + length] != 0:
            report.add(where, "warning", "res10", f"Res10 record {i}: no NUL after the text")
        at += need
    if at != len(data):
        report.add(where, "error", "res10", f"Res10: {len(data) - at} bytes after the records")


def validate_model(report, where, blob):
    """One model (a loose file or a nested payload): docs/msh.md 9.3 rows 1-38."""
    report.models += 1
    if blob[:4] != MAGIC:                                                       # 1
        report.add(where, "error", "model-container", "payload does not start with NRes")
        return
    try:
        entries, issues = parse_nres(blob)                                      # 2
    except FormatError as exc:
        report.add(where, "error", "model-container", str(exc))
        return
    for issue in issues:                                                        # 3
        report.add(where, "warning", "model-container", issue)

    by_type = {}
    for e in entries:
        by_type.setdefault(e[0], []).append(e)
    res = {}
    for type_id in LOOKED_AT:                                                   # 4, 5
        found = by_type.get(type_id)
        if not found:
            if type_id in REQUIRED:
                report.add(where, "error", "model-resource", f"Res{type_id} is missing")
            continue
        if len(found) > 1:
            report.add(where, "warning", "model-resource", f"Res{type_id} occurs {len(found)}x")
        res[type_id] = found[0]
    if any(t not in res for t in REQUIRED):
        return

    res1, res2 = res[1], res[2]
    node_stride = res1[4]
    if node_stride not in (38, 24):                                             # 6
        report.add(where, "warning", "res1", f"Res1 attr3 {node_stride} is not 38 or 24")
    if node_stride <= 0:                                                        # 7
        report.add(where, "error", "res1", f"Res1 attr3 {node_stride} <= 0")
        return
    if res1[3] % node_stride:                                                   # 8
        report.add(where, "error", "res1", f"Res1 size {res1[3]} % {node_stride} != 0")
        return
    node_count = res1[3] // node_stride
    if res1[1] != node_count:                                                   # 9
        report.add(where, "error", "res1", f"Res1 attr1 {res1[1]} != {node_count}")

    if res2[3] < 0x8C:                                                          # 10
        report.add(where, "error", "res2", f"Res2 size {res2[3]} < 140")
        return
    slot_count = -1
    if (res2[3] - 0x8C) % 68:                                                   # 11
        report.add(where, "error", "res2", "Res2 slot area is not a multiple of 68")
    else:
        slot_count = (res2[3] - 0x8C) // 68
        if res2[1] != slot_count:                                               # 12
            report.add(where, "error", "res2", f"Res2 attr1 {res2[1]} != {slot_count}")
    if res2[2] != 0:                                                            # 13
        report.add(where, "warning", "res2", f"Res2 attr2 {res2[2]} != 0")
    if res2[4] != 68:                                                           # 14
        report.add(where, "error", "res2", f"Res2 attr3 {res2[4]} != 68")

    counts = {}
    for type_id, (stride, check_attr3, check_attr2) in STRIDES.items():         # 15-18
        counts[type_id] = -1
        if type_id in res:
            counts[type_id] = check_stride(report, where, f"Res{type_id}", res[type_id],
                                           stride, check_attr3, check_attr2)
    if 8 in res and res[8][4] != 4:                                             # 19
        report.add(where, "error", "res8", f"Res8 attr3 {res[8][4]} != 4")
    if 19 in res and res[19][4] != 2:                                           # 20
        report.add(where, "error", "res19", f"Res19 attr3 {res[19][4]} != 2")
    if 10 in res:
        if res[10][1] != res1[1]:                                               # 21
            report.add(where, "error", "res10", f"Res10 attr1 {res[10][1]} != {res1[1]}")
        if res[10][4] != 0:                                                     # 22
            report.add(where, "warning", "res10", f"Res10 attr3 {res[10][4]} != 0")
        check_names(report, where, payload(blob, res[10]), node_count)          # 23-26

    vertices, n_indices, n_tris = counts[3], counts[6], counts[7]
    n_batches, n_keys, n_words = counts[13], counts[8], counts[19]
    for type_id in (4, 5):                                                      # 27, 28
        if vertices > 0 and type_id in res and res[type_id][3] // 4 != vertices:
            report.add(where, "error", "model-cross", f"Res{type_id} count != Res3 count")

    indices = ()
    if n_indices > 0:
        indices = struct.unpack(f"<{n_indices}H", payload(blob, res[6]))
    if n_batches > 0:
        for b, (count, start, base) in enumerate(BATCH.iter_unpack(payload(blob, res[13]))):
            if n_indices > 0 and start + count > n_indices:                     # 29
                report.add(where, "error", "res13", f"batch {b}: indices past Res6")
                continue
            if count % 3:                                                       # 30
                report.add(where, "warning", "res13", f"batch {b}: indexCount {count} % 3")
            if vertices > 0 and n_indices > 0 and count > 0:                    # 31
                if base + max(indices[start:start + count]) >= vertices:
                    report.add(where, "error", "res13", f"batch {b}: vertex past Res3")
    if slot_count > 0:
        slots = payload(blob, res2)
        for s in range(slot_count):
            tri_start, tri_count, batch_start, batch_count, *bounds = \
                SLOT.unpack_from(slots, 0x8C + 68 * s)
            if n_tris > 0 and tri_start + tri_count > n_tris:                   # 32
                report.add(where, "error", "res2-slot", f"slot {s}: triangles past Res7")
            if n_batches > 0 and batch_start + batch_count > n_batches:         # 33
                report.add(where, "error", "res2-slot", f"slot {s}: batches past Res13")
            if not all(map(math.isfinite, bounds)):                             # 34
                report.add(where, "error", "res2-slot", f"slot {s}: bound not finite")
    if n_tris > 0:
        for t, links in enumerate(LINKS.iter_unpack(payload(blob, res[7]))):    # 35
            for link in links:
                if link != 0xFFFF and link >= n_tris:
                    report.add(where, "error", "res7", f"descriptor {t}: link {link}")
    if node_stride == 38:
        frames = res[19][2] if 19 in res else 0
        for n, node in enumerate(NODE.iter_unpack(payload(blob, res1))):
            for w in range(4, 19):                                              # 36
                if node[w] != 0xFFFF and slot_count > 0 and node[w] >= slot_count:
                    report.add(where, "error", "res1-slot", f"node {n}: slot word {w - 4}")
            if n_keys > 0 and node[3] != 0xFFFF and node[3] >= n_keys:          # 37
                report.add(where, "error", "res1-anim", f"node {n}: hdr3 {node[3]}")
            if n_words > 0 and node[2] != 0xFFFF and frames > 0 \
               and node[2] + frames > n_words:                                  # 38
                report.add(where, "error", "res19-map", f"node {n}: frame map past Res19")


def validate_file(report, path):
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:4] != MAGIC:
        return
    report.files += 1
    try:
        entries, issues = parse_nres(blob)
    except FormatError as exc:
        report.add(path, "error", "archive", str(exc))
        return
    types = {e[0] for e in entries}
    if all(t in types for t in REQUIRED):
        validate_model(report, path, blob)      # a loose model
        return
    for issue in issues:
        report.add(path, "warning", "archive", issue)
    for e in entries:
        if e[5].lower().endswith(b".msh"):
            validate_model(report, f"{path}:{e[5].decode('latin-1')}", payload(blob, e))


def walk(report, path):
    if not os.path.isdir(path):
        validate_file(report, path)
        return
    for name in sorted(os.listdir(path)):
        child = os.path.join(path, name)
        if os.path.isdir(child):
            if not os.path.islink(child):
                walk(report, child)
        elif os.path.isfile(child):
            validate_file(report, child)


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    report = Report()
    for path in argv[1:]:
        walk(report, path)
    out = report.lines
    out.append(f"{report.files} files, {report.models} models: {report.errors} errors, "
               f"{report.warnings} warnings")
    sys.stdout.write("\n".join(out) + "\n")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
