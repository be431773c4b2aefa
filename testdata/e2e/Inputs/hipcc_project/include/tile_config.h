// The tile edge comes from the build (-D TILE=16); the header turns it into
// the launch the kernels assume.
#pragma once
#define TILE_THREADS (TILE * TILE)
