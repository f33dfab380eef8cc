"""Runs written in other programs' formats (glTF 2.0: slime/export/gltf.py)."""
