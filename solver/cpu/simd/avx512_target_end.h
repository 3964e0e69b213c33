// No include guard: closes the AVX-512 target switch that avx512_target_begin.h opened.
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
