"""A world of slimes: any number of slime bodies, each with its own size, resolution and
``SlimeParams``, and static obstacles, stepped together.

All bodies' vertices live in one set of structure-of-arrays buffers, ``x`` and ``v`` of shape
(3, P), body after body. Their constants are one ``slime3d.step.SlimeModel``; the forces are the
compiled kernels of ``slime3d/``, which loop over the bodies, whatever their resolutions. A
substep is one pipeline, Ten Minute Physics' order (``World3D.substeps_of``):

1. forces: the hand's finger moves on; every body's internal forces, gravity and drag
   (``slime3d.step``), your added forces and the hand's pull;
2. symplectic Euler on every vertex at once (``integrate.py``, the 2D engine's too);
3. contacts, each a projection with its velocity change: the hand's finger, the floor
   (``planes.py``, the 2D engine's too) and its adhesion (``adhesion.py``), the lid over a
   squashed slime (``squash``), the obstacles (``obstacles.py``) and their films, slime against slime
   (``contact.py``); then the speed bound.

The compiled stages (``step.slime_substeps``) run a whole frame in one call when nothing of
Python's comes between them, and a stage at a time around what does: the same code whatever the
world holds (a world with an added force that adds nothing steps bit for bit as one without).

Both broad phases run once a frame, before its substeps: which slimes and vertices can touch
within the frame, each pair's contact face (``contact.broad_phase``, ``_held_normals``), and which
vertices can reach which obstacle (``obstacles.FramePairs``, which each substep checks still
holds, falling back to a broad phase of its own).

After each frame every body is checked (``slime3d.health``: finite, no speed over ``max_speed``,
no vertex farther than ``MAX_SPREAD`` radii from its centre); a broken body is put back to its
last good pose, still, and the others go on.

The single slime of the demo is this world with one body (``slime_body.SlimeBody``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

import numpy as np

from slime.physics.slime3d.contact import (BodyTable, FrameBlocks, body_centroids, broad_phase, collide_slimes,
                                          damp_contacts, frame_blocks, pair_axes)
from slime.physics.slime3d.hand import BodyView, Hand, poke as hand_poke, spike as hand_spike
from slime.physics.slime3d.adhesion import ADHESION_REACH
from slime.physics.slime3d.obstacles import FramePairs, ObstacleSet, Plane, collide_obstacles, hold_by_films
from slime.physics.planes import Planes
from slime.physics.slime3d.health import keep_good
from slime.physics.slime3d.moments import body_moments, mass_centroids
from slime.physics.slime3d.shape_matching import best_rotation
from slime.physics.slime3d.step import FORCES, INTEGRATE, PLANES, SPEED_BOUND, bodies_of, build_model, slime_substeps
from slime.physics.threads import balanced_groups, check_threads, pool, threads_from_environment
from slime.physics.parameters import PARAMETERS, find
from slime.physics.slime3d.slime_params import SlimeParams, WorldSettings, vector3
from slime.physics.slime3d.slime_shape import SlimeShape
from slime.physics.slime3d.surface import enclosed_volume, surface_gradients

MAX_SPREAD = 100.0  # radii from the centroid beyond which a vertex means the body is broken
STICK_SPEED = 0.05  # m/s: touching slimes sliding past each other slower than this keep their contact face
HOLD_ANGLE = 25.0  # degrees: the most a held contact face may turn from the line between the centres
# A squashed slime stores so much elastic energy (shape stiffness times its height squared) that,
# let go at once, it leaps: a 1 m slime squashed to a quarter went up 19 m, in the air for 4 s.
# So a lid holds it where it was squashed and rises at this rate (radii per second): the body
# grows back under it and takes off no faster, a hop of (SQUASH_RISE R)^2 / 2g.
SQUASH_RISE = 4.0
SQUASH_LID_END = 2.5  # radii above the lowest point: past every slime's rest top, the lid goes


@dataclass
class Body:
    """One slime of a world: its parameters and constants, and where its vertices are."""

    params: SlimeParams
    shape: SlimeShape
    start: int = 0  # its vertices are x[:, start:stop]
    stop: int = 0
    tag: object = None  # whatever the caller keeps with this body (its look, its name): kept across renumbering

    @property
    def triangles(self) -> np.ndarray:
        return self.shape.triangles

    @property
    def strip(self) -> np.ndarray:
        return self.shape.strip


@dataclass
class Lid:
    """The lid over a squashed slime (``World3D.squash``): at ``height`` (m), rising at ``speed``
    (m/s) until it passes ``end`` (m), where it goes."""

    height: float
    speed: float
    end: float


@dataclass
class BodyState:
    """Everything a body carries through a re-layout of the world's arrays (a slime added, removed
    or given new parameters): its pose and motion (3, P), its last good pose, the rotation its
    shape matching tracks and the last good one, and its lid."""

    params: SlimeParams
    shape: SlimeShape
    x: np.ndarray
    v: np.ndarray
    good: np.ndarray
    rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    good_rotation: np.ndarray = field(default_factory=lambda: np.eye(3))
    tag: object = None
    lid: Lid | None = None
    new: bool = False  # its rotation is to be fitted to its pose when it is laid out


class World3D:
    """Slimes, obstacles, a floor and gravity; see the module docstring."""

    def __init__(self, threads: int | None = None, **settings):
        """``settings``: any of ``WorldSettings``' (the world group of ``parameters.py``: gravity,
        floor_height, floor_friction, floor_restitution, dt, substeps, max_speed,
        max_acceleration), checked as declared, the rest their defaults; ``floor_height=None``: no
        floor. ``threads``: for the bodies' forces, $SLIME_THREADS unless given."""
        floor_height = settings.get("floor_height", 0.0)
        known = [f.name for f in fields(WorldSettings)]
        for name in settings:
            find(name, known)  # an unknown one: one line, nearest names first
        settings = WorldSettings(**{**settings, "floor_height": 0.0 if floor_height is None else floor_height})
        self.settings: WorldSettings = settings  # what every slime of this world shares
        self.gravity = np.asarray(settings.gravity)
        self.floor_height = None if floor_height is None else settings.floor_height
        self.floor = (None if floor_height is None else
                      Planes.floor(3, settings.floor_height, settings.floor_restitution, settings.floor_friction))
        self.dt = settings.dt
        # The frame's substeps: the settings' count, or more when a slime's stiff terms need them
        # (``stability.py``); set with the bodies (``lay_out``).
        self.min_substeps = self.substeps = settings.substeps
        self.max_speed, self.max_acceleration = settings.max_speed, settings.max_acceleration
        # Threads for the bodies' forces (``physics/threads.py``): $SLIME_THREADS unless given.
        self.threads = threads_from_environment() if threads is None else check_threads(threads, "threads")
        self.obstacles: list = []
        self._planes = self.floor if self.floor is not None else Planes.empty(3)  # the floor and the plane obstacles
        # Forces of your own, run every substep after the slimes' own (none in the internal-only
        # view): each called as fn(world, acc, h) and adding accelerations into acc (3, P).
        self.extra_accelerations: list = []
        self._obstacle_set = None
        self._obstacle_frame = None  # this frame's obstacle broad phase (``FramePairs``)
        self.bodies: list[Body] = []
        self.hand = Hand()
        self.time = 0.0
        self.recoveries = 0
        self.contacts = 0
        self.lay_out([])

    @classmethod
    def for_slime(cls, params: SlimeParams) -> "World3D":
        """The world of one slime, with the world settings of its own parameters."""
        return cls(**vars(params.world))

    # ------------------------------------------------------------------ bodies
    def settle_params(self, params: SlimeParams) -> SlimeParams:
        """A slime's parameters with this world's settings (``WorldSettings``: gravity, floor, time step
        and bounds); in a world without a floor the slime keeps its own floor fields, which nothing reads."""
        world = self.settings
        if self.floor is None:
            world = replace(world, floor_height=params.floor_height, floor_friction=params.floor_friction,
                            floor_restitution=params.floor_restitution)
        return params.with_world(world)

    def add_slime(self, params: SlimeParams, velocity=(0.0, 0.0, 0.0), tag=None) -> int:
        """Add a slime at rest in its rest shape at ``params.center``, moving at ``velocity``;
        returns its body index (indices are positions in the world's vertex order: adding or
        removing a slime may renumber the others, and lets go of whatever the hand holds; ``tag``
        stays with the body)."""
        velocity = vector3("velocity", velocity)
        params = self.settle_params(params)
        shape = SlimeShape(params)
        x = (shape.rest_offsets + np.asarray(params.center)).T.copy()
        v = np.repeat(velocity[:, None], shape.count, axis=1)
        states = self.body_states()
        states.append(BodyState(params=params, shape=shape, x=x, v=v, good=x.copy(), tag=tag, new=True))
        self.lay_out(states)
        return next(i for i, b in enumerate(self.bodies) if b.shape is shape)

    def remove_slime(self, index: int) -> None:
        """Take body ``index`` out of the world."""
        index = self._check_body(index)
        states = self.body_states()
        del states[index]
        self.lay_out(states)

    def set_slime_params(self, index: int, params: SlimeParams) -> None:
        """New parameters for body ``index``, keeping its state (a new resolution remakes it in
        its rest shape at its current centroid)."""
        self.set_slimes_params({index: params})

    def set_slimes_params(self, params_by_body: dict) -> None:
        """``set_slime_params`` for several bodies ({index: SlimeParams}) with one re-layout of the
        world's arrays (a panel slider moved with 64 slimes out would otherwise lay them out 64
        times). Body indices may change as for ``add_slime``, and the hand lets go."""
        changes = {self._check_body(index): self.settle_params(params) for index, params in params_by_body.items()}
        if not changes:
            return
        states = self.body_states()
        for index, params in changes.items():
            state = states[index]
            old = state.shape
            shape = SlimeShape(params)
            if (shape.stacks, shape.slices) != (old.stacks, old.slices):
                centre = mass_centroids(state.x.T, old.mass, [0])[0]
                x = (shape.rest_offsets + centre).T.copy()
                state = replace(state, x=x, v=np.zeros_like(x), good=x.copy(), rotation=np.eye(3),
                                good_rotation=np.eye(3), new=True)
            states[index] = replace(state, params=params, shape=shape)
        self.lay_out(states)

    def set_gravity(self, gravity) -> None:
        """The world's gravity (m/s^2), for every body from the next substep on; the state is kept."""
        gravity = PARAMETERS["gravity"].check(gravity)
        self.gravity = np.asarray(gravity, dtype=np.float64)
        self.settings = replace(self.settings, gravity=gravity)
        # Every body's parameters carry it, and the model is built from them: re-laid out once.
        self.set_slimes_params({index: body.params for index, body in enumerate(self.bodies)})

    def _check_body(self, index) -> int:
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise ValueError(f"a body index must be an integer, got {index!r}")
        if not 0 <= int(index) < len(self.bodies):
            raise ValueError(f"body index {index} out of range 0..{len(self.bodies) - 1}")
        return int(index)

    def body_states(self) -> list[BodyState]:
        """Every body's state, copied out of the shared arrays (to be laid out again)."""
        return [BodyState(params=body.params, shape=body.shape, x=self.x[:, body.start : body.stop].copy(),
                          v=self.v[:, body.start : body.stop].copy(),
                          good=self._good_x[:, body.start : body.stop].copy(), rotation=self.rotation[index].copy(),
                          good_rotation=self._good_rotation[index].copy(), tag=body.tag, lid=self._body_lid(index))
                for index, body in enumerate(self.bodies)]

    def lay_out(self, states: list[BodyState]) -> None:
        """Lay the bodies out in the shared arrays, in the order given, and build their model."""
        self.hand = Hand()
        total = sum(st.shape.count for st in states)
        self.x = np.zeros((3, total))
        self.v = np.zeros((3, total))
        self._acc = np.zeros((3, total))
        self._good_x = np.zeros((3, total))
        self._x_prev = np.zeros((3, total))  # each substep's start, for the obstacles' swept test
        # The forces' scratch: one body's worth (the largest), reused body after body.
        largest = max((st.shape.count for st in states), default=0)
        self._work = np.zeros((5, 3, largest))
        self._ones = np.ones(total)  # the integrator's unit masses and velocity scales: it is given accelerations
        self._point_radius = np.zeros(total)  # each vertex meets the floor as a point: radius 0
        self._touching = np.zeros(total, dtype=np.bool_)
        self.mass = np.zeros(total)
        self.body_of_vertex = np.zeros(total, dtype=np.int64)
        self.bodies = []
        self.rotation = np.zeros((len(states), 3, 3))
        self._good_rotation = np.zeros((len(states), 3, 3))
        self._volume = np.array([st.shape.ideal_volume for st in states], dtype=np.float64)
        start = 0
        for index, st in enumerate(states):
            stop = start + st.shape.count
            self.bodies.append(Body(st.params, st.shape, start, stop, st.tag))
            self.x[:, start:stop] = st.x
            self.v[:, start:stop] = st.v
            self._good_x[:, start:stop] = st.good
            self.mass[start:stop] = st.shape.mass
            self.body_of_vertex[start:stop] = index
            self.rotation[index] = st.rotation
            self._good_rotation[index] = st.good_rotation
            start = stop
        self.model = build_model([b.shape for b in self.bodies], [b.start for b in self.bodies], total, self.gravity)
        # The bodies' groups for the force threads, each (its model, its first body, the end, its
        # own scratch).
        groups = balanced_groups([b.shape.count for b in self.bodies], self.threads)
        self._groups = [(bodies_of(self.model, first, end), first, end, np.zeros_like(self._work))
                        for first, end in groups] if len(groups) > 1 else None
        self.substeps = max([self.min_substeps] + [b.shape.substeps_needed for b in self.bodies])
        self._max_acceleration = self.model.max_acceleration[None, :]
        for index, st in enumerate(states):
            if st.new:
                self._track(index)
        self.triangles = (np.concatenate([b.triangles + b.start for b in self.bodies])
                          if self.bodies else np.zeros((0, 3), dtype=np.int64))
        self._candidates = None
        self._pair_faces = (np.zeros(0, dtype=np.int64), np.zeros((0, 3)))  # held contact faces (sorted keys)
        # The bodies' layout for the broad phases: its blocks are bounded once a frame for the
        # obstacles and, with two bodies or more, for their contacts.
        self._table = BodyTable(
            start=[b.start for b in self.bodies], stop=[b.stop for b in self.bodies],
            stacks=[b.shape.stacks for b in self.bodies], slices=[b.shape.slices for b in self.bodies],
            radius=[b.params.radius for b in self.bodies], mass=self.mass,
            friction=[b.params.contact_friction for b in self.bodies]) if self.bodies else None
        self._contact_table = self._table if len(self.bodies) > 1 else None
        # How far from an obstacle its film can hold a vertex: the thickest film of an adhesive body.
        self._film_reach = max((ADHESION_REACH * b.params.radius for b in self.bodies if b.params.material.adhesion > 0.0),
                               default=0.0)
        self._set_lids([st.lid for st in states])



    def _track(self, index: int) -> None:
        """Body ``index``'s rotation fitted to its current pose (kept where the pose has none), and
        that pose taken as its last good one."""
        body = self.bodies[index]
        covariance = body_moments(self.x, self.v, self.mass, self.model.rest, body.start, body.shape.count)[3]
        self.rotation[index] = best_rotation(covariance, self.rotation[index])
        self._good_rotation[index] = self.rotation[index]
        self._good_x[:, body.start : body.stop] = self.x[:, body.start : body.stop]

    # ------------------------------------------------------------------ views and measurements
    @property
    def positions(self) -> np.ndarray:
        """(P, 3) float64 view of every vertex, body after body."""
        return self.x.T

    @property
    def velocities(self) -> np.ndarray:
        return self.v.T

    def view(self, index: int) -> BodyView:
        body = self.bodies[index]
        return BodyView(self.x, self.v, body.start, body.shape.mass, body.params, body.shape.triangles)

    def body_positions(self, index: int) -> np.ndarray:
        body = self.bodies[index]
        return self.x[:, body.start : body.stop].T

    def centroids(self) -> np.ndarray:
        """(B, 3) centres of mass."""
        return mass_centroids(self.x.T, self.mass, [b.start for b in self.bodies])

    def volumes(self) -> np.ndarray:
        """(B,) enclosed volume of each body, as the last substep's pressure measured it (one
        substep behind the positions; ``enclosed_volumes`` measures them where they are)."""
        return self._volume.copy()

    def enclosed_volumes(self) -> np.ndarray:
        """(B,) each body's enclosed volume where its vertices are now, measured as its pressure
        measures it (``slime3d.surface``)."""
        volumes = np.empty(len(self.bodies))
        grad_volume, grad_area = self._work[0], self._work[1]
        for index, (body, centre) in enumerate(zip(self.bodies, self.centroids())):
            shape = body.shape
            surface_gradients(self.x, body.start, shape.stacks, shape.slices, grad_volume, grad_area)
            volumes[index] = enclosed_volume(self.x, grad_volume, body.start, shape.count, centre)
        return volumes

    def kinetic_energy(self) -> float:
        return 0.5 * float(self.mass @ np.einsum("ij,ij->j", self.v, self.v))

    def momentum(self) -> np.ndarray:
        return self.v @ self.mass

    def rotations(self) -> np.ndarray:
        """(B, 3, 3) the best-fit rotation each body's shape matching tracks."""
        return self.rotation.copy()

    # ------------------------------------------------------------------ obstacles
    def add_obstacle(self, obstacle) -> None:
        self.obstacles.append(obstacle)
        self._place_obstacles()

    def clear_obstacles(self) -> None:
        self.obstacles = []
        self._place_obstacles()

    def _place_obstacles(self) -> None:
        """A plane obstacle is a floor: contacted with the floor, by the same compiled law and with
        its adhesion (``step.PLANES``); the solid kinds are swept (``obstacles.collide_obstacles``)."""
        walls = [o for o in self.obstacles if isinstance(o, Plane)]
        solids = [o for o in self.obstacles if not isinstance(o, Plane)]
        self._obstacle_set = ObstacleSet(solids) if solids else None
        planes = Planes.create(np.array([o.normal for o in walls]).reshape(-1, 3),
                               np.array([o.point for o in walls]).reshape(-1, 3), 0.0, [o.friction for o in walls])
        self._planes = planes if self.floor is None else self.floor.joined(planes)

    # ------------------------------------------------------------------ stepping
    def accelerations(self, h: float, internal_only: bool = False) -> np.ndarray:
        """Fill and return the (3, P) acceleration of every vertex for a substep of length h:
        the bodies' forces (``slime3d.step``), then the added forces and the hand's pull, each
        component held within the body's ``max_acceleration``."""
        self._forces(h, internal_only)
        if not internal_only:
            self._added_forces(h)
        return self._acc

    def substep(self, h: float) -> None:
        """One substep of length h (``substeps_of``)."""
        self.substeps_of(h, 1)

    def pipeline(self) -> list:
        """A substep's stages, in the order they run, each a compiled stage of
        ``step.slime_substeps`` (an int) or one of this world's (a method taking h); a stage with
        nothing to do in this world is left out. The order is Ten Minute Physics': the forces (the
        hand's finger moves on; every body's own; the added ones and the hand's pull), symplectic
        Euler, then the contacts, each a projection with its velocity change (the finger, the floor
        and the plane obstacles with their adhesion, the lids, the obstacles swept along each
        vertex's path in the substep and their adhesion, slime against slime), and last the speed
        bound."""
        hand = self.hand
        stages = []
        if self._obstacle_set is not None:
            stages.append(self._start_sweep)
        if hand.finger is not None:
            stages.append(self._advance_hand)
        stages.append(FORCES if self._groups is None else self._forces)
        if hand.body is not None or self.extra_accelerations:
            stages.append(self._added_forces)
        stages.append(INTEGRATE)
        if hand.finger is not None:
            stages.append(self._push_out_of_finger)
        if self._planes.count:
            stages.append(PLANES)
        if self._lid is not None:
            stages.append(self._hold_under_lids)
        if self._obstacle_set is not None:
            stages.append(self._collide_obstacles)
            if self._film_reach > 0.0:
                stages.append(self._hold_by_obstacle_films)
        if self._contact_table is not None:
            stages.append(self._collide_slimes)
        stages.append(SPEED_BOUND)
        return stages

    def substeps_of(self, h: float, count: int) -> None:
        """``count`` substeps of length h, each the stages of ``pipeline`` in order. Neighbouring
        compiled stages run in one call of ``step.slime_substeps``, and a pipeline that is all
        compiled runs its ``count`` substeps in one: the same code, so a world steps alike
        whatever it holds."""
        runs = []  # the pipeline with each run of compiled stages as one mask
        for stage in self.pipeline():
            if isinstance(stage, int) and runs and isinstance(runs[-1], int):
                runs[-1] |= stage
            else:
                runs.append(stage)
        if len(runs) == 1:
            self._compiled_substeps(h, count, runs[0])
            for _ in range(count):  # the clock as a substep at a time keeps it
                self.time += h
            return
        for _ in range(count):
            for run in runs:
                if isinstance(run, int):
                    self._compiled_substeps(h, 1, run)
                else:
                    run(h)
            self.time += h

    # The world's own stages (``pipeline``), each taking the substep's length.
    def _start_sweep(self, h: float) -> None:
        np.copyto(self._x_prev, self.x)  # the obstacles' swept test starts where the substep does

    # The finger and the lids may go within a frame whose pipeline held them: then they do nothing.
    def _advance_hand(self, h: float) -> None:
        if self.hand.finger is not None:
            self.hand.advance(self.view(self.hand.body), h)

    def _forces(self, h: float, internal_only: bool = False) -> None:
        """Every body's forces into the acceleration, on this world's threads when it has groups."""
        if self._groups is None:
            self._compiled_substeps(h, 1, FORCES, internal_only)
            return
        # The first group on this thread, while the pool's threads take the others.
        runs = [pool(self.threads - 1).submit(self._compiled_substeps, h, 1, FORCES, internal_only, group)
                for group in self._groups[1:]]
        self._compiled_substeps(h, 1, FORCES, internal_only, self._groups[0])
        for run in runs:
            run.result()

    def _added_forces(self, h: float) -> None:
        """Your added forces and the hand's pull, into the acceleration the bodies' forces left,
        held again within ``max_acceleration``."""
        held = self.hand.body
        if held is None and not self.extra_accelerations:
            return  # the kernels held the forces within max_acceleration
        acc = self._acc
        for extra in self.extra_accelerations:
            extra(self, acc, h)
        if held is not None:
            body = self.bodies[held]
            self.hand.add_pull(self.view(held), acc[:, body.start : body.stop].T, h)
        limit = self._max_acceleration
        np.clip(acc, -limit, limit, out=acc)

    def _push_out_of_finger(self, h: float) -> None:
        if self.hand.finger is not None:
            self.hand.push_out(self.view(self.hand.body))  # a pressing finger is solid

    def _collide_obstacles(self, h: float) -> None:
        collide_obstacles(self.x.T, self.v.T, self._x_prev.T, self._obstacle_set, frame=self._obstacle_frame,
                          grip=self.model.grip, planes=self._planes)

    def _hold_by_obstacle_films(self, h: float) -> None:
        held = self.hand.body
        hold_by_films(self.x, self.v, self._x_prev, self._obstacle_set, self.model, h, -1 if held is None else held,
                      self._film_reach, frame=self._obstacle_frame, checked=True)

    def _collide_slimes(self, h: float) -> None:
        if self._candidates is None:
            self._find_contacts()
        # The frame's held normals place the planes; no centroids needed (see collide_slimes).
        self.contacts = max(self.contacts, collide_slimes(self._contact_table, self._candidates, self.x.T, self.v.T))

    def _compiled_substeps(self, h: float, count: int, stages: int, internal_only: bool = False,
                           group=None) -> None:
        """``step.slime_substeps``: ``count`` substeps of length h of the compiled ``stages``, of
        every body, or (the forces alone) of a ``group`` (its model, its first body, the end, its
        scratch)."""
        planes = self._planes
        model, rotation, volume, work = self.model, self.rotation, self._volume, self._work
        if group is not None:
            model, first, end, work = group
            rotation, volume = rotation[first:end], volume[first:end]
        held = self.hand.body
        slime_substeps(model, self.x, self.v, self._acc, rotation, volume, work, float(h), count, stages,
                       bool(internal_only), self._ones, planes.normal, planes.point, planes.restitution,
                       planes.friction, float(planes.bounce_threshold), self._touching, self._point_radius,
                       float(self.max_speed), np.int64(-1 if held is None else held))

    def _find_contacts(self, blocks: FrameBlocks | None = None) -> None:
        """The broad phase of slime-slime contact, once a frame, on the frame's ``blocks`` (bounded
        now when not given): which bodies and vertices can touch within it (``contact.broad_phase``)."""
        if blocks is None:
            blocks = frame_blocks(self._contact_table, self.x.T, self.v.T)
        self._candidates = broad_phase(self._contact_table, self.x.T, self.v.T, self.dt, blocks=blocks,
                                       faces=self._held_normals)

    def _held_normals(self, first, second, centroids, velocity) -> np.ndarray:
        """The contact plane normal for this frame of each pair of bodies the broad phase found
        (``first``, ``second``, their ``centroids`` and centroid ``velocity``). Two jellies pressed
        together touch over a flattened face that belongs to both: while they do not slide
        against each other (static friction), the face keeps its orientation instead of swinging
        with the line between their centres, so a slime sitting on another is held as on a floor
        and a stack stands. A pair whose centres slide past each other faster than
        ``STICK_SPEED``, or whose face has turned ``HOLD_ANGLE`` from the line of centres, follows
        that line (two smooth balls); a new pair starts on it."""
        line, _ = pair_axes(centroids, first, second)
        normals = line.copy()
        count = len(self.bodies)
        keys = first * count + second
        old_keys, old_normals = self._pair_faces
        if old_keys.size and keys.size:
            where = np.clip(np.searchsorted(old_keys, keys), 0, old_keys.size - 1)
            known = old_keys[where] == keys
            relative = velocity[second] - velocity[first]
            sliding = relative - np.einsum("ij,ij->i", relative, line)[:, None] * line
            held = known & (np.linalg.norm(sliding, axis=1) < STICK_SPEED)
            face = old_normals[where]
            cos = np.einsum("ij,ij->i", face, line)
            held &= cos > np.cos(np.radians(HOLD_ANGLE))
            normals[held] = face[held]
        order = np.argsort(keys)
        self._pair_faces = (keys[order], normals[order])
        return normals

    def step(self) -> None:
        """One frame: ``begin_frame``, ``substeps`` substeps of ``dt / substeps`` (``substeps_of``),
        ``end_frame``."""
        with np.errstate(all="ignore"):
            self.begin_frame()
            self.substeps_of(self.dt / self.substeps, self.substeps)
            self.end_frame()

    def begin_frame(self) -> None:
        """What a frame does once before its substeps: both broad phases, on blocks bounded once
        for the slimes' contacts and the obstacles."""
        self.contacts = 0  # the most vertices in slime-slime contact in one substep of this frame
        blocks = (frame_blocks(self._table, self.x.T, self.v.T)
                  if self._table is not None and (self._contact_table is not None or self._obstacle_set is not None)
                  else None)
        if self._contact_table is not None:
            self._find_contacts(blocks)
        if self._obstacle_set is not None:
            self._obstacle_frame = FramePairs(self.x.T, self.v, self._obstacle_set, self.dt, blocks, self._film_reach)

    def end_frame(self) -> None:
        """What a frame does once after its substeps: the contacts' damping, and every body's
        health (a broken one is recovered)."""
        if self._contact_table is not None:
            damp_contacts(self._contact_table, self._candidates, self.x.T, self.v.T,
                          body_centroids(self._contact_table, self.x.T), self.dt)
        self._check_health()

    def _check_health(self) -> None:
        """Every body checked (``slime3d.health``): a broken one is recovered, and a healthy one's
        state is kept as its last good one (after every good frame, not before each one, so that
        state broken from outside between frames is not taken for good)."""
        if not self.bodies:
            return
        healthy = keep_good(self.model, self.x, self.v, self.rotation, self._good_x, self._good_rotation,
                            self.max_speed, MAX_SPREAD * 1.01)
        if not healthy.all():
            for index in np.flatnonzero(~healthy):
                self._recover(int(index))

    def problems(self) -> list[str]:
        """What went wrong in the run so far that a headless run reports (one line each, as a 2D
        scene's ``problems``): the bodies put back by recovery, which a run otherwise shows only
        as a slime frozen in its last good pose."""
        if not self.recoveries:
            return []
        return [f"{self.recoveries} recovery(ies): a 3D slime broke (a non-finite or runaway state) and was put "
                "back to its last good pose, still; its parameters or what was done to it are past what "
                "the step carries"]

    def _recover(self, index: int) -> None:
        """Broken body: the rest shape back at its last good centre and orientation, still."""
        self.recoveries += 1
        body = self.bodies[index]
        shape = body.shape
        good = self._good_x[:, body.start : body.stop]
        rotation = self._good_rotation[index]
        centre = mass_centroids(good.T, shape.mass, [0])[0]
        if not np.all(np.isfinite(centre)):
            centre = np.asarray(body.params.center)
        self.x[:, body.start : body.stop] = (centre + shape.rest_offsets @ rotation.T).T
        self.v[:, body.start : body.stop] = 0.0
        self.rotation[index] = rotation

    def reset_body(self, index: int) -> None:
        """Body ``index`` back to its rest shape at its parameters' centre, at rest."""
        index = self._check_body(index)
        body = self.bodies[index]
        sl = slice(body.start, body.stop)
        self.x[:, sl] = (body.shape.rest_offsets + np.asarray(body.params.center)).T
        self.v[:, sl] = 0.0
        self.rotation[index] = np.eye(3)
        self._volume[index] = body.shape.ideal_volume
        self._track(index)
        if self._lid is not None:
            self._lid[:, index] = (np.inf, 0.0, -np.inf)  # no longer squashed
        if self.hand.body == index:
            self.hand = Hand()

    # ------------------------------------------------------------------ the hand
    def poke(self, index: int, point, force, radius: float | None = None) -> int:
        return hand_poke(self.view(self._check_body(index)), point, force, radius)

    def spike(self, index: int, amount: float = 0.5, seed=None) -> None:
        index = self._check_body(index)
        hand_spike(self.view(index), amount, seed)
        self._spiked_out_of_obstacles(index)

    def _spiked_out_of_obstacles(self, index: int) -> None:
        """A spike throws vertices anywhere within its scatter, into an obstacle or through it to
        its far side, where the body's own pull would hold them against the obstacle's back and
        the slime would stay wrapped round it. So each vertex of the body is swept from the body's
        centre of mass out to where it was thrown (``collide_obstacles``): one that met an obstacle
        on the way is put back on the face it met, on the body's side."""
        if self._obstacle_set is None:
            return
        body = self.bodies[index]
        span = slice(body.start, body.stop)
        centre = mass_centroids(self.x[:, span].T, body.shape.mass, [0])[0]
        if not np.all(np.isfinite(centre)):
            return  # a broken body: its recovery puts it back
        home = np.repeat(centre[None, :], body.stop - body.start, axis=0)
        with np.errstate(all="ignore"):
            collide_obstacles(self.x[:, span].T, self.v[:, span].T, home, self._obstacle_set,
                              grip=self.model.grip[span], planes=self._planes)

    def grab(self, index: int, index_or_point, reach: float | None = None) -> int:
        index = self._check_body(index)
        return self.hand.grab(index, self.view(index), index_or_point, reach)

    def drag_to(self, target) -> None:
        self.hand.drag_to(target)

    def release(self, velocity=None) -> None:
        held = self.hand.body
        self.hand.release(self.view(held) if held is not None else None, velocity)

    def press(self, index: int, point, direction) -> int:
        index = self._check_body(index)
        return self.hand.press(index, self.view(index), point, direction)

    def unpress(self) -> None:
        self.hand.unpress()

    def squash(self, factor: float = 0.25) -> None:
        """Every slime squashed flat onto its lowest point (its height times ``factor``, its width
        kept), under a lid that then rises at ``SQUASH_RISE`` radii per second: the volume and
        shape forces blow the slime back up under it, and it comes off the lid with a small hop
        (let go at once, its elastic energy would throw it many times its height)."""
        try:
            factor = float(factor)
        except (TypeError, ValueError):
            raise ValueError(f"squash factor must be a number in (0, 1], got {factor!r}") from None
        if not 0.0 < factor <= 1.0:
            raise ValueError(f"squash factor must be in (0, 1], got {factor}")
        lids = []
        for index, body in enumerate(self.bodies):
            sl = slice(body.start, body.stop)
            y = self.x[1, sl]
            low, high = float(y.min()), float(y.max())
            self.x[1, sl] = low + (y - low) * factor
            if not (np.isfinite(low) and np.isfinite(high)):
                lids.append(None)  # a broken body: its recovery puts it back, no lid
                continue
            radius = body.params.radius
            lids.append(Lid(low + (high - low) * factor, SQUASH_RISE * radius, low + SQUASH_LID_END * radius))
        self._set_lids(lids)

    def lids(self) -> list:
        """Each body's lid (``Lid``: height, rising speed, end height), or None where it has none."""
        return [self._body_lid(index) for index in range(len(self.bodies))]

    def _body_lid(self, index: int) -> Lid | None:
        """Body ``index``'s lid, or None."""
        if self._lid is None or not np.isfinite(self._lid[0, index]):
            return None
        return Lid(*(float(value) for value in self._lid[:, index]))

    def _set_lids(self, lids: list) -> None:
        """One lid per body (None: no lid), held as rows (height, speed, end) over the bodies."""
        if not any(lid is not None for lid in lids):
            self._lid = None
            return
        self._lid = np.array([(lid.height, lid.speed, lid.end) if lid is not None else (np.inf, 0.0, -np.inf)
                              for lid in lids], dtype=np.float64).T

    def _hold_under_lids(self, h: float) -> None:
        """The lids rise by one substep; every vertex above its body's lid is put on it, rising no
        faster than the lid. A lid past its end height is gone."""
        if self._lid is None:
            return
        height, speed, end = self._lid
        height += speed * h
        gone = height > end
        if gone.any():
            height[gone] = np.inf
            if not np.isfinite(height).any():
                self._lid = None
                return
        top = height.take(self.body_of_vertex)
        above = np.flatnonzero(self.x[1] > top)
        if above.size:
            self.x[1, above] = top.take(above)
            self.v[1, above] = np.minimum(self.v[1, above], speed.take(self.body_of_vertex.take(above)))
