/* multisplit_kernels.cuh - the device side of the split engine (internal, CUDA): every header a
 * kernel of multisplit*.cu, table_scan.cu or sort.cu draws on. Every scatter kernel takes its tiles in
 * input order from a counter (so every bucket's output grows at one front) and finds a tile's global
 * start per bucket in the scanned table and the tile rows (tile_order.cuh). The kernels: count
 * (count_kernel.cuh), general scatter (column_kernel.cuh), look-back (lookback_kernel.cuh), two-level
 * (twolevel_kernel.cuh), the table scan (table_scan_block.cuh). */
#ifndef MULTISPLIT_KERNELS_CUH
#define MULTISPLIT_KERNELS_CUH

#include "block_scan.cuh"
#include "multisplit_internal.h"
#include "split_launch.cuh"
#include "tile_order.cuh"
#include "warp_rank.cuh"
#include "warp_scan.cuh"

#endif /* MULTISPLIT_KERNELS_CUH */
