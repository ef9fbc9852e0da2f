#ifndef RELAY_CGRAPHICS_SHIM_H
#define RELAY_CGRAPHICS_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
#endif
