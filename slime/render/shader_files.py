"""Shader files: loading, ``#include``, compiler messages with real file names, and live reload.

One loader for every program the package draws with. ``shaders/<name>.vert`` and
``shaders/<name>.frag`` make program ``name``; a line ``#include "other.glsl"`` is replaced by that
file (found beside the including file), recursively. The spliced text keeps a map from each of its
lines back to (file, line), so a compiler message such as Mesa's ``0:41(2): error: ...`` is
reported as ``shaders/light_shadow.glsl:12: error: ...``.

A folder other than the package's own (``--shaders DIR``, written by ``slime shaders export DIR``)
is a ``ShaderFolder(DIR)``. ``ShaderWatch`` polls the files that a set of renderers read and
recompiles a renderer's programs when one of them changes; a program that fails to compile leaves
the renderer on its last good programs and its messages in ``ShaderWatch.errors``.

A renderer that can be reloaded ("an owner") has ``ctx``, ``shader_names`` (the programs it uses)
and ``use_programs(programs)``, which takes a dict name -> new program, releases its old programs
and rebuilds whatever was bound to them.
"""

from __future__ import annotations

import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SHADER_SUFFIXES = (".vert", ".frag", ".glsl")
STAGES = {"vertex_shader": ".vert", "fragment_shader": ".frag"}
WATCH_INTERVAL = 0.25  # seconds between two looks at the files (reading a few small files is cheap)
# Seconds a changed file must stay as it is before it is compiled: an editor that truncates and
# then writes, or writes in pieces, is still saving, and compiling then reports errors in a file
# that is not there yet. An empty file waits ten times as long (truncating is how a save starts).
SETTLE = 0.1

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$')
# Where the compilers put the line: Mesa "0:41(2): error: ...", NVIDIA "0(41) : error C0000: ...",
# AMD / Intel on Windows "ERROR: 0:41: ...".
_LOG_LINE = (
    re.compile(r"^\d+:(?P<line>\d+)\(\d+\):\s*(?P<message>.*)$"),
    re.compile(r"^\d+\((?P<line>\d+)\)\s*:\s*(?P<message>.*)$"),
    re.compile(r"^(?P<kind>ERROR|WARNING):\s*\d+:(?P<line>\d+):\s*(?P<message>.*)$"),
)


class ShaderError(ValueError):
    """Shader files that cannot be read or compiled; ``lines`` holds one ``file:line: message``
    per error (``str()`` joins them with "; " for a one-line message)."""

    def __init__(self, lines):
        self.lines = [str(line) for line in lines] or ["shader error"]
        super().__init__("; ".join(self.lines))


def default_folder() -> Path:
    """The package's own shader folder."""
    from slime import paths

    return Path(paths.SHADERS)


def display_name(path: Path) -> str:
    """``path`` as a person reads it in a message: relative to the current folder when inside it."""
    path = Path(path)
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


def read_shader_file(path) -> bytes:
    """The bytes of one shader file, read as scene files are (``fileio.read_input``): a FIFO, a
    device, a folder, a symlink loop or a file over limits.SHADER_FILE_BYTES is an OSError before
    anything is read, so neither a window nor a render can hang or fill the memory on one."""
    from slime.fileio import read_input
    from slime.limits import SHADER_FILE_BYTES

    return read_input(path, SHADER_FILE_BYTES)


def _real(path: Path) -> str:
    # os.path.realpath, not Path.resolve: a symlink loop is a path to report, not a RuntimeError.
    return os.path.realpath(path)


@dataclass
class Source:
    """A shader file with its includes spliced in: ``origins[i]`` is (file, line) of ``text``'s
    line i + 1; ``files`` every file read (or looked for) on the way; ``path`` the file itself."""

    text: str
    origins: list = field(default_factory=list)
    files: set = field(default_factory=set)
    path: Path | None = None

    def where(self, line: int) -> str:
        """'file:line' for a line number of the spliced text (the last line past the end; line 1
        of the file itself when it is empty)."""
        if not self.origins:
            return f"{self.name}:1"
        path, number = self.origins[min(max(line, 1), len(self.origins)) - 1]
        return f"{display_name(path)}:{number}"

    @property
    def name(self) -> str:
        """The file as a message names it."""
        if self.path is not None:
            return display_name(self.path)
        return display_name(self.origins[0][0]) if self.origins else "shader"


