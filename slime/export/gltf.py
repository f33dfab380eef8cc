"""A recorded run as glTF 2.0 (``.glb``, or ``.gltf`` with one ``.bin`` beside it), for Blender,
three.js, ``<model-viewer>`` and any other glTF reader.

What the file holds, in the scene's units (metres, +y up, as glTF's own):

- **One mesh per slime**, named after it (``slime`` for the single slime; ``slime 1``, ``slime 2``...
  in a 3D scene, numbered in the scene file's order; the node's ``extras.npz_body`` is its index in
  the ``.npz``'s ``body`` array, the world's order of its bodies), indexed triangles with
  per-vertex normals of the surface at tick 0.
- **The animation**: frame k of the run (tick k, k = 0..N) is morph target k - 1 of each slime's
  mesh (positions and normals, as differences from tick 0; target names ``tick 1``... in the mesh's
  ``extras.targetNames``, which Blender names its shape keys after), and one animation, ``run``, steps
  the weights so that exactly one target is on at a time, with STEP interpolation. Each tick is shown
  from half a tick before its time ``k * dt`` to half a tick after, so a player that samples at
  ``k * dt`` gets tick k whatever the rounding of the float32 key times (Blender at the simulation's
  rate, 60 frames a second, shows tick k on frame k). The weights are a sparse accessor: zeros with
  one 1 per key, so the file grows with the frames and not with their square.
- **Each slime's material** from its ``SlimeLook`` (``material_of_look``): a clear surface (base
  colour white, see ``JELLY_BASE_COLOR``) with roughness from the highlight's shininess,
  ``KHR_materials_transmission``, ``KHR_materials_ior`` (the look's refraction) and
  ``KHR_materials_volume`` (the look's Beer-Lambert absorption as attenuation colour and distance,
  which is where its colour is); the whole look is kept in the material's ``extras.slime_look``.
- **The camera** ``slime render`` would draw the run from (node ``camera``), when the command gives it.
- **Each obstacle** as a mesh of its own (``box 1``, ``ball 2``, ``plane 3``: numbered as in the scene
  file), and the floor (``floor``), a square of twice ``obstacle_mesh.PLANE_EXTENT`` a side at the floor's height, unless asked not to.

The library (pygltflib) lays out the document and the GLB container; this module only fills the one
buffer with the arrays the accessors point into. Numpy and pygltflib only: no GL.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np
import pygltflib as gl

from slime.fileio import atomic_path, write_error
from slime.limits import MAX_EXPORT_FRAMES, MAX_EXPORT_VERTEX_FRAMES
from slime.look import SlimeLook
from slime.mesh import VertexNormals
from slime.obstacle_mesh import obstacle_mesh

SUFFIXES = (".glb", ".gltf")
EXTENSIONS = ("KHR_materials_transmission", "KHR_materials_ior", "KHR_materials_volume")
OBSTACLE_ROUGHNESS = 0.7  # the renderer lights obstacles diffusely: a matte surface in PBR terms


@dataclass
class SlimePart:
    """One slime of a recording: its vertices are ``positions[:, start:stop]``, its triangles index
    them from 0 (counter-clockwise seen from outside)."""

    name: str
    look: SlimeLook
    start: int
    stop: int
    triangles: np.ndarray
    npz_body: int | None = None  # its index in the .npz's ``body`` array, when it is one of several

    @property
    def vertex_count(self) -> int:
        return self.stop - self.start


@dataclass
class Recording:
    """A run as the exporter needs it: every frame's positions (F, P, 3) (frame k after k ticks), the
    tick length, the slimes, the obstacles (mappings ``slime.obstacle_mesh`` reads, each with a
    ``name``) and the floor's height (None: no floor)."""

    positions: np.ndarray
    dt: float
    slimes: list[SlimePart]
    obstacles: list[dict] = field(default_factory=list)
    floor_height: float | None = 0.0
    floor_color: tuple = SlimeLook().floor_light
    camera: ViewPoint | None = None


