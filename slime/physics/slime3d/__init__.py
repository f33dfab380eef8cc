"""The 3D slime: its forces, each one module of compiled loops (``pressure``, ``tension``,
``shape_matching``, ``viscosity``, ``shear``, ``drag``, ``gravity``, over the sums of ``moments``
and the gradients of ``surface``, summed by ``step``), the body's constants (``slime_shape``,
``slime_params``), the world of slimes (``world3d``: obstacles, contacts, recovery), the hand, and
the single slime the demo shows (``slime_body``)."""