class _Budget:
    """What one spliced stage may still take (``limits.SHADER_SPLICED_BYTES`` of text,
    ``limits.SHADER_INCLUDES`` includes), counted as the files are read."""

    def __init__(self):
        from slime.limits import SHADER_INCLUDES, SHADER_SPLICED_BYTES

        self.bytes, self.includes = SHADER_SPLICED_BYTES, SHADER_INCLUDES


def splice(path: Path, files: set | None = None, _stack: tuple = (), _budget: _Budget | None = None) -> Source:
    """Read ``path`` and replace each ``#include "x"`` line with the file ``x`` beside it; an
    include nested past ``limits.SHADER_INCLUDE_DEPTH``, more includes than ``limits.SHADER_INCLUDES``
    or spliced text past ``limits.SHADER_SPLICED_BYTES`` is a ShaderError at the include that
    passes it, so no folder of shaders can hang a reader or fill its memory."""
    from slime.limits import SHADER_INCLUDE_DEPTH, SHADER_INCLUDES, SHADER_SPLICED_BYTES

    path = Path(path)
    files = set() if files is None else files
    budget = _Budget() if _budget is None else _budget
    files.add(path)
    try:
        text = read_shader_file(path).decode("utf-8")
    except FileNotFoundError:
        raise ShaderError([f"{display_name(path)}: error: no such shader file"]) from None
    except OSError as exc:
        raise ShaderError([f"{display_name(path)}: error: cannot read it ({exc.strerror or exc})"]) from None
    except UnicodeDecodeError:
        raise ShaderError([f"{display_name(path)}: error: cannot read it (not UTF-8 text)"]) from None
    out = Source("", [], files, path)
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _INCLUDE.match(line)
        if match is None:
            budget.bytes -= len(line) + 1
            if budget.bytes < 0:
                raise ShaderError([f"{display_name(path)}:{number}: error: the shader with its includes passes "
                                   f"{SHADER_SPLICED_BYTES // 1024} kB (limits.SHADER_SPLICED_BYTES)"])
            lines.append(line)
            out.origins.append((path, number))
            continue
        target = path.parent / match.group(1)
        here = f"{display_name(path)}:{number}"
        if _real(target) in _stack or _real(target) == _real(path):
            chain = " -> ".join(Path(p).name for p in (*_stack, _real(path), _real(target)))
            raise ShaderError([f"{here}: error: #include cycle: {chain}"])
        if len(_stack) + 1 >= SHADER_INCLUDE_DEPTH:
            raise ShaderError([f"{here}: error: #include nested {SHADER_INCLUDE_DEPTH} deep "
                               "(limits.SHADER_INCLUDE_DEPTH)"])
        budget.includes -= 1
        if budget.includes < 0:
            raise ShaderError([f"{here}: error: more than {SHADER_INCLUDES} #includes in one shader "
                               "(limits.SHADER_INCLUDES)"])
        if not os.path.lexists(target):
            files.add(target)
            raise ShaderError([f'{here}: error: cannot #include "{match.group(1)}": no such file beside it'])
        inner = splice(target, files, (*_stack, _real(path)), budget)
        lines.extend(inner.text.splitlines())
        out.origins.extend(inner.origins)
    out.text = "\n".join(lines) + "\n"
    return out


def with_defines(source: Source, defines) -> Source:
    """``source`` with a ``#define MACRO VALUE`` line for each (macro, value) of ``defines`` after its
    ``#version`` line (GLSL wants that one first), reported as that line: a variant of a program
    that leaves out, at compile time, what it would skip at run time (a software rasteriser pays
    for both sides of a branch)."""
    defines = tuple(defines)
    if not defines:
        return source
    lines = source.text.splitlines()
    at = next((i + 1 for i, line in enumerate(lines) if line.lstrip().startswith("#version")), 0)
    added = [f"#define {macro} {int(value)}" for macro, value in defines]
    origin = source.origins[at - 1] if at and source.origins else (source.path, 1)
    return Source("\n".join(lines[:at] + added + lines[at:]) + "\n",
                  source.origins[:at] + [origin] * len(added) + source.origins[at:], source.files, source.path)