@dataclass(frozen=True)
class ViewPoint:
    """Where ``slime render`` looks from: the eye, the point it looks at (+y up), the vertical field
    of view in degrees and the picture's width / height."""

    eye: tuple
    target: tuple
    fov_y: float = 40.0
    aspect: float = 4.0 / 3.0


# --- how big a run is, before it runs ------------------------------------------------------------------
def estimated_bytes(vertex_counts: Sequence[int], triangle_counts: Sequence[int], frames: int,
                    solid_vertices: int = 0) -> int:
    """About the size of the file (GLB; a ``.gltf`` and its ``.bin`` together are a little more):
    a float32 position and normal per vertex and frame, the triangles, the keys and sparse weights
    of the animation, the obstacles' and floor's ``solid_vertices``, and the JSON, whose accessors
    (two a frame and slime) take about 300 bytes each."""
    vertices, slimes = int(sum(vertex_counts)), len(vertex_counts)
    data = 24 * (vertices * frames + solid_vertices) + 12 * int(sum(triangle_counts)) + 12 * (frames + 1)
    return data + 300 * 2 * slimes * frames + 20_000


def solid_vertices(obstacles: Sequence, floor: bool) -> int:
    """The vertices of the obstacles' meshes and the floor's (two triangles)."""
    return sum(len(obstacle_mesh(o)) for o in obstacles) + (6 if floor else 0)


def check_size(what: str, vertex_counts: Sequence[int], triangle_counts: Sequence[int], frames: int,
               solid: int = 0) -> None:
    """Refuse, in one line with the estimated file size, a run too large to export (limits.py);
    ``solid``: the obstacles' and floor's vertices (``solid_vertices``)."""
    vertex_frames = int(sum(vertex_counts)) * frames
    size = _size_text(estimated_bytes(vertex_counts, triangle_counts, frames, solid))
    shape = f"{len(vertex_counts)} slime{'s' if len(vertex_counts) != 1 else ''} x {int(sum(vertex_counts)):,} " \
            f"vertices x {frames:,} frames"
    if frames > MAX_EXPORT_FRAMES:
        raise ValueError(f"{what}: {shape} is over the {MAX_EXPORT_FRAMES:,} frames a glTF export may hold "
                         f"(about {size}); ask for at most {MAX_EXPORT_FRAMES - 1} --ticks")
    if vertex_frames > MAX_EXPORT_VERTEX_FRAMES:
        most = max(MAX_EXPORT_VERTEX_FRAMES // max(int(sum(vertex_counts)), 1) - 1, 0)
        raise ValueError(f"{what}: {shape} = {vertex_frames:,} vertex positions is over the "
                         f"{MAX_EXPORT_VERTEX_FRAMES:,} a glTF export may hold (about {size}); ask for at most "
                         f"{most} --ticks or a coarser slime")


def _size_text(size: int) -> str:
    return f"{size / 1e9:.1f} GB" if size >= 1e9 else f"{size / 1e6:.0f} MB" if size >= 1e6 else f"{size / 1e3:.0f} kB"


# --- the material -----------------------------------------------------------------------------------------
def linear_of_screen(rgb) -> list[float]:
    """glTF's colour factors are linear; slime's renderer writes the colours it is given (an
    obstacle's, the floor's) into the picture as they are, with no transfer curve, so what the eye
    sees there are sRGB-encoded values. Decoding them (the sRGB curve) makes a glTF reader's picture
    show the colour slime's does."""
    c = np.clip(np.asarray(rgb, dtype=np.float64), 0.0, 1.0)
    return [float(v) for v in np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)]


def roughness_of_shininess(shininess: float) -> float:
    """The GGX roughness whose lobe is about as wide as a Blinn-Phong lobe of exponent ``shininess``:
    alpha^2 = 2 / (shininess + 2) (Walter et al.'s match of the two), and glTF's roughness is
    sqrt(alpha)."""
    return float((2.0 / (shininess + 2.0)) ** 0.25)


