"""The GLSL shaders, installed as the package data ``slime.shaders`` (this file makes the folder a
package, so ``importlib.resources`` finds it in a wheel and in an editable install alike)."""