def compiler_messages(log: str, sources: dict) -> list[str]:
    """A moderngl compile/link error text -> one 'file:line: message' per error.

    ``sources`` maps moderngl's stage headings ('vertex_shader', 'fragment_shader') to the spliced
    ``Source`` of that stage; linker messages, which name no line, are put on the program's files.
    """
    stage = None
    out = []
    for raw in log.splitlines():
        line = raw.strip()
        if not line or set(line) == {"="} or line.startswith(("GLSL Compiler failed", "GLSL Linker failed")):
            continue
        if line in sources or line == "Program":
            stage = line
            continue
        source = sources.get(stage)
        for pattern in _LOG_LINE:
            match = pattern.match(line)
            if match and source is not None:
                message = match.group("message")
                kind = match.groupdict().get("kind")
                if kind and not message.lower().startswith(kind.lower()):
                    message = f"{kind.lower()}: {message}"
                out.append(f"{source.where(int(match.group('line')))}: {message}")
                break
        else:
            if source is not None:
                out.append(f"{source.name}: {line}")
            else:  # the linker: both stages' files
                names = ", ".join(s.name for s in sources.values())
                out.append(f"{names}: {line}")
    return out


class ShaderFolder:
    """The folder programs are read from: the package's own, or a copy (``--shaders DIR``)."""

    def __init__(self, folder=None):
        self.path = Path(folder) if folder is not None else default_folder()
        if not self.path.is_dir():
            from slime.fileio import absent

            why = absent(self.path)
            what = {"": "not a folder", "no such file": "no such shader folder"}.get(why, f"not a folder but {why}")
            raise ValueError(f"{display_name(self.path)}: {what} (slime shaders export DIR writes a copy to edit)")
        if not any(p.suffix in SHADER_SUFFIXES for p in self.path.iterdir()):
            raise ValueError(f"{display_name(self.path)}: no shader files in this folder "
                             f"(slime shaders export {display_name(self.path)} writes a copy to edit)")

    def sources(self, name: str, defines=()) -> dict:
        """The spliced vertex and fragment stages of program ``name``, by moderngl's stage names;
        ``defines`` ((macro, value) pairs) as ``#define`` lines after each stage's ``#version``."""
        return {stage: with_defines(splice(self.path / f"{name}{suffix}"), defines) for stage, suffix in STAGES.items()}

    def files(self, name: str) -> set:
        """Every file program ``name`` reads (the ones that exist now), without compiling."""
        found = set()
        for suffix in STAGES.values():
            try:
                splice(self.path / f"{name}{suffix}", found)
            except ShaderError:
                pass
        return found

    def program(self, ctx, name: str, defines=()):
        """Compile and link program ``name`` (a variant of it with ``defines``, see ``with_defines``);
        ShaderError with one line per compiler message, or per input that does not fit what the
        renderer feeds it (``misfits``)."""
        import moderngl

        sources = self.sources(name, defines)
        try:
            program = ctx.program(vertex_shader=sources["vertex_shader"].text,
                                  fragment_shader=sources["fragment_shader"].text)
        except moderngl.Error as exc:
            lines = compiler_messages(str(exc), sources)
            raise ShaderError(lines or [f"{display_name(self.path / name)}: {' '.join(str(exc).split())}"]) from None
        if self.path.resolve() != default_folder().resolve():
            wrong = misfits(program, _reference(ctx, name), sources)
            if wrong:
                program.release()
                raise ShaderError(wrong)
        return program

    def programs(self, ctx, names) -> dict:
        """Every program of ``names``, or ShaderError (with all their messages) and none."""
        built, errors = {}, []
        for name in names:
            try:
                built[name] = self.program(ctx, name)
            except ShaderError as exc:
                errors += exc.lines
        if errors:
            for program in built.values():
                program.release()
            # An included file shared by two programs reports its error once.
            raise ShaderError(list(dict.fromkeys(errors)))
        return built

    def export(self, destination, *, force: bool = False) -> list[Path]:
        """Copy every shader file into ``destination`` (created if missing, its parent must exist);
        a folder that already holds files is refused unless ``force``. Returns the files written."""
        from slime.fileio import absent, atomic_write

        destination = Path(destination)
        why = absent(destination) if os.path.lexists(destination) else ""  # a link that leads nowhere
        if why:
            raise ValueError(f"{display_name(destination)}: {why}")
        if destination.exists() and not destination.is_dir():
            raise ValueError(f"{display_name(destination)}: exists and is not a folder")
        if destination.is_dir() and any(destination.iterdir()) and not force:
            raise ValueError(f"{display_name(destination)}: folder is not empty (--force overwrites "
                             "the shader files in it)")
        if not destination.parent.is_dir():
            raise ValueError(f"{display_name(destination)}: its folder {display_name(destination.parent)} "
                             "does not exist")
        made = not destination.is_dir()
        destination.mkdir(exist_ok=True)
        written, new = [], []
        try:
            for path in sorted(self.path.iterdir()):
                if path.suffix in SHADER_SUFFIXES and path.is_file():
                    data = read_shader_file(path)
                    target = destination / path.name
                    if not target.exists():
                        new.append(target)
                    written.append(atomic_write(target, lambda f, data=data: f.write(data)))
        except BaseException:
            # A full disk or Ctrl-C halfway: no partial copy is left to be mistaken for a whole one.
            for target in new:
                target.unlink(missing_ok=True)
            if made:
                try:
                    destination.rmdir()
                except OSError:
                    pass  # something else was put in it meanwhile: not ours to remove
            raise
        return written


