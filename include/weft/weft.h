#pragma once
// weft: cloth simulation on Vulkan compute, for embedding in a host's renderer. docs/embedding.md
// walks through a host application; every header here is public, and none includes more.
#include "weft/cloth_drawer.h"
#include "weft/cpu_cloth.h"
#include "weft/device.h"
#include "weft/errors.h"
#include "weft/fabric.h"
#include "weft/gpu_cloth.h"
#include "weft/settings.h"
#include "weft/version.h"
