#ifndef RELAY_CCAIRO_SHIM_H
#define RELAY_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#endif