def shader_folder(folder=None) -> ShaderFolder:
    """``folder`` as a ShaderFolder: None is the package's own; a ShaderFolder passes through."""
    return folder if isinstance(folder, ShaderFolder) else ShaderFolder(folder)


def load_program(ctx, name: str, folder=None):
    """Program ``name`` from ``folder`` (default: the package's shaders)."""
    return shader_folder(folder).program(ctx, name)


# GL's names of the types a uniform or an input can have, as GLSL writes them.
_GLSL_TYPES = {5124: "int", 5125: "uint", 5126: "float", 35664: "vec2", 35665: "vec3", 35666: "vec4",
               35667: "ivec2", 35668: "ivec3", 35669: "ivec4", 35670: "bool", 35671: "bvec2", 35672: "bvec3",
               35673: "bvec4", 35674: "mat2", 35675: "mat3", 35676: "mat4", 35678: "sampler2D",
               35680: "samplerCube", 35682: "sampler2DShadow"}
_REFERENCES: dict = {}  # program name -> the package's own program's inputs (the same on every context)


def _inputs(program) -> dict:
    """{name: (``uniform`` or ``input``, GL type)} of a program's uniforms and vertex inputs."""
    import moderngl

    found = {}
    for name in program:
        member = program[name]
        if isinstance(member, moderngl.Uniform):
            found[name] = ("uniform", member.gl_type)
        elif isinstance(member, moderngl.Attribute):
            found[name] = ("input", member.gl_type)
    return found


def _reference(ctx, name: str) -> dict:
    """The inputs of the package's own program ``name``: what the renderers feed it."""
    if name not in _REFERENCES:
        program = ShaderFolder().program(ctx, name)
        _REFERENCES[name] = _inputs(program)
        program.release()
    return _REFERENCES[name]


def misfits(program, reference: dict, sources: dict) -> list[str]:
    """One 'file:line: error: ...' for each uniform or vertex input of ``program`` that the
    package's own program of that name (``reference``, ``_inputs``) has with another type: the
    renderer would set it as the type it was written for, and a window would stop on it. One the
    compiler dropped, or a new one the renderer never sets, is fine (an edited shader may stop
    using an input, or add one of its own that stays zero)."""
    def glsl(gl_type) -> str:
        return _GLSL_TYPES.get(gl_type, f"GL type {gl_type}")

    wrong = []
    for name, (kind, gl_type) in _inputs(program).items():
        expected = reference.get(name)
        if expected is None or expected[1] == gl_type:
            continue
        wrong.append(f"{_declared(name, kind, sources)}: error: {kind} {name} is a {glsl(gl_type)} here, but the "
                     f"renderer gives it a {glsl(expected[1])} (declare it as the package's shader does)")
    return wrong


def _declared(name: str, kind: str, sources: dict) -> str:
    """'file:line' of the declaration of ``name`` in the spliced stages (the first stage's file
    where no line declares it)."""
    word = "uniform" if kind == "uniform" else "in"
    pattern = re.compile(rf"\b{word}\b[^;]*\b{re.escape(name)}\b")
    for stage in ("vertex_shader", "fragment_shader"):
        source = sources[stage]
        for number, line in enumerate(source.text.splitlines(), start=1):
            if pattern.search(line.split("//")[0]):
                return source.where(number)
    return sources["vertex_shader"].name


def set_uniform(program, name: str, value) -> None:
    """Set a uniform if the program has it: an edited shader that stops using one (the compiler
    drops it) keeps working. Arrays and bytes are written raw (matrices), others set as values.
    A value the program holds already is not sent again (kept in ``program.extra``): a frame sets
    a hundred uniforms, most of them as they were, and each costs Python and the driver a call."""
    held = program.extra
    if held is None:
        held = program.extra = {}
    raw = isinstance(value, (bytes, bytearray)) or getattr(value, "ndim", 0) > 0
    key = bytes(value) if isinstance(value, (bytes, bytearray)) else (
        value.tobytes() if raw else value)
    if name in held and held[name] == key:
        return
    member = program.get(name, None)
    if member is None:
        return
    if raw:
        member.write(value)
    else:
        member.value = value
    held[name] = key


