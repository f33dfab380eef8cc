"""The Soda models the scenes load, installed as the package data ``slime.assets`` (this file makes
the folder a package, so ``importlib.resources`` finds it in a wheel and in an editable install alike)."""
