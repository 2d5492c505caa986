# blender-roundtrip.py: a glTF through Blender and back out, with an optional scripted edit.
#
# Copyright 2026 The mshed authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   blender --background --factory-startup --python tests/gltf/blender-roundtrip.py -- \
#       IN OUT [--move OBJECT DX DY DZ] [--move-group OBJECT GROUP DX DY DZ]
#       [--rename OBJECT NEW] [--delete-faces OBJECT N] [--add-cube PARENT NAME]
#       [--subdivide OBJECT] [--set-weights OBJECT GROUP IDS] [--subdivide-face OBJECT IDS]
#       [--delete-vertex OBJECT ID] [--duplicate OBJECT DX DY DZ]
#       [--assign-material OBJECT NAME R,G,B IDS] [--plain]
#
# Imports IN into an empty scene (bpy.ops.import_scene.gltf), applies the edits and exports
# OUT (.glb or .gltf, the buffer embedded) with custom properties (export_extras=True), as a
# user exporting with "Include: Custom Properties" does. --move adds (DX, DY, DZ), in the
# mesh's own glTF axes, to every vertex of OBJECT's mesh; --move-group only to the vertices
# that vertex group GROUP (a bone of a skinned mesh) weighs; --rename renames an object;
# --delete-faces deletes the first N faces of OBJECT's mesh; --add-cube adds a cube mesh
# object NAME (size 0.5) as a child of PARENT; --subdivide cuts every edge of OBJECT's mesh
# once (bmesh, so the new vertices interpolate the UV maps, the id map included);
# --set-weights gives the vertices whose id (the second UV map's u, glTF TEXCOORD_1) is one of
# IDS (comma-separated) the one vertex group GROUP with weight 1; --subdivide-face cuts the
# edges of the one face whose corners' ids are IDS once (bmesh, as --subdivide);
# --delete-vertex deletes the vertices whose id is ID with their faces; --duplicate copies
# OBJECT as Shift+D does (bpy.ops.object.duplicate: a new object named OBJECT.001 with a copy
# of the mesh, custom properties included) and moves the copy by (DX, DY, DZ) in glTF axes;
# --assign-material adds a new material NAME of base colour (R, G, B) as a slot of OBJECT and
# gives it to the faces whose every corner's id is one of IDS; --plain
# exports without custom properties, as a glTF from elsewhere.
# Prints "MSHED-BLENDER-ROUNDTRIP OK" and exits 0, or exits 1 with the reason.
import sys

import bmesh
import bpy
import numpy

# Debian 12 pairs Blender 3.4.1 with NumPy 1.24; see blender-import.py.
if "bool" not in numpy.__dict__:
    numpy.bool = bool


