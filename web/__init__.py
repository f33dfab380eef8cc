"""`slime view`'s web page and the three.js it loads (package data; see slime/paths.py)."""
