"""Run inside Blender (``blender -b --factory-startup --python tests/support/blender_report.py -- FILE FRAME OUT.json``):
import a glTF with Blender's own importer at 60 frames a second, as a student would, and write what
Blender made of it: the objects, each shape-key animation's frame range, and every mesh's vertex
positions (shape keys applied, in Blender's z-up world) at FRAME. tests/export/test_gltf_blender.py
compares them with the run's .npz."""

import json
import sys

import bpy
import numpy

# Debian's Blender 3.4 ships a glTF importer that still says numpy.bool, which numpy 1.24 dropped.
if not hasattr(numpy, "bool"):
    numpy.bool = bool

path, frame, out = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
scene = bpy.context.scene
scene.render.fps = 60
bpy.ops.import_scene.gltf(filepath=path)
scene.frame_set(int(frame))
depsgraph = bpy.context.evaluated_depsgraph_get()
report = {"fps": scene.render.fps, "objects": {}}
for obj in scene.objects:
    entry = {"type": obj.type}
    if obj.type == "MESH":
        keys = obj.data.shape_keys
        action = keys.animation_data.action if keys and keys.animation_data else None
        entry["shape_keys"] = len(keys.key_blocks) if keys else 0
        entry["frame_range"] = list(action.frame_range) if action else None
        entry["materials"] = [slot.material.name for slot in obj.material_slots if slot.material]
        mesh = obj.evaluated_get(depsgraph).to_mesh()
        world = obj.matrix_world
        entry["positions"] = [list(world @ v.co) for v in mesh.vertices]
        obj.evaluated_get(depsgraph).to_mesh_clear()
    report["objects"][obj.name] = entry
with open(out, "w") as f:
    json.dump(report, f)
