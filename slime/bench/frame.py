"""What a user waits for: one frame of a lone slime resting on the floor, for every material at
every mesh size, against one step of the PhysicalSlime C++ program (``bench/cpp.py``), which is
its whole frame (one update + integrate at dt 0.02 s), built and timed in the same run.

Rows:
  {"benchmark": "frame", "material", "stacks", "substeps", "ms_per_frame", "cpp_ms", "vs_cpp"}
      ``step()``: the substeps that material and mesh take (``slime3d/stability.py``) and the
      frame's health check. The two programs take turns (``bench.step.turns``). Where the C++
      program cannot be built (no sources beside the checkout, no g++) ``cpp_ms`` and ``vs_cpp``
      are left out, and the table says why in one line under it (``cpp.missing_reference``).
"""

from __future__ import annotations

from slime.bench.step import resting, turns
from slime.physics.slime3d.materials import MATERIALS
from slime.physics.slime3d.slime_params import SlimeParams

SIZES = (16, 32, 64, 128)


def run(quick: bool = False) -> list[dict]:
    rows = []
    for material in MATERIALS:
        for size in SIZES:
            body = resting(SlimeParams.of_material(material, stacks=size, slices=size), quick)
            substeps = body.world.substeps
            inner = max(1, 4000 // (size * size * substeps) * 4)
            ms, reference = turns(body.step, size, inner, quick)
            row = {"benchmark": "frame", "material": material, "stacks": size, "substeps": substeps,
                   "ms_per_frame": ms}
            if reference:
                row.update(cpp_ms=reference, vs_cpp=ms / reference)
            rows.append(row)
    return rows


if __name__ == "__main__":
    from slime.bench import format_table

    print(format_table(run(quick=True)))
