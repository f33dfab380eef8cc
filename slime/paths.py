"""Where the project's non-Python files live (the package is installed editable from the checkout)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHADERS = ROOT / "shaders"
ASSETS = ROOT / "assets"