def attenuation_of_absorption(absorption, diameter: float) -> dict:
    """``KHR_materials_volume`` of a Beer-Lambert absorption (per metre, per channel): light that
    crosses ``x`` metres keeps ``attenuationColor ** (x / attenuationDistance)`` = exp(-absorption x).
    The distance is where the most absorbed channel drops to 1/e (the colour is then each channel's
    share at that depth); ``thicknessFactor`` is the rest diameter, the thickness a reader assumes
    where it does not trace the mesh."""
    sigma = np.asarray(absorption, dtype=np.float64)
    volume = {"thicknessFactor": float(diameter)}
    peak = float(sigma.max())
    if peak > 0.0:  # no absorption: glTF's defaults (white, infinitely far) say so
        distance = 1.0 / peak
        volume["attenuationDistance"] = distance
        volume["attenuationColor"] = [float(c) for c in np.exp(-sigma * distance)]
    return volume


# The jelly's base colour. glTF's base colour tints transmitted light at the surface (a path tracer
# such as Cycles at every crossing, in and out); slime's jelly tints light only through its
# thickness, by its absorption, and a thin film of it is clear. So the surface is white and the
# look's colour is all in the volume's attenuation.
JELLY_BASE_COLOR = (1.0, 1.0, 1.0)


def material_of_look(name: str, look: SlimeLook, diameter: float) -> gl.Material:
    """The PBR jelly of a SlimeLook, ``diameter`` metres across at rest: clear at the surface
    (``JELLY_BASE_COLOR``), coloured through its thickness by the look's absorption, bent by its
    index of refraction, as rough as its highlight is broad."""
    return gl.Material(
        name=name,
        pbrMetallicRoughness=gl.PbrMetallicRoughness(
            baseColorFactor=[*JELLY_BASE_COLOR, 1.0], metallicFactor=0.0,
            roughnessFactor=roughness_of_shininess(look.shininess)),
        extensions={
            "KHR_materials_transmission": {"transmissionFactor": 1.0},
            "KHR_materials_ior": {"ior": float(look.refraction)},
            "KHR_materials_volume": attenuation_of_absorption(look.absorption, diameter),
        },
        extras={"slime_look": look.to_dict()},
    )


# --- the document ------------------------------------------------------------------------------------------
class _Builder:
    """A glTF document and its one buffer, filled array by array."""

    def __init__(self):
        import slime

        self.doc = gl.GLTF2(asset=gl.Asset(version="2.0", generator=f"slime {slime.__version__}"), scene=0)
        self.doc.scenes.append(gl.Scene(nodes=[]))
        self.chunks: list[bytes] = []
        self.length = 0

    def view(self, array: np.ndarray, target: int | None = None, stride: int | None = None) -> int:
        """A buffer view of ``array``'s bytes (little-endian, 4-byte aligned as accessors need);
        ``stride``: the bytes from one vertex to the next, which glTF asks of a view that several
        vertex accessors share."""
        data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
        pad = (-self.length) % 4
        if pad:
            self.chunks.append(b"\0" * pad)
            self.length += pad
        self.doc.bufferViews.append(gl.BufferView(buffer=0, byteOffset=self.length, byteLength=len(data), target=target,
                                                  byteStride=stride))
        self.chunks.append(data)
        self.length += len(data)
        return len(self.doc.bufferViews) - 1

    def accessor(self, view: int, array: np.ndarray, kind: str, *, offset: int = 0, bounds: bool = False) -> int:
        """An accessor of float32 (rows of ``kind``) or uint32 ``array`` at ``offset`` bytes into ``view``."""
        component = gl.FLOAT if array.dtype == np.float32 else gl.UNSIGNED_INT
        rows = array.reshape(len(array), -1)
        extra = {}
        if bounds:
            extra = {"min": [float(v) for v in rows.min(axis=0)], "max": [float(v) for v in rows.max(axis=0)]}
        self.doc.accessors.append(gl.Accessor(bufferView=view, byteOffset=offset, componentType=component,
                                              count=len(array), type=kind, **extra))
        return len(self.doc.accessors) - 1

    def add_node(self, name: str, mesh: int) -> int:
        self.doc.nodes.append(gl.Node(name=name, mesh=mesh))
        node = len(self.doc.nodes) - 1
        self.doc.scenes[0].nodes.append(node)
        return node

    def finish(self) -> gl.GLTF2:
        blob = b"".join(self.chunks)
        self.doc.buffers.append(gl.Buffer(byteLength=len(blob)))
        self.doc.set_binary_blob(blob)
        return self.doc


