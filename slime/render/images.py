"""Reading pixels back and writing pictures: PNG, and GIF or video (.mp4, .webm) streamed frame by
frame, all atomically (a temp file in the same folder, then a rename)."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Sequence

import numpy as np
from PIL import GifImagePlugin, Image

from slime.fileio import atomic_path, atomic_write, write_error


def read_rgba(fbo, components: int = 4, size=None) -> np.ndarray:
    """The framebuffer's pixels as a read-only (H, W, components) uint8 view, top row first (GL
    reads bottom-up). ``size`` (w, h) for a window's framebuffer, whose own ``size`` may still be
    the one it opened with after a resize."""
    w, h = size or fbo.size
    data = fbo.read(viewport=(0, 0, w, h), components=components, alignment=1)
    # A flipped view, not a copy: on a software rasteriser the copy of an 800x600 frame costs as
    # much as reading it. Writers make it contiguous when they need to.
    return np.frombuffer(data, dtype=np.uint8).reshape(h, w, components)[::-1]


def save_png(path, pixels: np.ndarray) -> None:
    """Write an (H, W, 3|4) uint8 image as PNG, atomically."""
    image = Image.fromarray(np.ascontiguousarray(pixels))
    atomic_write(Path(path), lambda f: image.save(f, format="PNG"))


GIF_MAX_FPS = 50.0  # GIF delays are whole centiseconds, and players slow anything under 20 ms down
# The largest frame (in pixels) a GIF's palette is chosen from: a frame above it is sampled on a
# grid first. Choosing a palette costs more than dithering with it, and a 160 x 120 sample picks
# nearly as good a one (tests/cli/test_frames_output.py holds the blurred error in the slime).
GIF_PALETTE_SAMPLE = 160 * 120


def gif_frame_times(count: int, fps: float) -> np.ndarray:
    """Which of ``count`` frames taken at ``fps`` a GIF keeps so it plays in real time: all of
    them up to 50 fps; above, the frame nearest each 1/50 s (60 Hz drops every sixth)."""
    kept = _GifClock(fps)
    return np.array([i for i in range(count) if kept.wants(i)], dtype=int)


class _GifClock:
    """The GIF's frame times, one frame at a time: which source frames to keep (``wants``) and
    each kept frame's delay in whole centiseconds, rounded so the total never drifts."""

    def __init__(self, fps: float):
        if not (math.isfinite(fps) and fps > 0.0):
            raise ValueError(f"fps must be positive, got {fps}")
        self.fps = fps
        self.step = max(1.0, fps / GIF_MAX_FPS)  # source frames per GIF frame

    def wants(self, index: int) -> bool:
        """GIF frame k shows source frame round(k * step); is ``index`` one of them?"""
        return round(round(index / self.step) * self.step) == index

    def delay_cs(self, gif_frame: int) -> int:
        """Centiseconds GIF frame ``gif_frame`` stays up (up to the next one's start)."""
        t = self.step / self.fps * 100.0
        return round((gif_frame + 1) * t) - round(gif_frame * t)


class FrameWriter:
    """Takes a render's frames one at a time (``add``) and writes ``path`` atomically on ``close``;
    ``abort`` (or leaving a ``with`` block on an exception) leaves no file and no temp behind.
    Frames are (H, W, 3|4) uint8, top row first; ``fps`` is frames per simulated second, played in
    real time. ``wants(i)`` says whether frame ``i`` will be used, so a render may skip drawing it;
    ``last`` says the frame will be the run's last."""

    def __init__(self, path, fps: float):
        if not (math.isfinite(fps) and fps > 0.0):
            raise ValueError(f"fps must be positive, got {fps}")
        self.path, self.fps = Path(path), float(fps)

    def wants(self, index: int, last: bool) -> bool:
        return True

    def add(self, frame: np.ndarray) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def abort(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, kind, value, trace):
        if kind is None:
            self.close()
        else:
            self.abort()


