// One source of truth for everything that crosses the C++/GLSL boundary: structs, binding indices,
// push-constant blocks and workgroup sizes, one file a module in layout/. Included by every shader
// and by the host code. Binding numbers are unique across the solver's modules (set 0, push
// descriptors; the renderer's are a set of their own): SharedLayout.BindingNumbersAreUnique checks it.
#ifndef WEFT_SHARED_H
#define WEFT_SHARED_H

#include "interop.h"

#include "layout/solver.h"
#include "layout/colliders.h"
#include "layout/passes.h"
#include "layout/contact.h"
#include "layout/xpbd.h"
#include "layout/solves.h"
#include "layout/render.h"

#endif  // WEFT_SHARED_H
