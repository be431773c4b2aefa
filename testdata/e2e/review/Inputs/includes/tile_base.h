// Index helpers the kernel includes: a change here changes the kernel.
#pragma once
#define TILE_INDEX(k0, r, width, c) (((k0) + (r)) * (width) + (c))
