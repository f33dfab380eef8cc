"""Tutorial 6 (docs/6-figures-for-a-report.md): a picture and a plot of one run, for a report.

1. `slime simulate` records a poked slime into report_run.npz (every vertex, every frame);
2. the height of the slime's top and its volume over time go to report_run.csv, and into
   report_plot.png: with matplotlib when it is installed, else a plain line chart drawn with Pillow;
3. `slime render` draws the frame where the run's dent is deepest, report_dent.png.

Its files all start with ``report_``, so that it never writes over what tutorial 6 has you make
in the same folder (out/dent.png, out/run.npz).

    python examples/figure_for_a_report.py [OUT_FOLDER]     # default: out/
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from slime.cli import main as slime

POKE = "10:0,2,0:0,-150,0"  # frame 10: push the top down with 150 N
RESOLUTION = ["--stacks", "16", "--slices", "16"]


PREFIX = "report_"


def record(out: Path) -> Path:
    run = out / f"{PREFIX}run.npz"
    assert slime(["simulate", "slime", "--ticks", "60", "--poke", POKE, "--output", str(run), *RESOLUTION,
                  "--no-progress"]) == 0
    return run


def draw_deepest(rows: np.ndarray, out: Path) -> Path:
    """The frame where the top is lowest: row k of the run is the state after k frames, what
    `slime render --frames k` draws."""
    path = out / f"{PREFIX}dent.png"
    deepest = int(rows[:, 1].argmin())
    assert slime(["render", "--frames", str(deepest), "--poke", POKE, "--size", "480x360", "--no-progress",
                  "--output", str(path), *RESOLUTION]) == 0
    return path


def table(run: Path, out: Path) -> np.ndarray:
    data = np.load(run)
    time = data["time"]  # (N + 1,) seconds
    top = data["positions"][:, :, 1].max(axis=1)  # highest vertex per frame (m)
    volume = data["volume"] / data["volume"][0]  # relative to the start
    rows = np.column_stack([time, top, volume])
    np.savetxt(out / f"{PREFIX}run.csv", rows, delimiter=",", header="time_s,top_m,volume_ratio", comments="", fmt="%.6f")
    return rows


def plot(rows: np.ndarray, path: Path) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only, no window
        import matplotlib.pyplot as plt
    except ImportError:
        return plot_with_pillow(rows, path)
    fig, ax = plt.subplots(figsize=(5, 3), dpi=120)
    ax.plot(rows[:, 0], rows[:, 1], label="top of the slime (m)")
    ax.plot(rows[:, 0], rows[:, 2], label="volume / start volume")
    ax.set_xlabel("time (s)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return "matplotlib"


def plot_with_pillow(rows: np.ndarray, path: Path) -> str:
    width, height, pad = 600, 360, 40
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    t = rows[:, 0]
    low, high = float(rows[:, 1:].min()), float(rows[:, 1:].max())
    for column, colour in ((1, (31, 119, 180)), (2, (255, 127, 14))):
        xs = pad + (t - t[0]) / max(t[-1] - t[0], 1e-9) * (width - 2 * pad)
        ys = height - pad - (rows[:, column] - low) / max(high - low, 1e-9) * (height - 2 * pad)
        draw.line(list(zip(xs.tolist(), ys.tolist())), fill=colour, width=2)
    draw.rectangle([pad, pad, width - pad, height - pad], outline="black")
    draw.text((pad, 10), "blue: top of the slime (m)   orange: volume / start volume", fill="black")
    draw.text((pad, height - pad + 10), f"time 0 .. {t[-1]:.2f} s   values {low:.3g} (bottom) .. {high:.3g} (top)",
              fill="black")
    image.save(path)
    return "Pillow"


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("out")
    out.mkdir(parents=True, exist_ok=True)
    rows = table(record(out), out)
    drawer = plot(rows, out / f"{PREFIX}plot.png")
    dent = draw_deepest(rows, out)
    print(f"wrote {dent}, {out / f'{PREFIX}run.csv'} and {out / f'{PREFIX}plot.png'} ({drawer})")
