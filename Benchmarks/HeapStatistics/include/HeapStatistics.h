#ifndef MVCLAYERS_HEAP_STATISTICS_H
#define MVCLAYERS_HEAP_STATISTICS_H

#include <stddef.h>

/// Bytes the C allocator has handed out and not yet got back, or -1 where it cannot tell.
/// Used by the benchmarks to measure memory per live observation.
long long heap_bytes_in_use(void);

#endif
