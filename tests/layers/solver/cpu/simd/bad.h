// Breaks one rule: the vector lanes include the thread pool.
#include "solver/cpu/thread_pool.h"
