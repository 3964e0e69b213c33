// Breaks one rule: the Vulkan layer names a cloth concept.
#include "solver/model/cloth_model.h"
