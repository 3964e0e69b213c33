// No include guard: included once per unit that builds AVX-512 kernels, each time paired with
// avx512_target_end.h. Everything between the two is compiled for AVX-512 F and DQ (with AVX2
// under them) by a target switch on the unit's own functions, so the rest of the binary still runs
// on any x86-64; what is built there is called only where the processor has both
// (processorHasAvx512, cpu/simd/lanes.h).
// GCC switches FMA on with AVX-512 F, and would then fuse a multiply and an add into one rounding,
// which would not give the scalar path's bits: each unit that includes this header is compiled with
// -ffp-contract=off (weft_avx512_unit in solver/CMakeLists.txt), and the lanes' tests fail if not.
// No header with inline functions another unit also emits may be included between the two (the
// linker could keep this unit's AVX-512 copy for a processor without it): include those before.
#include <immintrin.h>

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512dq"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512dq")
#endif
