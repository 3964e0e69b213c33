// stb_image's implementation, compiled once into each test program that reads PNGs back.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
