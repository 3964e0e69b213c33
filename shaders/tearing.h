// When a spring breaks, written once for tear_detect.comp and its CPU twin (solver/model/tearing.cpp).
// Included by physics.h.
#ifndef WEFT_TEARING_H
#define WEFT_TEARING_H

// true when a spring end of length len is past its breaking length; never for springs that do not
// tear (maxLength 0). Strictly past it, so a spring held exactly at its limit survives.
WEFT_FN bool springTears(float len, TearLimit limit) { return limit.maxLength > 0.0f && len > limit.maxLength; }

#endif  // WEFT_TEARING_H