def _snapshot(files) -> dict:
    stamps = {}
    for path in files:
        try:
            stamps[path] = read_shader_file(path)
        except OSError:
            stamps[path] = None
    return stamps


class ShaderWatch:
    """Reloads owners' programs when their files change (``check``, every frame) or on demand
    (``check(force=True)``, the F5 key).

    The files are compared by content, so an editor's save is seen whatever the file system's
    timestamp resolution; they are looked at no more often than every ``interval`` seconds. A
    change is compiled once the save is over: the changed files have stayed the same for
    ``settle`` seconds (seen so by two looks, or by their modification time), ten times that while
    one is empty.
    """

    def __init__(self, folder, owners=(), *, interval: float = WATCH_INTERVAL, settle: float = SETTLE,
                 clock=time.monotonic, report=None):
        self.folder = shader_folder(folder)
        self.interval = float(interval)
        self.settle = float(settle)
        self.clock = clock
        self.report = report if report is not None else _to_stderr
        self._owners = []  # [owner, {file: bytes}, [error lines], (changed {file: bytes}, first seen) or None]
        self._last = clock()
        self.reloads = 0  # successful reloads, for tests and the status line
        for owner in owners:
            self.add(owner)

    def add(self, owner) -> None:
        files = set()
        for name in owner.shader_names:
            files |= self.folder.files(name)
        self._owners.append([owner, _snapshot(files), [], None])

    @property
    def errors(self) -> list[str]:
        """The messages of every owner whose files do not compile now (empty when all do)."""
        return [line for _, _, errors, _ in self._owners for line in errors]

    def check(self, force: bool = False) -> bool:
        """Look at the files (at most every ``interval`` s unless ``force``); recompile the owners
        whose files changed (all of them when ``force``). True when anything was recompiled."""
        now = self.clock()
        if not force and now - self._last < self.interval:
            return False
        self._last = now
        attempted = False
        for entry in self._owners:
            owner, stamps = entry[0], entry[1]
            if not force:
                current = _snapshot(stamps)
                if current == stamps:
                    entry[3] = None
                    continue
                if not self._saved(entry, current, now):
                    continue
            entry[3] = None
            attempted = True
            files = set(stamps)  # a broken include is still watched, so fixing it is seen
            for name in owner.shader_names:
                files |= self.folder.files(name)
            # Taken before compiling: a save that lands while it compiles is seen at the next look.
            entry[1] = _snapshot(files)
            entry[2] = self._reload(owner)
        return attempted

    def _saved(self, entry, current: dict, now: float) -> bool:
        """Whether the changes in ``current`` (against the owner's last compiled files) are a
        finished save; remembers when this content was first seen."""
        if entry[3] is None or entry[3][0] != current:
            entry[3] = (current, now)
        changed = [path for path, data in current.items() if data != entry[1].get(path)]
        if any(current[path] == b"" for path in changed):
            # Truncated: a save is under way. Only watching it stay empty says it is not; its
            # modification time cannot (it is the truncation's, whatever comes next).
            return now - entry[3][1] >= 10.0 * self.settle
        return now - entry[3][1] >= self.settle or all(_unchanged_for(path) >= self.settle for path in changed)

    def _reload(self, owner) -> list[str]:
        try:
            programs = self.folder.programs(owner.ctx, owner.shader_names)
        except ShaderError as exc:
            for line in exc.lines:
                self.report(line)
            return exc.lines
        owner.use_programs(programs)
        self.reloads += 1
        self.report(f"slime: reloaded {', '.join(owner.shader_names)} from {display_name(self.folder.path)}")
        return []


def _unchanged_for(path) -> float:
    """Seconds since ``path`` was last written (0 where it cannot be looked at)."""
    try:
        return max(0.0, time.time() - os.stat(path).st_mtime)
    except OSError:
        return 0.0


def _to_stderr(line: str) -> None:
    """A message as it is, so an editor or terminal can jump to the 'file:line:' it starts with."""
    print(line, file=sys.stderr, flush=True)


__all__ = ["ShaderError", "ShaderFolder", "ShaderWatch", "Source", "compiler_messages", "default_folder",
           "load_program", "misfits", "read_shader_file", "set_uniform", "shader_folder", "splice", "with_defines"]
