"""The mass-spring engine of the 2D scenes (and any D): particles as structure-of-arrays with
positions of shape (N, D), forces as small functions adding into one (N, D) force array, springs
(Hooke, muscles, breaking), planes, boxes, point-point contacts, and Soda Constructor's tick."""
