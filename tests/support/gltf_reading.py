"""Reading a glTF file back as a reader that is not slime's would: pygltflib parses the document,
and the arrays, the morph-target sum and the STEP animation are evaluated here from the spec's
rules (glTF 2.0, sections 3.6 accessors, 3.7.2.2 morph targets, 3.11 animations), not from the
exporter's code. ``structure_problems`` is a structural check of the parts of the spec the export
uses: every index in range, every byte range inside its buffer, the bounds and counts the spec
requires."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pygltflib as gl

COMPONENTS = {gl.FLOAT: np.float32, gl.UNSIGNED_INT: np.uint32, gl.UNSIGNED_SHORT: np.uint16,
              gl.UNSIGNED_BYTE: np.uint8}
WIDTH = {gl.SCALAR: 1, gl.VEC2: 2, gl.VEC3: 3, gl.VEC4: 4}


def load(path) -> tuple[gl.GLTF2, bytes]:
    """The document and its one buffer's bytes (the GLB's BIN chunk, or the .gltf's .bin file)."""
    path = Path(path)
    doc = gl.GLTF2().load(str(path))
    if path.suffix == ".glb":
        return doc, doc.binary_blob()
    assert len(doc.buffers) == 1 and doc.buffers[0].uri, "a .gltf must name its one .bin"
    return doc, (path.parent / doc.buffers[0].uri).read_bytes()


def _view_bytes(doc, blob, view_index: int) -> bytes:
    view = doc.bufferViews[view_index]
    return blob[(view.byteOffset or 0):(view.byteOffset or 0) + view.byteLength]


def accessor(doc, blob, index: int) -> np.ndarray:
    """The accessor's elements, (count, width), sparse substitution applied."""
    acc = doc.accessors[index]
    dtype, width = np.dtype(COMPONENTS[acc.componentType]).newbyteorder("<"), WIDTH[acc.type]
    if acc.bufferView is None:
        out = np.zeros((acc.count, width), dtype=dtype)
    else:
        view = doc.bufferViews[acc.bufferView]
        stride = view.byteStride or dtype.itemsize * width
        data = _view_bytes(doc, blob, acc.bufferView)
        rows = [np.frombuffer(data, dtype=dtype, count=width, offset=(acc.byteOffset or 0) + i * stride)
                for i in range(acc.count)] if stride != dtype.itemsize * width else None
        out = (np.stack(rows) if rows is not None else
               np.frombuffer(data, dtype=dtype, count=acc.count * width, offset=acc.byteOffset or 0)
               .reshape(acc.count, width)).copy()
    if acc.sparse is not None:
        s = acc.sparse
        where = np.frombuffer(_view_bytes(doc, blob, s.indices.bufferView), offset=s.indices.byteOffset or 0,
                              dtype=np.dtype(COMPONENTS[s.indices.componentType]).newbyteorder("<"), count=s.count)
        values = np.frombuffer(_view_bytes(doc, blob, s.values.bufferView), offset=s.values.byteOffset or 0,
                               dtype=dtype, count=s.count * width).reshape(s.count, width)
        out[where.astype(np.int64)] = values
    return out


def _target(target, name: str) -> int:
    """A morph target's attribute (pygltflib reads targets as plain dicts)."""
    return target[name] if isinstance(target, dict) else getattr(target, name)


def node_named(doc, name: str):
    found = [n for n in doc.nodes if n.name == name]
    assert len(found) == 1, f"{len(found)} nodes named {name!r}"
    return found[0]


def weights_at(doc, blob, node_index: int, time: float) -> np.ndarray:
    """The morph weights an animation gives ``node_index`` at ``time``: STEP holds the value of the
    last key at or before ``time`` (the node's mesh's default weights where no animation targets it)."""
    mesh = doc.meshes[doc.nodes[node_index].mesh]
    for animation in doc.animations:
        for channel in animation.channels:
            if channel.target.node == node_index and channel.target.path == "weights":
                sampler = animation.samplers[channel.sampler]
                assert sampler.interpolation == gl.ANIM_STEP
                times = accessor(doc, blob, sampler.input)[:, 0]
                values = accessor(doc, blob, sampler.output)[:, 0].reshape(len(times), -1)
                key = max(int(np.searchsorted(times, np.float32(time), side="right")) - 1, 0)
                return values[key].astype(np.float64)
    return np.asarray(mesh.weights, dtype=np.float64)