def _slime_mesh(b: _Builder, part: SlimePart, frames: np.ndarray, material: int) -> int:
    """The slime's mesh: tick 0, and every later frame as a morph target."""
    positions = frames[:, part.start:part.stop]
    surface = VertexNormals(part.triangles, part.vertex_count)
    first = positions[0].astype(np.float64)
    first_normals = surface(first).copy()
    # Differences from tick 0 taken in float64 and stored as float32, frame by frame: the file's
    # arrays are the only copies the size of the run.
    moved_x = np.empty((len(positions) - 1, part.vertex_count, 3), dtype=np.float32)
    moved_n = np.empty_like(moved_x)
    normals = np.empty((part.vertex_count, 3))
    for k in range(1, len(positions)):  # one call a frame, as the renderer does; nothing per vertex
        np.subtract(positions[k], first, out=moved_x[k - 1], casting="unsafe")
        np.subtract(surface(positions[k], out=normals), first_normals, out=moved_n[k - 1], casting="unsafe")
    base_x, base_n = first.astype(np.float32), first_normals.astype(np.float32)
    attributes = gl.Attributes(POSITION=b.accessor(b.view(base_x, gl.ARRAY_BUFFER), base_x, gl.VEC3, bounds=True),
                               NORMAL=b.accessor(b.view(base_n, gl.ARRAY_BUFFER), base_n, gl.VEC3))
    indices = np.ascontiguousarray(part.triangles, dtype=np.uint32).reshape(-1)
    primitive = gl.Primitive(attributes=attributes, material=material,
                             indices=b.accessor(b.view(indices, gl.ELEMENT_ARRAY_BUFFER), indices, gl.SCALAR))
    x_view, n_view = b.view(moved_x, gl.ARRAY_BUFFER, 12), b.view(moved_n, gl.ARRAY_BUFFER, 12)
    stride = part.vertex_count * 12
    for k in range(len(moved_x)):
        primitive.targets.append(gl.Attributes(
            POSITION=b.accessor(x_view, moved_x[k], gl.VEC3, offset=k * stride, bounds=True),
            NORMAL=b.accessor(n_view, moved_n[k], gl.VEC3, offset=k * stride)))
    b.doc.meshes.append(gl.Mesh(name=part.name, primitives=[primitive], weights=[0.0] * len(moved_x),
                                extras={"targetNames": [f"tick {k}" for k in range(1, len(positions))]}))
    return len(b.doc.meshes) - 1


def _wound_by_normals(positions: np.ndarray, normals: np.ndarray) -> np.ndarray:
    """Unindexed triangles reordered where needed so each runs counter-clockwise seen from the side
    its normals face (glTF's front face), whatever order the obstacle's mesh lists them in; the
    triangles with no area (a ball's pole rows) left out."""
    tri = positions.reshape(-1, 3, 3)
    area = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    facing = np.einsum("ij,ij->i", area, normals.reshape(-1, 3, 3).sum(axis=1))
    size = np.max(np.ptp(positions, axis=0)) if len(positions) else 0.0
    keep = np.flatnonzero(np.linalg.norm(area, axis=1) > 1e-12 * size * size)
    order = np.tile(np.arange(3), (len(keep), 1))
    order[facing[keep] < 0] = (0, 2, 1)
    return (keep[:, None] * 3 + order).reshape(-1)