class PngWriter(FrameWriter):
    """A still: only the last frame is drawn and written."""

    def __init__(self, path, fps: float = 60.0):
        super().__init__(path, fps)
        self.frame = None

    def wants(self, index: int, last: bool) -> bool:
        return last

    def add(self, frame: np.ndarray) -> None:
        self.frame = frame

    def close(self) -> None:
        if self.frame is None:
            raise ValueError("no frames to write")
        save_png(self.path, self.frame)


class _Streamed(FrameWriter):
    """A writer that streams into a temp file beside ``path`` (named with ``path``'s extension)
    from the first frame on, and renames it into place on ``close``."""

    def __init__(self, path, fps: float):
        super().__init__(path, fps)
        self._temp = atomic_path(self.path, suffix=f".tmp{self.path.suffix.lower()}")
        self.temp = self._temp.__enter__()
        self.count = 0

    def add(self, frame: np.ndarray) -> None:
        try:
            self._add(np.ascontiguousarray(frame[..., :3]))
        except BaseException as exc:
            self.abort()
            if isinstance(exc, OSError):  # a full disk: name the user's file, not the temporary
                raise write_error(self.path, exc) from None
            raise
        self.count += 1

    def close(self) -> None:
        if self._temp is None:
            return
        try:
            if self.count == 0:
                raise ValueError("no frames to write")
            self._finish()
        except BaseException as exc:
            self.abort()
            if isinstance(exc, OSError):
                raise write_error(self.path, exc) from None
            raise
        temp, self._temp = self._temp, None
        temp.__exit__(None, None, None)

    def abort(self) -> None:
        if self._temp is None:
            return
        temp, self._temp = self._temp, None
        try:
            self._drop()
        finally:
            try:
                temp.__exit__(RuntimeError, RuntimeError("aborted"), None)
            except RuntimeError:
                pass

    def _add(self, rgb: np.ndarray) -> None:
        raise NotImplementedError

    def _finish(self) -> None:
        raise NotImplementedError

    def _drop(self) -> None:
        pass


def gif_palette(image: Image.Image) -> Image.Image:
    """An adaptive 256-colour palette for ``image`` (max-coverage: it keeps the few colours of a
    small translucent body, where median cut spends them on the large background), chosen from
    a grid sample of at most GIF_PALETTE_SAMPLE pixels."""
    w, h = image.size
    step = max(1, math.ceil(math.sqrt(w * h / GIF_PALETTE_SAMPLE)))
    sample = image.reduce(step) if step > 1 else image
    return sample.quantize(colors=256, method=Image.Quantize.MAXCOVERAGE)


def gif_quantize(rgb: np.ndarray) -> Image.Image:
    """One GIF frame: its own adaptive palette, Floyd-Steinberg dithered, so the slime's
    see-through gradients stay gradients instead of bands."""
    image = Image.fromarray(rgb)
    return image.quantize(palette=gif_palette(image), dither=Image.Dither.FLOYDSTEINBERG)


class GifWriter(_Streamed):
    """An animated, looping GIF written frame by frame: each kept frame gets its own palette
    (``gif_quantize``) and only the rectangle that changed since the previous frame is stored;
    a frame equal to the previous one lengthens its delay. Memory holds two frames, whatever
    the count."""

    def __init__(self, path, fps: float):
        super().__init__(path, fps)
        self.clock = _GifClock(self.fps)
        self.file = open(self.temp, "wb")
        self.previous = None  # the last kept source frame
        self.pending = None  # (paletted image, offset, delay_cs): written when the next one differs
        self.kept = 0

    def wants(self, index: int, last: bool) -> bool:
        return self.clock.wants(index)

    def _add(self, rgb: np.ndarray) -> None:
        delay = self.clock.delay_cs(self.kept)
        self.kept += 1
        if self.previous is None:
            first = gif_quantize(rgb)
            header, _ = GifImagePlugin.getheader(first, info={"loop": 0})
            self.file.write(b"".join(header))
            self.pending = (first, (0, 0), delay)
        else:
            changed = np.any(rgb != self.previous, axis=2)
            if not changed.any():
                image, offset, held = self.pending
                self.pending = (image, offset, held + delay)
                return
            rows, cols = np.flatnonzero(changed.any(axis=1)), np.flatnonzero(changed.any(axis=0))
            top, left = rows[0], cols[0]
            patch = rgb[top:rows[-1] + 1, left:cols[-1] + 1]
            self._flush()
            self.pending = (gif_quantize(np.ascontiguousarray(patch)), (int(left), int(top)), delay)
        self.previous = rgb.copy()

    def _flush(self) -> None:
        image, offset, delay = self.pending
        # disposal 1: each frame stays under the next, which covers only what changed.
        data = GifImagePlugin.getdata(image, offset, duration=10 * delay, disposal=1, include_color_table=True)
        self.file.write(b"".join(data))

    def _finish(self) -> None:
        self._flush()
        self.file.write(b";")  # the GIF trailer
        self.file.close()

    def _drop(self) -> None:
        self.file.close()


