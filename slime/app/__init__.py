"""Windows, input and headless rendering commands: wiring physics and scenes to the renderer."""