def mesh_at(doc, blob, name: str, time: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(positions, normals, triangles) of the node ``name``'s mesh at ``time``: base attributes plus
    the weighted morph-target differences."""
    node = node_named(doc, name)
    primitive = doc.meshes[node.mesh].primitives[0]
    weights = weights_at(doc, blob, doc.nodes.index(node), time)
    x = accessor(doc, blob, primitive.attributes.POSITION).astype(np.float64)
    n = accessor(doc, blob, primitive.attributes.NORMAL).astype(np.float64)
    for w, target in zip(weights, primitive.targets):
        if w:
            x += w * accessor(doc, blob, _target(target, "POSITION"))
            n += w * accessor(doc, blob, _target(target, "NORMAL"))
    if primitive.indices is None:
        triangles = np.arange(len(x)).reshape(-1, 3)
    else:
        triangles = accessor(doc, blob, primitive.indices).reshape(-1, 3).astype(np.int64)
    return x, n, triangles


def structure_problems(doc: gl.GLTF2, blob: bytes) -> list[str]:
    """What in the document breaks the glTF 2.0 rules the export relies on ([] when none)."""
    problems = []

    def check(ok, message):
        if not ok:
            problems.append(message)

    check(doc.asset.version == "2.0", f"asset.version {doc.asset.version}")
    check(len(doc.buffers) == 1 and doc.buffers[0].byteLength <= len(blob) <= doc.buffers[0].byteLength + 3,
          "the buffer's byteLength is not its data's length")
    for i, view in enumerate(doc.bufferViews):
        start = view.byteOffset or 0
        check(view.buffer == 0 and start + view.byteLength <= doc.buffers[0].byteLength,
              f"bufferView {i} runs past the buffer")
        check(view.byteStride is None or (4 <= view.byteStride <= 252 and view.byteStride % 4 == 0),
              f"bufferView {i} byteStride {view.byteStride}")
    users: dict[int, int] = {}
    for i, acc in enumerate(doc.accessors):
        size = np.dtype(COMPONENTS[acc.componentType]).itemsize * WIDTH[acc.type]
        check(acc.count >= 1, f"accessor {i} is empty")
        if acc.bufferView is not None:
            users[acc.bufferView] = users.get(acc.bufferView, 0) + 1
            view = doc.bufferViews[acc.bufferView]
            offset = acc.byteOffset or 0
            stride = view.byteStride or size
            check(offset % np.dtype(COMPONENTS[acc.componentType]).itemsize == 0, f"accessor {i} misaligned")
            check(((view.byteOffset or 0) + offset) % 4 == 0, f"accessor {i} not 4-byte aligned in the buffer")
            check(offset + stride * (acc.count - 1) + size <= view.byteLength, f"accessor {i} runs past its bufferView")
        else:
            check(acc.byteOffset in (None, 0), f"accessor {i} has a byteOffset but no bufferView")
        if acc.sparse is not None:
            s = acc.sparse
            idx = np.frombuffer(_view_bytes(doc, blob, s.indices.bufferView), offset=s.indices.byteOffset or 0,
                                dtype=COMPONENTS[s.indices.componentType], count=s.count).astype(np.int64)
            check(np.all(np.diff(idx) > 0) and idx.max() < acc.count, f"accessor {i}: sparse indices not increasing "
                                                                      "or out of range")
            for part in (s.indices, s.values):
                check(doc.bufferViews[part.bufferView].target is None,
                      f"accessor {i}: a sparse bufferView must have no target")
        if acc.min or acc.max:
            data = accessor(doc, blob, i)
            check(np.allclose(data.min(axis=0), acc.min, rtol=0, atol=1e-6)
                  and np.allclose(data.max(axis=0), acc.max, rtol=0, atol=1e-6), f"accessor {i}: min/max wrong")
    for mesh_index, mesh in enumerate(doc.meshes):
        for primitive in mesh.primitives:
            check(primitive.mode == gl.TRIANGLES, f"mesh {mesh.name}: not triangles")
            pos = doc.accessors[primitive.attributes.POSITION]
            check(bool(pos.min) and bool(pos.max), f"mesh {mesh.name}: POSITION without min/max")
            count = pos.count
            attributes = [primitive.attributes.POSITION, primitive.attributes.NORMAL]
            for target in primitive.targets:
                check(bool(doc.accessors[_target(target, "POSITION")].min), f"mesh {mesh.name}: a target POSITION without min/max")
                attributes += [_target(target, "POSITION"), _target(target, "NORMAL")]
            for a in attributes:
                check(doc.accessors[a].count == count and doc.accessors[a].type == gl.VEC3
                      and doc.accessors[a].componentType == gl.FLOAT, f"mesh {mesh.name}: attribute {a} differs")
                view = doc.accessors[a].bufferView
                check(doc.bufferViews[view].target == gl.ARRAY_BUFFER, f"mesh {mesh.name}: attribute view target")
                check(users[view] == 1 or doc.bufferViews[view].byteStride is not None,
                      f"mesh {mesh.name}: a shared vertex bufferView without byteStride")
            if primitive.indices is not None:
                idx = accessor(doc, blob, primitive.indices)
                check(idx.max() < count and doc.accessors[primitive.indices].count % 3 == 0,
                      f"mesh {mesh.name}: indices out of range")
                check(doc.bufferViews[doc.accessors[primitive.indices].bufferView].target == gl.ELEMENT_ARRAY_BUFFER,
                      f"mesh {mesh.name}: indices view target")
            else:
                check(count % 3 == 0, f"mesh {mesh.name}: a triangle list of {count} vertices")
            check(primitive.material is not None and primitive.material < len(doc.materials),
                  f"mesh {mesh.name}: material")
            if primitive.targets:
                check(len(mesh.weights) == len(primitive.targets), f"mesh {mesh.name}: weights vs targets")
                names = (mesh.extras or {}).get("targetNames", [])
                check(len(names) == len(primitive.targets), f"mesh {mesh.name}: targetNames vs targets")
        check(any(n.mesh == mesh_index for n in doc.nodes), f"mesh {mesh.name} is in no node")
    for i, node in enumerate(doc.nodes):
        check(node.mesh is None or node.mesh < len(doc.meshes), f"node {i}: mesh index")
        check(node.camera is None or node.camera < len(doc.cameras), f"node {i}: camera index")
        if node.rotation:
            check(abs(np.linalg.norm(node.rotation) - 1.0) < 1e-6, f"node {i}: rotation not a unit quaternion")
    roots = doc.scenes[doc.scene].nodes
    check(sorted(roots) == list(range(len(doc.nodes))), "not every node is in the scene once")
    used = set()
    for material in doc.materials:
        used |= set((material.extensions or {}).keys())
        volume = (material.extensions or {}).get("KHR_materials_volume")
        if volume:
            check("KHR_materials_transmission" in material.extensions, "volume without transmission")
            check(all(0 <= c <= 1 for c in volume.get("attenuationColor", [1, 1, 1]))
                  and volume.get("attenuationDistance", 1.0) > 0, f"material {material.name}: volume out of range")
        pbr = material.pbrMetallicRoughness
        check(all(0 <= c <= 1 for c in pbr.baseColorFactor) and 0 <= pbr.roughnessFactor <= 1,
              f"material {material.name}: factors out of range")
    check(used <= set(doc.extensionsUsed or []), f"extensions used but not listed: {used - set(doc.extensionsUsed or [])}")
    for animation in doc.animations:
        targets = set()
        for channel in animation.channels:
            sampler = animation.samplers[channel.sampler]
            times = doc.accessors[sampler.input]
            check(bool(times.min) and bool(times.max), "animation input without min/max")
            t = accessor(doc, blob, sampler.input)[:, 0]
            check(np.all(np.diff(t) > 0) and t[0] >= 0, "animation key times not increasing")
            node = doc.nodes[channel.target.node]
            morphs = len(doc.meshes[node.mesh].primitives[0].targets)
            check(doc.accessors[sampler.output].count == times.count * morphs, "weights output count")
            key = (channel.target.node, channel.target.path)
            check(key not in targets, "two channels with one target")
            targets.add(key)
    return problems