def _solid_mesh(b: _Builder, name: str, obstacle) -> int:
    """An obstacle (or the floor) as an unindexed, one-coloured mesh."""
    rows = obstacle_mesh(obstacle)
    order = _wound_by_normals(rows[:, :3].astype(np.float64), rows[:, 3:6].astype(np.float64))
    x = np.ascontiguousarray(rows[order, :3], dtype=np.float32)
    n = np.ascontiguousarray(rows[order, 3:6], dtype=np.float32)
    b.doc.materials.append(gl.Material(name=name, pbrMetallicRoughness=gl.PbrMetallicRoughness(
        baseColorFactor=[*linear_of_screen(rows[0, 6:9]), 1.0], metallicFactor=0.0,
        roughnessFactor=OBSTACLE_ROUGHNESS)))
    attributes = gl.Attributes(POSITION=b.accessor(b.view(x, gl.ARRAY_BUFFER), x, gl.VEC3, bounds=True),
                               NORMAL=b.accessor(b.view(n, gl.ARRAY_BUFFER), n, gl.VEC3))
    b.doc.meshes.append(gl.Mesh(name=name, primitives=[gl.Primitive(attributes=attributes,
                                                                    material=len(b.doc.materials) - 1)]))
    return len(b.doc.meshes) - 1


def _look_at(eye: np.ndarray, target: np.ndarray) -> list[float]:
    """The unit quaternion (x, y, z, w) turning a glTF camera (looking down its -z, +y up) to look
    from ``eye`` at ``target`` with the world's +y up."""
    forward = (target - eye) / np.linalg.norm(target - eye)
    right = np.cross(forward, [0.0, 1.0, 0.0])
    right /= np.linalg.norm(right)
    up = np.cross(right, forward)
    m = np.column_stack([right, up, -forward])  # the camera's axes in the world
    w = math.sqrt(max(1.0 + m[0, 0] + m[1, 1] + m[2, 2], 0.0)) / 2.0
    if w > 1e-6:
        q = [(m[2, 1] - m[1, 2]) / (4 * w), (m[0, 2] - m[2, 0]) / (4 * w), (m[1, 0] - m[0, 1]) / (4 * w), w]
    else:  # a half turn: read the axis off the largest diagonal element
        i = int(np.argmax(np.diag(m)))
        j, k = (i + 1) % 3, (i + 2) % 3
        s = math.sqrt(max(1.0 + m[i, i] - m[j, j] - m[k, k], 0.0)) * 2.0
        q = [0.0, 0.0, 0.0, (m[k, j] - m[j, k]) / s]
        q[i], q[j], q[k] = s / 4.0, (m[j, i] + m[i, j]) / s, (m[k, i] + m[i, k]) / s
    q = np.asarray(q) / np.linalg.norm(q)
    return [float(v) for v in q]


def _camera(b: _Builder, view: ViewPoint) -> None:
    eye, target = np.asarray(view.eye, dtype=np.float64), np.asarray(view.target, dtype=np.float64)
    b.doc.cameras.append(gl.Camera(name="camera", type=gl.PERSPECTIVE, perspective=gl.Perspective(
        yfov=math.radians(view.fov_y), aspectRatio=float(view.aspect), znear=0.05)))
    b.doc.nodes.append(gl.Node(name="camera", camera=len(b.doc.cameras) - 1,
                               translation=[float(v) for v in eye], rotation=_look_at(eye, target)))
    b.doc.scenes[0].nodes.append(len(b.doc.nodes) - 1)


def _key_times(frames: int, dt: float) -> tuple[np.ndarray, np.ndarray]:
    """The animation's key times and which frame each key shows: frame 0 from 0, frame k from half a
    tick before ``k * dt``, and a last key at the last frame's own time so the animation lasts
    exactly ``(frames - 1) * dt``."""
    times = np.concatenate([[0.0], (np.arange(1, frames) - 0.5) * dt, [(frames - 1) * dt]])
    shown = np.concatenate([np.arange(frames), [frames - 1]])
    return times.astype(np.float32), shown