class VideoWriter(_Streamed):
    """An H.264 .mp4 or VP9 .webm through PyAV (FFmpeg's encoders, shipped in its wheel), encoded
    frame by frame at the render's own frame rate. Odd sizes are padded by one edge row/column
    (4:2:0 chroma needs even sides)."""

    CODECS = {".mp4": ("mp4", "libx264", {"crf": "18", "preset": "medium"}),
              ".webm": ("webm", "libvpx-vp9", {"crf": "30", "b:v": "0", "row-mt": "1", "cpu-used": "4"})}

    def __init__(self, path, fps: float):
        try:
            import av  # here: only a video render pays for loading FFmpeg
        except ImportError as exc:
            raise ValueError(f"video output needs PyAV (pip install av): {exc}") from None

        super().__init__(path, fps)
        muxer, codec, options = self.CODECS[self.path.suffix.lower()]
        self.av = av
        self.container = av.open(str(self.temp), mode="w", format=muxer)
        self.stream = self.container.add_stream(codec, rate=Fraction(self.fps).limit_denominator(1001))
        self.stream.pix_fmt = "yuv420p"
        self.stream.options = dict(options)
        self.opened = False

    def _add(self, rgb: np.ndarray) -> None:
        h, w = rgb.shape[:2]
        if h % 2 or w % 2:
            rgb = np.pad(rgb, ((0, h % 2), (0, w % 2), (0, 0)), mode="edge")
        if not self.opened:
            self.stream.height, self.stream.width = rgb.shape[:2]
            self.opened = True
        frame = self.av.VideoFrame.from_ndarray(rgb, format="rgb24")
        for packet in self.stream.encode(frame):
            self.container.mux(packet)

    def _finish(self) -> None:
        for packet in self.stream.encode():  # flush the encoder's delayed frames
            self.container.mux(packet)
        self.container.close()

    def _drop(self) -> None:
        try:
            self.container.close()
        except Exception:  # a half-open muxer: the temp file goes anyway
            pass


WRITERS = {".png": PngWriter, ".gif": GifWriter, ".mp4": VideoWriter, ".webm": VideoWriter}
OUTPUT_SUFFIXES = tuple(WRITERS)  # what `slime render --output` accepts


def open_frames(path, fps: float) -> FrameWriter:
    """The writer for ``path``'s extension (.png: the last frame; .gif, .mp4, .webm: every frame)."""
    suffix = Path(path).suffix.lower()
    if suffix not in WRITERS:
        raise ValueError(f"output must end with {', '.join(OUTPUT_SUFFIXES)}, got {str(path)!r}")
    return WRITERS[suffix](path, fps)


def save_gif(path, frames: Sequence[np.ndarray], fps: float = 30.0) -> None:
    """Write frames (each (H, W, 3|4) uint8), taken at ``fps`` frames per simulated second, as a
    looping animated GIF that plays in real time (see ``gif_frame_times``), atomically."""
    if len(frames) == 0:
        raise ValueError("no frames to write")
    with GifWriter(path, fps) as gif:
        for i, frame in enumerate(frames):
            if gif.wants(i, i == len(frames) - 1):
                gif.add(frame)
