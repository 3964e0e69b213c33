// stb_image's implementation, compiled once for the viewer tests that read screenshots back.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
