// No include guard: included once per unit that builds AVX2 kernels, each time paired with
// avx2_target_end.h. Everything between the two is compiled for AVX2 by a target switch on the
// unit's own functions, so the rest of the binary still runs on any x86-64; what is built there is
// called only where the processor has AVX2 (processorLaneWidth, cpu/simd/lanes.h). FMA is not switched
// on: a multiply and an add fused into one rounding would not give the scalar path's bits.
// No header with inline functions another unit also emits may be included between the two (the
// linker could keep this unit's AVX2 copy for a processor without it): include those before.
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