def _animation(b: _Builder, slime_nodes: list[int], frames: int, dt: float) -> None:
    """One animation stepping every slime's morph weights through the frames."""
    times, shown = _key_times(frames, dt)
    targets = frames - 1
    time_accessor = b.accessor(b.view(times), times, gl.SCALAR, bounds=True)
    on = np.flatnonzero(shown > 0)  # keys with a target on (frame 0 is the base mesh: all off)
    where = (on * targets + shown[on] - 1).astype(np.uint32)
    ones = np.ones(len(on), dtype=np.float32)
    b.doc.accessors.append(gl.Accessor(
        byteOffset=None, componentType=gl.FLOAT, count=len(times) * targets, type=gl.SCALAR,
        sparse=gl.Sparse(count=len(on),
                         indices=gl.AccessorSparseIndices(bufferView=b.view(where), componentType=gl.UNSIGNED_INT),
                         values=gl.AccessorSparseValues(bufferView=b.view(ones)))))
    weights = len(b.doc.accessors) - 1
    animation = gl.Animation(name="run")
    for node in slime_nodes:
        animation.samplers.append(gl.AnimationSampler(input=time_accessor, output=weights, interpolation=gl.ANIM_STEP))
        animation.channels.append(gl.AnimationChannel(sampler=len(animation.samplers) - 1,
                                                      target=gl.AnimationChannelTarget(node=node, path="weights")))
    b.doc.animations.append(animation)


def build(recording: Recording, floor: bool = True) -> gl.GLTF2:
    """The glTF document (with its binary blob) of ``recording``."""
    frames = np.asarray(recording.positions)
    if frames.ndim != 3 or frames.shape[2] != 3 or len(frames) < 2:
        raise ValueError(f"positions must be (frames >= 2, points, 3), not shape {frames.shape}")
    b = _Builder()
    b.doc.extensionsUsed = list(EXTENSIONS)
    slime_nodes = []
    for part in recording.slimes:
        first = frames[0, part.start:part.stop]
        diameter = float(np.max(np.ptp(first, axis=0))) if part.vertex_count else 0.0
        b.doc.materials.append(material_of_look(part.name, part.look, diameter))
        mesh = _slime_mesh(b, part, frames, len(b.doc.materials) - 1)
        slime_nodes.append(b.add_node(part.name, mesh))
        if part.npz_body is not None:
            b.doc.nodes[-1].extras = {"npz_body": part.npz_body}
    for entry in recording.obstacles:
        b.add_node(entry["name"], _solid_mesh(b, entry["name"], entry))
    if floor and recording.floor_height is not None:
        plane = {"point": (0.0, float(recording.floor_height), 0.0), "normal": (0.0, 1.0, 0.0),
                 "color": tuple(recording.floor_color)}
        b.add_node("floor", _solid_mesh(b, "floor", plane))
    if recording.camera is not None:
        _camera(b, recording.camera)
    _animation(b, slime_nodes, len(frames), float(recording.dt))
    return b.finish()


def bin_path(path, blob: bytes) -> Path:
    """The buffer file a ``.gltf`` refers to: its own name, then a digest of the buffer's bytes,
    then ``.bin`` (``run.3f9a0c21d4e7.bin``). Unique to what it holds, so a new buffer never takes
    the place of the one an older ``.gltf`` still reads: a reader sees the old pair or the new one,
    whenever a write is cut off; and the same run written again is the same file."""
    digest = hashlib.blake2b(blob, digest_size=6).hexdigest()
    return Path(path).with_name(f"{Path(path).stem}.{digest}.bin")


def _old_buffer(path: Path) -> Path | None:
    """The buffer the ``.gltf`` now at ``path`` (if any) reads, when it is one this module wrote
    beside it (a name of its own with ``.bin``: nothing else of the user's is ever removed)."""
    try:
        uri = json.loads(path.read_bytes()[: 64 * 1024 * 1024])["buffers"][0]["uri"]
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None
    if not isinstance(uri, str) or "/" in uri or "\\" in uri:
        return None
    stem = path.stem
    if uri == f"{stem}.bin" or (uri.startswith(f"{stem}.") and uri.endswith(".bin") and len(uri) == len(stem) + 17):
        return path.with_name(uri)
    return None