def main():
    argv = sys.argv[sys.argv.index("--") + 1:]
    source, target, edits = argv[0], argv[1], argv[2:]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    if bpy.ops.import_scene.gltf(filepath=source) != {"FINISHED"}:
        raise RuntimeError(f"{source}: import failed")
    extras = "--plain" not in edits
    edits = [e for e in edits if e != "--plain"]
    i = 0
    while i < len(edits):
        if edits[i] == "--move":
            obj = bpy.data.objects[edits[i + 1]]
            dx, dy, dz = (float(v) for v in edits[i + 2:i + 5])
            # glTF (x, y, z) is Blender (x, -z, y) after the importer's +Y-up conversion
            for v in obj.data.vertices:
                v.co.x += dx
                v.co.y -= dz
                v.co.z += dy
            obj.data.update()
            i += 5
        elif edits[i] == "--delete-faces":
            mesh = bpy.data.objects[edits[i + 1]].data
            bm = bmesh.new()
            bm.from_mesh(mesh)
            bm.faces.ensure_lookup_table()
            faces = [bm.faces[k] for k in range(int(edits[i + 2]))]
            bmesh.ops.delete(bm, geom=faces, context="FACES_ONLY")
            bm.to_mesh(mesh)
            bm.free()
            i += 3
        elif edits[i] == "--add-cube":
            bpy.ops.mesh.primitive_cube_add(size=0.5)
            cube = bpy.context.active_object
            cube.name = edits[i + 2]
            cube.parent = bpy.data.objects[edits[i + 1]]
            i += 3
        elif edits[i] == "--subdivide":
            mesh = bpy.data.objects[edits[i + 1]].data
            bm = bmesh.new()
            bm.from_mesh(mesh)
            bmesh.ops.subdivide_edges(bm, edges=bm.edges[:], cuts=1, use_grid_fill=True)
            bm.to_mesh(mesh)
            bm.free()
            i += 2
        elif edits[i] == "--subdivide-face":
            mesh = bpy.data.objects[edits[i + 1]].data
            ids = {float(v) for v in edits[i + 2].split(",")}
            bm = bmesh.new()
            bm.from_mesh(mesh)
            layer = bm.loops.layers.uv[1]
            faces = [f for f in bm.faces if {c[layer].uv.x for c in f.loops} == ids]
            if len(faces) != 1:
                raise RuntimeError(f"--subdivide-face: {len(faces)} faces have ids {ids}")
            bmesh.ops.subdivide_edges(bm, edges=faces[0].edges[:], cuts=1, use_grid_fill=True)
            bm.to_mesh(mesh)
            bm.free()
            i += 3
        elif edits[i] == "--delete-vertex":
            mesh = bpy.data.objects[edits[i + 1]].data
            vid = float(edits[i + 2])
            bm = bmesh.new()
            bm.from_mesh(mesh)
            layer = bm.loops.layers.uv[1]
            verts = list({c.vert for f in bm.faces for c in f.loops if c[layer].uv.x == vid})
            if not verts:
                raise RuntimeError(f"--delete-vertex: no vertex has id {vid}")
            bmesh.ops.delete(bm, geom=verts, context="VERTS")
            bm.to_mesh(mesh)
            bm.free()
            i += 3
        elif edits[i] == "--move-group":
            obj = bpy.data.objects[edits[i + 1]]
            group = obj.vertex_groups[edits[i + 2]].index
            dx, dy, dz = (float(v) for v in edits[i + 3:i + 6])
            for v in obj.data.vertices:
                if any(g.group == group and g.weight > 0 for g in v.groups):
                    v.co.x += dx
                    v.co.y -= dz
                    v.co.z += dy
            obj.data.update()
            i += 6
        elif edits[i] == "--set-weights":
            obj = bpy.data.objects[edits[i + 1]]
            group = obj.vertex_groups[edits[i + 2]]
            ids = {float(v) for v in edits[i + 3].split(",")}
            ids_map = obj.data.uv_layers[1].data
            chosen = {loop.vertex_index for loop in obj.data.loops
                      if ids_map[loop.index].uv.x in ids}
            if not chosen:
                raise RuntimeError(f"--set-weights: no vertex has an id in {edits[i + 3]}")
            for k in chosen:
                for g in obj.vertex_groups:
                    g.remove([k])
                group.add([k], 1.0, "REPLACE")
            i += 4
        elif edits[i] == "--duplicate":
            obj = bpy.data.objects[edits[i + 1]]
            dx, dy, dz = (float(v) for v in edits[i + 2:i + 5])
            bpy.ops.object.select_all(action="DESELECT")
            obj.select_set(True)
            bpy.context.view_layer.objects.active = obj
            if bpy.ops.object.duplicate() != {"FINISHED"}:
                raise RuntimeError(f"--duplicate {obj.name}: failed")
            copy = bpy.context.view_layer.objects.active
            copy.location.x += dx
            copy.location.y -= dz
            copy.location.z += dy
            i += 5
        elif edits[i] == "--assign-material":
            obj = bpy.data.objects[edits[i + 1]]
            material = bpy.data.materials.new(edits[i + 2])
            material.use_nodes = True
            bsdf = material.node_tree.nodes["Principled BSDF"]
            rgb = [float(v) for v in edits[i + 3].split(",")]
            bsdf.inputs["Base Color"].default_value = (*rgb, 1.0)
            obj.data.materials.append(material)
            ids = {float(v) for v in edits[i + 4].split(",")}
            ids_map = obj.data.uv_layers[1].data
            faces = [f for f in obj.data.polygons
                     if all(ids_map[k].uv.x in ids for k in f.loop_indices)]
            if not faces:
                raise RuntimeError(f"--assign-material: no face has its ids in {edits[i + 4]}")
            for f in faces:
                f.material_index = len(obj.data.materials) - 1
            i += 5
        elif edits[i] == "--rename":
            bpy.data.objects[edits[i + 1]].name = edits[i + 2]
            i += 3
        else:
            raise RuntimeError(f"unknown edit {edits[i]}")
    fmt = "GLB" if target.lower().endswith(".glb") else "GLTF_EMBEDDED"
    result = bpy.ops.export_scene.gltf(filepath=target, export_format=fmt,
                                       export_extras=extras)
    if result != {"FINISHED"}:
        raise RuntimeError(f"{target}: export failed")
    print("MSHED-BLENDER-ROUNDTRIP OK", flush=True)


try:
    main()
except Exception as e:
    print(f"MSHED-BLENDER-ROUNDTRIP-ERROR {e}", flush=True)
    sys.exit(1)
sys.exit(0)
