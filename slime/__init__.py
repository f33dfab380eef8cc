"""slime: a soft-body slime simulator and renderer, with 2D mass-spring scenes on the same engine."""

__version__ = "0.1.0"