def write(path, recording: Recording, floor: bool = True) -> Path:
    """Write ``recording`` to ``path`` (``.glb``: one file; ``.gltf``: JSON and a ``.bin`` beside it),
    through temporaries renamed on success: a failed or interrupted write leaves no new file. A
    ``.gltf``'s buffer has a name of its own for what it holds (``bin_path``), renamed into place
    before the ``.gltf``, and the buffer the replaced ``.gltf`` read is removed after: at no moment
    does a ``.gltf`` point at a buffer that is not its own. A write that fails (a full disk) raises
    OSError naming ``path``."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{path}: a glTF file ends with .glb or .gltf")
    doc = build(recording, floor)
    try:
        if suffix == ".glb":
            with atomic_path(path, suffix=".glb") as tmp:
                doc.save_binary(str(tmp))
        else:
            blob = doc.binary_blob()
            buffer = bin_path(path, blob)
            doc.buffers[0].uri = buffer.name
            doc.set_binary_blob(None)
            old = _old_buffer(path)
            # Entered gltf first, so the .bin is renamed first on the way out.
            with ExitStack() as stack:
                json_tmp = stack.enter_context(atomic_path(path, suffix=".gltf"))
                blob_tmp = stack.enter_context(atomic_path(buffer, suffix=".bin"))
                blob_tmp.write_bytes(blob)
                json_tmp.write_text(doc.gltf_to_json())
            if old is not None and old != buffer:
                old.unlink(missing_ok=True)
    except OSError as exc:
        # One line naming the path the user asked for (not the .bin beside it, where the pair's
        # writer met the error first), and the reason.
        if str(exc).startswith(f"{path}:"):
            raise
        reason = OSError(exc.errno, os.strerror(exc.errno)) if exc.errno else exc
        raise write_error(path, reason) from None
    return path


# --- recordings of the runs slime simulates ---------------------------------------------------------------
def recording_of_world(arrays: dict, scene) -> Recording:
    """A 3D scene's run (``simulate_world``'s arrays and the ``WorldScene`` it ran; the lone slime's
    too, a scene of one slime, whose part is named plain "slime")."""
    world = scene.world
    in_file_order = sorted(range(len(world.bodies)), key=scene.file_index)
    slimes = [SlimePart("slime" if len(world.bodies) == 1 else f"slime {scene.file_index(i) + 1}",
                        world.bodies[i].tag if isinstance(world.bodies[i].tag, SlimeLook) else SlimeLook(),
                        world.bodies[i].start, world.bodies[i].stop, np.asarray(world.bodies[i].triangles), npz_body=i)
              for i in in_file_order]
    obstacles = [dict(drawn, name=f"{spec.kind} {i + 1}")
                 for i, (spec, drawn) in enumerate(zip(scene.spec.obstacles, scene.drawn_obstacles))]
    looks = [part.look for part in slimes]
    return Recording(positions=arrays["positions"], dt=float(world.dt), slimes=slimes, obstacles=obstacles,
                     floor_height=world.floor_height,
                     floor_color=looks[0].floor_light if looks else SlimeLook().floor_light)


def world_counts(scene) -> tuple[list[int], list[int]]:
    """Each slime's vertex and triangle count in a ``WorldScene`` (for ``check_size`` before it runs)."""
    bodies = scene.world.bodies
    return [b.stop - b.start for b in bodies], [len(b.triangles) for b in bodies]


__all__ = ["Recording", "SlimePart", "ViewPoint", "SUFFIXES", "bin_path", "build", "check_size", "estimated_bytes",
           "material_of_look", "recording_of_world", "solid_vertices", "world_counts", "write"]
