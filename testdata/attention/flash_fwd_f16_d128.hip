// flash_fwd_f16.hip at head dimension 128 (the shape of the issue's
// measurement: batch 4, heads 32, sequence 4096, dim 128).
#define HEAD_DIM 128
#include "flash_fwd_f16.hip"
