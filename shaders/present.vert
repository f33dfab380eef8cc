// The present pass draws the same full-screen triangle as the backdrop.
#include "backdrop.vert"
