// Breaks two rules: the model includes the GPU layer and a reader.
#include "engine/buffer.h"
#include "solver/io/recording.h"
// Allowed: the model's own files and the shaders' shared headers.
#include "solver/model/scene.h"
#include "shaders/shared.h"
