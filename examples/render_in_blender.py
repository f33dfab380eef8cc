"""Render one frame of a slime run exported as glTF, in Blender (Cycles), without opening Blender's window.

    slime simulate pile --ticks 120 --output pile.glb
    python examples/render_in_blender.py pile.glb --frame 120 --output pile_blender.png

Run with Python, it starts Blender on itself (``blender`` must be on the PATH); inside Blender it is
the same as ``blender -b --python examples/render_in_blender.py -- pile.glb --frame 120 ...``.
It imports the file at the simulation's rate (60 frames a second, so frame k is tick k), looks
through the camera the file brings (where ``slime render`` looks from), lights the scene from the
directions and sky colours of the slimes' look (kept in each material's ``slime_look``), and writes
a PNG of that frame. Open the .blend it can save (``--blend``) to carry on by hand.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys

FPS = 60  # slime's tick rate: one tick a frame


def arguments(argv):
    parser = argparse.ArgumentParser(description="render a frame of a slime glTF in Blender")
    parser.add_argument("gltf", help="the .glb or .gltf from `slime simulate ... --output`")
    parser.add_argument("--frame", type=int, default=None, help="frame = tick to render (default: the last)")
    parser.add_argument("--output", default="slime_blender.png", help="the PNG to write")
    parser.add_argument("--size", default="800x600", help="picture size WxH (default 800x600)")
    parser.add_argument("--samples", type=int, default=32, help="Cycles samples per pixel (more: less noise, slower)")
    parser.add_argument("--blend", default=None, help="also save the scene as this .blend")
    return parser.parse_args(argv)


def in_blender(args) -> None:
    import bpy
    import numpy

    # Debian's Blender 3.4 ships a glTF importer that still says numpy.bool, which numpy 1.24 dropped.
    if not hasattr(numpy, "bool"):
        numpy.bool = bool

    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    scene.render.fps = FPS  # before the import: the importer turns key times into frames at this rate
    bpy.ops.import_scene.gltf(filepath=args.gltf)

    # The run's frame range: from the slimes' shape-key animations (0 to the last tick).
    ends = [obj.data.shape_keys.animation_data.action.frame_range[1] for obj in scene.objects
            if obj.type == "MESH" and obj.data.shape_keys and obj.data.shape_keys.animation_data]
    scene.frame_start, scene.frame_end = 0, int(round(max(ends)))
    scene.frame_set(scene.frame_end if args.frame is None else args.frame)

    cameras = [obj for obj in scene.objects if obj.type == "CAMERA"]
    if cameras:
        scene.camera = cameras[0]
    look = next((dict(slot.material["slime_look"]) for obj in scene.objects if obj.type == "MESH"
                 for slot in obj.material_slots if slot.material and "slime_look" in slot.material), None)

    # Light: a sun from the look's key light and a dimmer one from its fill, under a sky of its colours.
    from mathutils import Vector

    for name, key, strength in (("key", "key_dir", 2.0), ("fill", "fill_dir", 0.5)):
        sun = bpy.data.objects.new(name, bpy.data.lights.new(name, "SUN"))
        sun.data.energy = strength
        toward = Vector(look[key]) if look else Vector((-0.45, 1.0, 0.55))
        # glTF's +y up is Blender's +z: (x, y, z) -> (x, -z, y); a sun shines down its -z.
        sun.rotation_euler = Vector((toward.x, -toward.z, toward.y)).to_track_quat("Z", "Y").to_euler()
        scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("sky")
    world.use_nodes = True
    sky = look["sky_horizon"] if look else (0.93, 0.94, 0.93)
    world.node_tree.nodes["Background"].inputs["Color"].default_value = (*sky, 1.0)
    world.node_tree.nodes["Background"].inputs["Strength"].default_value = 0.6
    scene.world = world

    width, height = (int(v) for v in args.size.lower().split("x"))
    scene.render.engine = "CYCLES"
    scene.cycles.samples = args.samples
    scene.cycles.device = "CPU"
    scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = "Standard"  # plain sRGB, as slime render's pictures (not Filmic)
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = bpy.path.abspath(args.output)
    if args.blend:
        bpy.ops.wm.save_as_mainfile(filepath=args.blend)
    bpy.ops.render.render(write_still=True)
    print(f"wrote {args.output}: frame {scene.frame_current} of {scene.frame_start}-{scene.frame_end}")


def main() -> int:
    try:
        import bpy  # noqa: F401  (inside Blender)
    except ImportError:
        blender = shutil.which("blender")
        if blender is None:
            print("render_in_blender: Blender is not on the PATH (Debian: apt-get install blender)", file=sys.stderr)
            return 1
        arguments(sys.argv[1:])  # a bad command line fails here, before Blender starts
        done = subprocess.run([blender, "-b", "--factory-startup", "--python-exit-code", "1", "--python", __file__,
                               "--", *sys.argv[1:]])
        return done.returncode
    in_blender(arguments(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
