# blender-import.py: imports glTF files into Blender and prints what Blender sees.
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   blender --background --factory-startup --python tests/gltf/blender-import.py -- FILE...
#
# For each file, into an empty scene: bpy.ops.import_scene.gltf, then one line
#   MSHED-BLENDER {"file": ..., "objects": [{"name", "parent", "type", "triangles",
#                                            "mshed"}, ...]}
# where triangles counts the mesh's triangles (-1 for objects without a mesh) and mshed is
# the object's "mshed" custom property (the node's extras) as JSON, or null.
# Exits with 1 when an import fails.
import json
import sys

import bpy
import numpy

# Debian 12 pairs Blender 3.4.1 with NumPy 1.24, which removed the alias np.bool that the
# 3.4 glTF importer still uses (io_scene_gltf2/blender/imp/gltf2_blender_mesh.py,
# set_poly_smoothing; fixed in Blender 3.5). The alias meant the builtin bool.
if "bool" not in numpy.__dict__:
    numpy.bool = bool


def extras(obj):
    value = obj.get("mshed")
    if value is None:
        return None
    return value.to_dict() if hasattr(value, "to_dict") else value


def describe(path):
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=path)
    if result != {"FINISHED"}:
        raise RuntimeError(f"{path}: import_scene.gltf returned {result}")
    objects = []
    for obj in sorted(bpy.data.objects, key=lambda o: o.name):
        triangles = -1
        if obj.type == "MESH":
            obj.data.calc_loop_triangles()
            triangles = len(obj.data.loop_triangles)
        objects.append({
            "name": obj.name,
            "parent": obj.parent.name if obj.parent else None,
            "type": obj.type,
            "triangles": triangles,
            "mshed": extras(obj),
        })
    return {"file": path, "objects": objects}


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    status = 0
    for path in argv:
        try:
            print("MSHED-BLENDER " + json.dumps(describe(path), ensure_ascii=False), flush=True)
        except Exception as e:  # report and go on with the next file
            print(f"MSHED-BLENDER-ERROR {path}: {e}", flush=True)
            status = 1
    sys.stdout.flush()
    sys.exit(status)


main()
