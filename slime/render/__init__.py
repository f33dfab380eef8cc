"""Drawing with moderngl: contexts, buffers, programs, cameras, image files. No physics rules."""
